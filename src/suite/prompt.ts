/**
 * The prompt a run's agent receives: the rendered instruction, after the blocks its profile and
 * treatment put before it (docs/manifest.md, "What the agent is told"). Pure.
 */
import type { TaskSpec, TreatmentSpec } from "./types.js";

/** Put before comet-workflow prompts: the run must go through the Skill. */
const COMET_CONTRACT = [
  "## Eval harness requirement",
  "",
  "Begin by invoking the `/comet` Skill (slash command) with this request. Do not simulate the workflow in prose:",
  "the run is invalid unless the Comet Skill is invoked and leaves real OpenSpec/Comet artifacts.",
].join("\n");

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
 * `rendered` (the task's instruction.md with its variables filled in) with, in this order: the
 * Native block of a Native treatment, the treatment's own `prompt_prefix`, and the Comet contract
 * when the run's profile is comet-workflow.
 */
export function buildPrompt(
  task: TaskSpec,
  treatment: TreatmentSpec,
  profile: string,
  rendered: string,
): string {
  let prompt = profile === "comet-workflow" ? `${COMET_CONTRACT}\n\n${rendered}` : rendered;
  if (treatment.prompt_prefix !== undefined)
    prompt = `${treatment.prompt_prefix.replace(/\s+$/, "")}\n\n${prompt}`;
  if (treatment.native)
    prompt = `${nativePrefix(task.evaluation.native_terminal, treatment.native.clarification_mode)}${prompt}`;
  return prompt;
}
