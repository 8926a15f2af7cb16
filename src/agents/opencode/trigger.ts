/**
 * opencode's trigger detection (the driver's `probeTrigger`, docs/triggers.md). opencode lists
 * the Skills it found (`.claude/skills/` among them) in the description of its `skill` tool;
 * the decision is the first `tool_use` event of that tool (its `name`), or of a tool that reads
 * a file under a Skill folder. `opencode run` prints a tool call once it has finished, so the
 * Skill's body is loaded before the probe stops it. It has no turn-limit flag: the probe's budget
 * is counted in tool calls and skillbench stops the process when it is spent.
 */
import {
  runWatchedProbe,
  jsonLine,
  recordOf,
  skillInText,
  type DecisionWatcher,
} from "../probe-turn.js";
import type {
  AgentDriver,
  SkillDecision,
  TriggerProbeInput,
  TriggerProbeResult,
  WatchedProbe,
} from "../types.js";

/** Inputs of opencode's tools that hold a path or a command. */
const PATH_INPUTS = ["filePath", "file_path", "path", "command", "pattern"];

/** Follows an `opencode run --format json` stream and records the first Skill chosen. Pure. */
export class OpencodeDecisionWatcher implements DecisionWatcher {
  readonly state: WatchedProbe = { decision: null, resultSubtype: null };
  private readonly calls = new Set<string>();

  constructor(private readonly folders: readonly string[]) {}

  get toolCalls(): number {
    return this.calls.size;
  }

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
    this.state.decision = this.decisionOf(tool, input);
    if (!this.state.decision) {
      const id =
        typeof part.callID === "string"
          ? part.callID
          : typeof part.id === "string"
            ? part.id
            : line;
      this.calls.add(id);
    }
  }

  private decisionOf(tool: string, input: Record<string, unknown>): SkillDecision | null {
    if (tool === "skill") {
      const s = input.name;
      return typeof s === "string" && s.trim() ? { skill: s.trim(), via: "skill_tool" } : null;
    }
    for (const key of PATH_INPUTS) {
      const v = input[key];
      if (typeof v !== "string") continue;
      const d = skillInText(v, this.folders);
      if (d) return d;
    }
    return null;
  }
}

/** One `opencode run` probe turn, stopped once a Skill is loaded. Never throws. */
export function runOpencodeProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  return runWatchedProbe(driver, i, new OpencodeDecisionWatcher(driver.skillFolders), {
    toolCallBudget: i.maxTurns,
  });
}
