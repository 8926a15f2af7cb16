import { renderInstruction, type TaskSpec } from "../suite/index.js";

/** Prefixed to comet-workflow prompts: the run must go through the Skill (docs/tasks.md, instruction.md). */
const COMET_CONTRACT = [
  "## Eval harness requirement",
  "",
  "Begin by invoking the `/comet` Skill (slash command) with this request. Do not simulate the workflow in prose:",
  "the run is invalid unless the Comet Skill is invoked and leaves real OpenSpec/Comet artifacts.",
].join("\n");

/**
 * The prompt a run gives its agent: the task's instruction rendered with the run's id (the same
 * id its validators see), behind the comet-workflow contract under that profile. Pure.
 */
export function renderRunPrompt(task: TaskSpec, profile: string, runUuid: string): string {
  const rendered = renderInstruction(task, { run_id: runUuid });
  return profile === "comet-workflow" ? `${COMET_CONTRACT}\n\n${rendered}` : rendered;
}
