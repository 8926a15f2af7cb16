/** Gemini CLI's tools as the scripted model calls them (docs/model-script.md, section 4.1). Pure. */
import type { ScriptedTools } from "../types.js";

export const geminiTools: ScriptedTools = {
  marks: ["run_shell_command", "activate_skill", "write_file"],
  fallbackFor: ["gemini"],
  call(a) {
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
  },
};
