/** Claude Code's tools as the scripted model calls them (docs/model-script.md, section 4.1). Pure. */
import type { ScriptedTools } from "../types.js";

export const claudeTools: ScriptedTools = {
  marks: ["Bash", "Skill", "Write"],
  fallbackFor: ["anthropic"],
  call(a) {
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
  },
};
