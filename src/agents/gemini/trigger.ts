/**
 * Gemini CLI's trigger detection (the driver's `probeTrigger`, docs/triggers.md). Gemini CLI
 * lists the Skills it discovered (`.agents/skills/`, `.gemini/skills/`, its built-in ones) as the
 * enum of its `activate_skill` tool; the decision is the first `tool_use` event of that tool (its
 * `name`), or of a tool that reads a file under a Skill folder. The stream has no turn limit
 * (`model.maxSessionTurns` ends the process with a fatal error, not an answer): the probe's
 * budget is counted in tool calls and skillbench stops the process when it is spent.
 */
import {
  jsonLine,
  recordOf,
  runToolBudgetProbe,
  skillOfNamedCall,
  type DecisionWatcher,
} from "../probe-turn.js";
import type { AgentDriver, TriggerProbeInput, TriggerProbeResult, WatchedProbe } from "../types.js";

/** Parameters of Gemini CLI's tools that hold a path or a command. */
const PATH_PARAMS = ["file_path", "absolute_path", "path", "dir_path", "command", "pattern"];

/** Follows a `gemini --output-format stream-json` stream and records the first Skill chosen. Pure. */
export class GeminiDecisionWatcher implements DecisionWatcher {
  readonly state: WatchedProbe = { decision: null, resultSubtype: null };
  toolCalls = 0;

  constructor(private readonly folders: readonly string[]) {}

  push(line: string): void {
    const ev = jsonLine(line);
    if (!ev) return;
    if (ev.type === "result") {
      this.state.resultSubtype = typeof ev.status === "string" ? ev.status : null;
      return;
    }
    if (ev.type !== "tool_use" || this.state.decision) return;
    const name = typeof ev.tool_name === "string" ? ev.tool_name : "";
    const params = recordOf(ev.parameters) ?? {};
    this.state.decision = skillOfNamedCall(name, params, {
      skillTool: "activate_skill",
      pathKeys: PATH_PARAMS,
      folders: this.folders,
    });
    if (!this.state.decision) this.toolCalls += 1;
  }
}

/** One `gemini -p` probe turn, stopped once a Skill is activated. Never throws. */
export function runGeminiProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  return runToolBudgetProbe(driver, i, new GeminiDecisionWatcher(driver.skillFolders));
}
