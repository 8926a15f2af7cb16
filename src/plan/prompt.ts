import { promptForProfile } from "../scoring/index.js";
import { renderInstruction, type TaskSpec } from "../suite/index.js";

/**
 * The prompt a run gives its agent: the task's instruction rendered with the run's id (the same
 * id its validators see), behind the profile's contract when it has one (comet-workflow's:
 * docs/tasks.md, instruction.md). Pure.
 */
export function renderRunPrompt(task: TaskSpec, profile: string, runUuid: string): string {
  return promptForProfile(profile, renderInstruction(task, { run_id: runUuid }));
}
