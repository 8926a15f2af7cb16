/**
 * What a treatment puts before a run's prompt (docs/manifest.md, "Treatments"). Pure.
 */
import { nativeTreatment } from "../scoring/registry.js";
import type { TaskSpec, TreatmentSpec } from "./types.js";

/**
 * `prompt` (the task's instruction.md with its variables filled in, behind its profile's
 * contract) with, in front: the Native block of a Native treatment (the profile that defines
 * it, `RubricProfile.native`), then the treatment's own `prompt_prefix`.
 */
export function treatmentPrompt(task: TaskSpec, treatment: TreatmentSpec, prompt: string): string {
  let out = prompt;
  if (treatment.prompt_prefix !== undefined)
    out = `${treatment.prompt_prefix.replace(/\s+$/, "")}\n\n${out}`;
  const native = treatment.native ? nativeTreatment() : null;
  if (treatment.native && native)
    out = `${native.prefix(task.evaluation.native_terminal, treatment.native.clarification_mode)}${out}`;
  return out;
}
