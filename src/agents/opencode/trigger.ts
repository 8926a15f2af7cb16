/**
 * opencode's trigger detection (the driver's `probeTrigger`, docs/triggers.md). opencode lists
 * the Skills it found (`.claude/skills/` among them) in the description of its `skill` tool;
 * the decision is the first `tool_use` event of that tool (its `name`), or of a tool that reads
 * a file under a Skill folder. `opencode run` prints a tool call once it has finished, so the
 * Skill's body is loaded before the probe stops it. It has no turn-limit flag: the probe's budget
 * is counted in tool calls and skillbench stops the process when it is spent.
 */
import {
  DistinctCallWatcher,
  jsonLine,
  recordOf,
  runToolBudgetProbe,
  skillOfNamedCall,
} from "../probe-turn.js";
import type { AgentDriver, TriggerProbeInput, TriggerProbeResult } from "../types.js";

/** Inputs of opencode's tools that hold a path or a command. */
const PATH_INPUTS = ["filePath", "file_path", "path", "command", "pattern"];

/** Follows an `opencode run --format json` stream and records the first Skill chosen. Pure. */
export class OpencodeDecisionWatcher extends DistinctCallWatcher {
  push(line: string): void {
    const ev = jsonLine(line);
    if (!ev) return;
    const part = recordOf(ev.part);
    if (ev.type === "step_finish") {
      const reason = part?.reason;
      if (reason !== "tool-calls")
        this.state.resultSubtype = reason === "error" ? "error" : "success";
      return;
    }
    if (ev.type === "error") {
      this.state.resultSubtype = "error";
      return;
    }
    if (ev.type !== "tool_use" || !part || this.state.decision) return;
    const tool = typeof part.tool === "string" ? part.tool : "";
    const input = recordOf(recordOf(part.state)?.input) ?? {};
    this.state.decision = skillOfNamedCall(tool, input, {
      skillTool: "skill",
      pathKeys: PATH_INPUTS,
      folders: this.folders,
    });
    if (!this.state.decision) {
      const id =
        typeof part.callID === "string"
          ? part.callID
          : typeof part.id === "string"
            ? part.id
            : line;
      this.countCall(id);
    }
  }
}

/** One `opencode run` probe turn, stopped once a Skill is loaded. Never throws. */
export function runOpencodeProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  return runToolBudgetProbe(driver, i, new OpencodeDecisionWatcher(driver.skillFolders));
}
