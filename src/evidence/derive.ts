/**
 * Derive the file/command/skill lists of the evidence from the ordered tool calls.
 * Pure.
 */
import type { ToolCall } from "../core/evidence.js";
import { strOf } from "./narrow.js";
import { findSkillPaths, relativize } from "./paths.js";

export type WriteKind = "create" | "update";

interface SkillFileTouch {
  skill: string;
  path: string;
  via: string;
}

export interface DerivedLists {
  commands_run: string[];
  files_read: string[];
  files_created: string[];
  files_modified: string[];
  skills_invoked: string[];
  skill_files_touched: SkillFileTouch[];
}

export interface DeriveOptions {
  /** Roots to make paths relative to, tried in order (workspace, then the init cwd). */
  roots: readonly string[];
  /** Relative paths that existed before the agent ran. */
  preexisting: ReadonlySet<string>;
  /** Write kind reported by Claude (`tool_use_result.type`), by tool call index. */
  writeKinds: ReadonlyMap<number, WriteKind>;
}

const EDIT_TOOLS = new Set(["Edit", "MultiEdit", "NotebookEdit"]);
/** Input fields of the listing/searching tools that name paths (Grep's `pattern` is a regex, not a path). */
const LIST_TOOL_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ["Glob", ["path", "pattern"]],
  ["Grep", ["path", "glob"]],
  ["LS", ["path"]],
]);

/** Name of the skill a Skill tool call asks for (`skill`, or older `command` / `name` forms). */
function skillNameOf(input: Record<string, unknown>): string | null {
  const raw = strOf(input.skill) ?? strOf(input.command) ?? strOf(input.name);
  if (raw === null) return null;
  const name = raw.trim().replace(/^\//, "").split(/\s/, 1)[0] ?? "";
  return name === "" ? null : name;
}

export function deriveLists(calls: readonly ToolCall[], opts: DeriveOptions): DerivedLists {
  const commands = new Set<string>();
  const read = new Set<string>();
  const created = new Set<string>();
  const modified = new Set<string>();
  const skills = new Set<string>();
  const touches = new Map<string, SkillFileTouch>();
  /** Paths the stream has shown to exist (read, written or edited). */
  const seen = new Set<string>();
  const rel = (p: string): string => relativize(p, opts.roots);

  const touch = (text: string, via: string, asPath: boolean): void => {
    for (const m of findSkillPaths(text)) {
      const p = asPath ? rel(text) : rel(m.path);
      const key = `${m.skill}\0${p}\0${via}`;
      if (!touches.has(key)) touches.set(key, { skill: m.skill, path: p, via });
    }
  };

  calls.forEach((call, index) => {
    const failed = call.is_error === true;
    const input = call.input;
    switch (call.name) {
      case "Bash": {
        const command = strOf(input.command);
        if (command === null) break;
        commands.add(command);
        touch(command, "Bash", false);
        break;
      }
      case "Read": {
        const file = strOf(input.file_path);
        if (file === null) break;
        touch(file, "Read", true);
        if (failed) break;
        const p = rel(file);
        read.add(p);
        seen.add(p);
        break;
      }
      case "Write": {
        const file = strOf(input.file_path);
        if (file === null || failed) break;
        const p = rel(file);
        const kind =
          opts.writeKinds.get(index) ??
          (opts.preexisting.has(p) || seen.has(p) ? "update" : "create");
        if (kind === "create") created.add(p);
        else if (!created.has(p)) modified.add(p);
        seen.add(p);
        break;
      }
      case "Skill": {
        const name = skillNameOf(input);
        if (name !== null && !failed) skills.add(name);
        break;
      }
      default: {
        if (EDIT_TOOLS.has(call.name)) {
          const file = strOf(input.file_path) ?? strOf(input.notebook_path);
          if (file === null || failed) break;
          const p = rel(file);
          if (!created.has(p)) modified.add(p);
          seen.add(p);
        } else {
          for (const key of LIST_TOOL_FIELDS.get(call.name) ?? []) {
            const v = strOf(input[key]);
            if (v !== null) touch(v, call.name, key === "path");
          }
        }
      }
    }
  });

  return {
    commands_run: [...commands],
    files_read: [...read],
    files_created: [...created],
    files_modified: [...modified],
    skills_invoked: [...skills],
    skill_files_touched: [...touches.values()],
  };
}
