import type { NativeTreatmentHooks } from "../../types.js";

/**
 * The Native treatment (docs/manifest.md, "Treatments"): the block in front of a Native run's
 * prompt, and the treatment names that are Native without saying so. Pure.
 */

type Terminal = Parameters<NativeTreatmentHooks["prefix"]>[0];

/** What a Native run is told to leave behind, by the task's `[evaluation] native_terminal`. */
const NATIVE_TERMINAL_RULE: Record<Terminal, string> = {
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
  terminal: Terminal,
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
 * Treatment names that are Native treatments without saying so, as in the original harness's
 * own suite (its treatment files carry no marker), with the clarification mode each pins.
 */
const BUILT_IN_NATIVE: NativeTreatmentHooks["treatments"] = {
  COMET_NATIVE_PHASE1: { clarification_mode: null },
  COMET_NATIVE_SEQUENTIAL: { clarification_mode: "sequential" },
  COMET_NATIVE_BATCH: { clarification_mode: "batch" },
};

export const cometNativeTreatment: NativeTreatmentHooks = {
  treatments: BUILT_IN_NATIVE,
  prefix: nativePrefix,
};
