import type { Evidence } from "../core/evidence.js";
import type { ToolVocabulary } from "../evidence/derive.js";
import { findSkillPaths, relativize } from "../evidence/paths.js";

/**
 * The agent's tool calls as the step matcher sees them, whatever the agent: each call with its
 * own tool name and the neutral kind its driver's vocabulary gives it (`command`, `read`,
 * `write`, `edit`, `patch`, `skill`, `list`; `other` for a tool the vocabulary does not know),
 * the command it ran, the workspace-relative paths it names and the Skill files it touches.
 * Pure: built from the evidence and the vocabulary only.
 */

export type ToolKind = "command" | "read" | "write" | "edit" | "patch" | "skill" | "list" | "other";

export interface TrajectoryCall {
  /** Index in `evidence.tool_calls` (0-based; messages print it 1-based). */
  index: number;
  tool: string;
  kind: ToolKind;
  input: Record<string, unknown>;
  /** A command tool's command; null otherwise. */
  command: string | null;
  /** Workspace-relative paths a read, write, edit, patch or list names. */
  paths: string[];
  /** Skill files the call reads, lists or opens: the Skill and the path inside its folder. */
  skill_files: { skill: string; path: string }[];
  /** The agent reported the call as failed. */
  failed: boolean;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function firstField(input: Record<string, unknown>, fields: readonly string[] = []): string | null {
  for (const f of fields) {
    const v = str(input[f]);
    if (v !== null) return v;
  }
  return null;
}

/** `.claude/skills/hello/references/a.md` → `references/a.md` for Skill `hello`. */
function insideSkill(p: string, skill: string): string {
  const marker = `skills/${skill}/`;
  const at = p.lastIndexOf(marker);
  return at < 0 ? "" : p.slice(at + marker.length).replace(/^\.\//, "");
}

/** The name a Skill tool call asks for (`skill`, or the older `command` / `name`). */
function skillName(input: Record<string, unknown>): string | null {
  const raw = str(input.skill) ?? str(input.command) ?? str(input.name);
  const name = raw?.trim().replace(/^\//, "").split(/\s/, 1)[0] ?? "";
  return name === "" ? null : name;
}

export function trajectoryOf(evidence: Evidence, vocabulary: ToolVocabulary): TrajectoryCall[] {
  const roots = evidence.agent.cwd === null ? [] : [evidence.agent.cwd];
  return evidence.tool_calls.map((call, index) => {
    const role = vocabulary.tools[call.name];
    const kind: ToolKind = role?.kind ?? "other";
    const input = call.input;
    let command: string | null = null;
    const raw: string[] = [];
    if (kind === "command") command = firstField(input, role?.fields);
    else if (kind === "read" || kind === "write" || kind === "edit") {
      const p = firstField(input, role?.fields);
      if (p !== null) raw.push(p);
    } else if (kind === "list") {
      for (const f of role?.fields ?? []) {
        const v = str(input[f]);
        if (v !== null) raw.push(v);
      }
    } else if (kind === "patch" && Array.isArray(input.changes)) {
      for (const c of input.changes as unknown[]) {
        const p = typeof c === "object" && c !== null ? str((c as { path?: unknown }).path) : null;
        if (p !== null) raw.push(p);
      }
    }
    const skillFiles: { skill: string; path: string }[] = [];
    if (kind === "skill") {
      const name = skillName(input);
      if (name !== null) skillFiles.push({ skill: name, path: "SKILL.md" });
    }
    if (kind === "command" || kind === "read" || kind === "list")
      for (const text of command === null ? raw : [command])
        for (const m of findSkillPaths(text)) {
          const p = insideSkill(m.path, m.skill);
          if (p !== "") skillFiles.push({ skill: m.skill, path: p });
        }
    return {
      index,
      tool: call.name,
      kind,
      input,
      command,
      paths: raw.map((p) => relativize(p, roots)),
      skill_files: skillFiles,
      failed: call.is_error === true,
    };
  });
}

/**
 * The ordered tool names, for a failure message: `Skill → Bash → Write`, the middle left out
 * past `max` calls (the first and last calls are what a reader looks for).
 */
export function trajectoryText(calls: readonly { tool: string }[], max = 24): string {
  if (calls.length === 0) return "(no tool calls)";
  const names = calls.map((c) => c.tool);
  if (names.length <= max) return names.join(" → ");
  const tail = Math.min(6, Math.floor(max / 3));
  const head = max - tail;
  return [
    ...names.slice(0, head),
    `… ${names.length - head - tail} more …`,
    ...names.slice(names.length - tail),
  ].join(" → ");
}
