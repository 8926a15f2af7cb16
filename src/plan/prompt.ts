import { promptForProfile } from "../scoring/index.js";
import {
  renderInstruction,
  treatmentPrompt,
  type TaskSpec,
  type TreatmentSpec,
} from "../suite/index.js";

/**
 * The prompt a run gives its agent: the task's instruction rendered with the run's id (the same
 * id its validators see), behind the profile's contract when it has one (its `promptPrefix`:
 * docs/tasks.md, instruction.md), behind the treatment's own blocks (a Native treatment's, its
 * `prompt_prefix`: docs/manifest.md). Pure.
 */
export function renderRunPrompt(
  task: TaskSpec,
  treatment: TreatmentSpec,
  profile: string,
  runUuid: string,
): string {
  return treatmentPrompt(
    task,
    treatment,
    promptForProfile(profile, renderInstruction(task, { run_id: runUuid })),
  );
}
