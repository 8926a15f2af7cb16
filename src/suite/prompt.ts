/**
 * What a treatment puts before a run's prompt (docs/manifest.md, "Treatments"). Pure.
 */
import type { TaskSpec, TreatmentSpec } from "./types.js";

/** What a Native run is told to leave behind, by the task's `[evaluation] native_terminal`. */
const NATIVE_TERMINAL_RULE: Record<TaskSpec["evaluation"]["native_terminal"], string> = {
  archive: "Finish with a verified, terminal Native archive.",
  active: "Leave the Native changes the task asks for active; do not force an Archive.",
  "active-blocked":
    "If the task deliberately drives the runtime into a stop, leave the change active in the blocked state the runtime enforces.",
};

/**
 * The Native block: Canonical tasks are worded for the Classic workflow; a Native treatment is
 * told to run them through /comet-native alone, reading the Classic phases as Native ones, and
 * what to leave at the end.
 */
export function nativePrefix(
  terminal: TaskSpec["evaluation"]["native_terminal"],
  clarificationMode: "sequential" | "batch" | null,
): string {
  return [
    "[COMET NATIVE TREATMENT]",
    "Use /comet-native as the only Skill; do not invoke /comet or any other Skill.",
    "Keep every business requirement of the task below. Where it names the comet workflow or its",
    "Open, Design, Build, Verify and Archive phases, read them as Native's Shape, Build, Verify and",
    `Archive. Use only the runtime bundled with Native and initialise artifact_root \`docs\`. ${NATIVE_TERMINAL_RULE[terminal]}`,
    ...(clarificationMode === null
      ? []
      : [
          `Set native.clarification_mode \`${clarificationMode}\` before asking any product question, and keep it for the whole run.`,
        ]),
    "Create no OpenSpec, Classic, Superpowers or hidden `.comet` artifacts.",
    "",
    "[ORIGINAL BUSINESS TASK]",
    "",
  ].join("\n");
}

/**
 * `prompt` (the task's instruction.md with its variables filled in, behind its profile's
 * contract) with, in front: the Native block of a Native treatment, then the treatment's own
 * `prompt_prefix`.
 */
export function treatmentPrompt(task: TaskSpec, treatment: TreatmentSpec, prompt: string): string {
  let out = prompt;
  if (treatment.prompt_prefix !== undefined)
    out = `${treatment.prompt_prefix.replace(/\s+$/, "")}\n\n${out}`;
  if (treatment.native)
    out = `${nativePrefix(task.evaluation.native_terminal, treatment.native.clarification_mode)}${out}`;
  return out;
}
