/**
 * Agent-neutral actions -> the tool call of the agent that asked. The agent is recognised by the
 * tools its request offers (Claude Code's `Bash`/`Skill`, Codex's `exec_command`/`apply_patch`,
 * Gemini CLI's `run_shell_command`, opencode's `bash`/`skill`), falling back on the wire API.
 * Pure. docs/model-script.md, section 4.2.
 */
import type { Action } from "./script.js";

export type WireApi = "anthropic" | "openai-responses" | "openai-chat" | "gemini";
export type Dialect = "claude" | "codex" | "gemini" | "opencode";

export function dialectOf(api: WireApi, tools: readonly string[]): Dialect {
  const has = (n: string): boolean => tools.includes(n);
  if (has("Bash") || has("Skill") || has("Write")) return "claude";
  if (has("exec_command") || has("apply_patch") || has("shell")) return "codex";
  if (has("run_shell_command") || has("activate_skill") || has("write_file")) return "gemini";
  if (has("bash") || has("skill") || has("write")) return "opencode";
  if (api === "gemini") return "gemini";
  return api === "anthropic" ? "claude" : "codex";
}

export interface ToolCallSpec {
  name: string;
  input: Record<string, unknown>;
  /** A custom (free-text) tool input, for tools such as Codex's `apply_patch`. */
  custom?: string;
}

/** `*** Begin Patch` text that adds (or replaces) one file, in Codex's apply_patch format. */
export function addFilePatch(file: string, content: string): string {
  const body = content.endsWith("\n") ? content.slice(0, -1) : content;
  const lines = body === "" ? [] : body.split("\n");
  return [
    "*** Begin Patch",
    `*** Add File: ${file}`,
    ...lines.map((l) => `+${l}`),
    "*** End Patch",
    "",
  ].join("\n");
}

/** An `*** Update File` patch replacing the lines of `old` with those of `now` (whole lines). */
function updateFilePatch(file: string, old: string, now: string): string {
  const lines = (t: string): string[] => {
    const body = t.endsWith("\n") ? t.slice(0, -1) : t;
    return body === "" ? [] : body.split("\n");
  };
  return [
    "*** Begin Patch",
    `*** Update File: ${file}`,
    "@@",
    ...lines(old).map((l) => `-${l}`),
    ...lines(now).map((l) => `+${l}`),
    "*** End Patch",
    "",
  ].join("\n");
}

/** Single-quote a word for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

export interface DialectFacts {
  tools: readonly string[];
  /** Skill name -> the SKILL.md path the agent listed (Codex lists them with their file). */
  skillFiles: Readonly<Record<string, string>>;
}

export function actionToTool(a: Action, d: Dialect, f: DialectFacts): ToolCallSpec {
  switch (d) {
    case "claude":
      if (a.action === "run") return { name: "Bash", input: { command: a.command } };
      if (a.action === "write")
        return { name: "Write", input: { file_path: a.path, content: a.content } };
      if (a.action === "skill") return { name: "Skill", input: { skill: a.skill } };
      if (a.action === "edit")
        return {
          name: "Edit",
          input: { file_path: a.path, old_string: a.old, new_string: a.new },
        };
      return { name: "Read", input: { file_path: a.path } };
    case "opencode":
      if (a.action === "run")
        return { name: "bash", input: { command: a.command, description: "scripted command" } };
      if (a.action === "write")
        return { name: "write", input: { filePath: a.path, content: a.content } };
      if (a.action === "skill") return { name: "skill", input: { name: a.skill } };
      if (a.action === "edit")
        return { name: "edit", input: { filePath: a.path, oldString: a.old, newString: a.new } };
      return { name: "read", input: { filePath: a.path } };
    case "gemini":
      if (a.action === "run")
        return {
          name: "run_shell_command",
          input: { command: a.command, description: "scripted command" },
        };
      if (a.action === "write")
        return { name: "write_file", input: { file_path: a.path, content: a.content } };
      if (a.action === "skill") return { name: "activate_skill", input: { name: a.skill } };
      if (a.action === "edit")
        return {
          name: "replace",
          input: {
            file_path: a.path,
            old_string: a.old,
            new_string: a.new,
            instruction: "scripted edit",
          },
        };
      return { name: "read_file", input: { file_path: a.path } };
    case "codex": {
      // Codex has no Skill tool: the model opens the SKILL.md its listing names.
      const command =
        a.action === "run"
          ? a.command
          : a.action === "skill"
            ? `cat ${shellQuote(f.skillFiles[a.skill] ?? `.agents/skills/${a.skill}/SKILL.md`)}`
            : a.action === "read"
              ? `cat ${shellQuote(a.path)}`
              : null;
      if (command === null && a.action === "write" && f.tools.includes("apply_patch"))
        return { name: "apply_patch", input: {}, custom: addFilePatch(a.path, a.content) };
      if (a.action === "edit" && f.tools.includes("apply_patch"))
        return { name: "apply_patch", input: {}, custom: updateFilePatch(a.path, a.old, a.new) };
      const cmd =
        command ??
        (a.action === "write"
          ? `mkdir -p "$(dirname ${shellQuote(a.path)})" && printf %s ${shellQuote(a.content)} > ${shellQuote(a.path)}`
          : a.action === "edit"
            ? `node -e ${shellQuote("const f=require('fs'),[p,o,n]=process.argv.slice(1);f.writeFileSync(p,f.readFileSync(p,'utf8').replace(o,n))")} ${shellQuote(a.path)} ${shellQuote(a.old)} ${shellQuote(a.new)}`
            : "true");
      if (f.tools.includes("shell") && !f.tools.includes("exec_command"))
        return { name: "shell", input: { command: ["bash", "-lc", cmd] } };
      return { name: "exec_command", input: { cmd } };
    }
  }
}
