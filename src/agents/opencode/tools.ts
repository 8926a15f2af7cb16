/** opencode's tools as the scripted model calls them (docs/model-script.md, section 4.1). Pure. */
import type { ScriptedTools } from "../types.js";

export const opencodeTools: ScriptedTools = {
  marks: ["bash", "skill", "write"],
  fallbackFor: [],
  call(a) {
    if (a.action === "run")
      return { name: "bash", input: { command: a.command, description: "scripted command" } };
    if (a.action === "write")
      return { name: "write", input: { filePath: a.path, content: a.content } };
    if (a.action === "skill") return { name: "skill", input: { name: a.skill } };
    if (a.action === "edit")
      return { name: "edit", input: { filePath: a.path, oldString: a.old, newString: a.new } };
    return { name: "read", input: { filePath: a.path } };
  },
};
