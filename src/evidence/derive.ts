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
  /** What each of the agent's tools does (each driver's decoder has its own). */
  tools: ToolVocabulary;
}

/**
 * What a tool does, whatever the agent calls it: run a command, read, write or edit a file,
 * apply a patch (a list of changed paths), invoke a Skill, or list/search paths. `fields` name
 * the input fields that hold the command or the path, tried in order.
 */
interface ToolRole {
  kind: "command" | "read" | "write" | "edit" | "patch" | "skill" | "list";
  fields?: readonly string[];
}

export interface ToolVocabulary {
  tools: Readonly<Record<string, ToolRole>>;
  /**
   * The agent has no Skill tool: opening `<skills dir>/<name>/SKILL.md` (with a command or a
   * read) is how it invokes a Skill (Codex).
   */
  skillByReading?: boolean;
}

function fieldOf(
  input: Record<string, unknown>,
  fields: readonly string[] | undefined,
): string | null {
  for (const f of fields ?? []) {
    const v = strOf(input[f]);
    if (v !== null) return v;
  }
  return null;
}

const SKILL_MD = /\/SKILL\.md$/;

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

  const vocab = opts.tools;
  const skillRead = (text: string, failed: boolean): void => {
    if (!vocab.skillByReading || failed) return;
    for (const m of findSkillPaths(text)) if (SKILL_MD.test(m.path)) skills.add(m.skill);
  };
  const wrote = (p: string, kind: WriteKind | undefined): void => {
    const k = kind ?? (opts.preexisting.has(p) || seen.has(p) ? "update" : "create");
    if (k === "create") created.add(p);
    else if (!created.has(p)) modified.add(p);
    seen.add(p);
  };

  calls.forEach((call, index) => {
    const failed = call.is_error === true;
    const input = call.input;
    const role = vocab.tools[call.name];
    switch (role?.kind) {
      case "command": {
        const command = fieldOf(input, role.fields);
        if (command === null) break;
        commands.add(command);
        touch(command, call.name, false);
        skillRead(command, failed);
        break;
      }
      case "read": {
        const file = fieldOf(input, role.fields);
        if (file === null) break;
        touch(file, call.name, true);
        skillRead(file, failed);
        if (failed) break;
        const p = rel(file);
        read.add(p);
        seen.add(p);
        break;
      }
      case "write": {
        const file = fieldOf(input, role.fields);
        if (file === null || failed) break;
        wrote(rel(file), opts.writeKinds.get(index));
        break;
      }
      case "edit": {
        const file = fieldOf(input, role.fields);
        if (file === null || failed) break;
        const p = rel(file);
        if (!created.has(p)) modified.add(p);
        seen.add(p);
        break;
      }
      case "patch": {
        if (failed) break;
        for (const c of Array.isArray(input.changes) ? input.changes : []) {
          if (typeof c !== "object" || c === null) continue;
          const change = c as Record<string, unknown>;
          const file = strOf(change.path);
          if (file === null) continue;
          const k = strOf(change.kind);
          if (k === "delete") continue;
          wrote(rel(file), k === "add" ? "create" : k === "update" ? "update" : undefined);
        }
        break;
      }
      case "skill": {
        const name = skillNameOf(input);
        if (name !== null && !failed) skills.add(name);
        break;
      }
      case "list": {
        for (const key of role.fields ?? []) {
          const v = strOf(input[key]);
          if (v !== null) touch(v, call.name, key === "path");
        }
        break;
      }
      default:
        break;
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
