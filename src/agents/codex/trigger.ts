/**
 * Codex CLI's trigger detection (the driver's `probeTrigger`, docs/triggers.md). Codex has no
 * Skill tool: it lists each Skill with the path of its SKILL.md in a developer message and the
 * model opens the file itself, so the decision is the first command that names a file under a
 * Skill folder (`.agents/skills/<name>/`, `.codex/skills/<name>/`), seen when its
 * `command_execution` item starts. `codex exec` has no turn limit: the probe's budget is counted
 * in tool calls and skillbench stops the process when it is spent.
 */
import {
  DistinctCallWatcher,
  jsonLine,
  recordOf,
  runToolBudgetProbe,
  skillInText,
} from "../probe-turn.js";
import type { AgentDriver, TriggerProbeInput, TriggerProbeResult } from "../types.js";

/** The items that are the model's tool calls (`reasoning`, `agent_message`, `error` are not). */
const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/** Follows a `codex exec --json` stream and records the first Skill opened. Pure. */
export class CodexDecisionWatcher extends DistinctCallWatcher {
  push(line: string): void {
    const ev = jsonLine(line);
    if (!ev) return;
    if (ev.type === "turn.completed") this.state.resultSubtype = "success";
    else if (ev.type === "turn.failed") this.state.resultSubtype = "error";
    if (ev.type !== "item.started" && ev.type !== "item.completed") return;
    const item = recordOf(ev.item);
    const type = item?.type;
    if (!item || typeof type !== "string" || !TOOL_ITEMS.has(type)) return;
    if (this.state.decision) return;
    if (type === "command_execution" && typeof item.command === "string")
      this.state.decision = skillInText(item.command, this.folders);
    // Counted once per item (it starts, then completes), after the decision: the call that
    // opens a SKILL.md is the choice, not a step past the budget.
    if (!this.state.decision) this.countCall(typeof item.id === "string" ? item.id : line);
  }
}

/** One `codex exec` probe turn, stopped once a Skill's file is opened. Never throws. */
export function runCodexProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  return runToolBudgetProbe(driver, i, new CodexDecisionWatcher(driver.skillFolders));
}
