import type { CheckSplit, RubricProfile } from "./types.js";

/** Check-name prefixes that make a validator message a workflow check (docs/rubrics.md, business_completion). */
const WORKFLOW_CHECK_PREFIXES: readonly string[] = [
  "openspec_artifacts",
  "comet_state",
  "workflow_phases",
  "tests_written",
  "tests_exist",
  "native_skill_invocation",
  "native_artifacts",
  "native_state",
  "native_trajectory",
  "native_isolation",
];

/** The CONTROL treatment's name (the business-only baseline). */
export const CONTROL_TREATMENT = "CONTROL";

export function isWorkflowCheck(message: string): boolean {
  const m = message.trimStart();
  return WORKFLOW_CHECK_PREFIXES.some((p) => m.startsWith(p));
}

/** Split validator messages into business and workflow checks (docs/rubrics.md, business_completion). */
export function splitChecks(baseline: {
  passed: readonly string[];
  failed: readonly string[];
}): CheckSplit {
  return {
    business: {
      passed: baseline.passed.filter((m) => !isWorkflowCheck(m)),
      failed: baseline.failed.filter((m) => !isWorkflowCheck(m)),
    },
    workflow: {
      passed: baseline.passed.filter(isWorkflowCheck),
      failed: baseline.failed.filter(isWorkflowCheck),
    },
  };
}

/**
 * The validator checks that count for the run (pass/fail and report; docs/rubrics.md, CONTROL): under a
 * profile with `controlBusinessOnly` (comet-workflow) the CONTROL treatment is judged on
 * business checks only, so its workflow checks are dropped. Every other combination returns the
 * checks unchanged (copied). The runner calls this on the validator result before building the
 * report and the rubric input.
 */
export function checksForRun(
  profile: Pick<RubricProfile, "controlBusinessOnly">,
  treatment: string,
  baseline: { passed: readonly string[]; failed: readonly string[] },
): { passed: string[]; failed: string[]; dropped: string[] } {
  if (profile.controlBusinessOnly === true && treatment === CONTROL_TREATMENT) {
    const s = splitChecks(baseline);
    return { ...s.business, dropped: [...s.workflow.passed, ...s.workflow.failed] };
  }
  return { passed: [...baseline.passed], failed: [...baseline.failed], dropped: [] };
}
