/** Codex CLI's tools as the scripted model calls them (docs/model-script.md, section 4.1). Pure. */
import type { ScriptedTools } from "../types.js";

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

export const codexTools: ScriptedTools = {
  marks: ["exec_command", "apply_patch", "shell"],
  fallbackFor: ["openai-responses", "openai-chat"],
  call(a, f) {
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
  },
};
