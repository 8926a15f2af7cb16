import type { CheckLists } from "../../types.js";

/** Validator checks split into business and workflow checks. */
export interface CheckSplit {
  business: { passed: string[]; failed: string[] };
  workflow: { passed: string[]; failed: string[] };
}

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
export function splitChecks(baseline: CheckLists): CheckSplit {
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
 * comet-workflow's `checksForRun` (docs/rubrics.md, CONTROL): the CONTROL treatment is judged
 * on business checks only, so its workflow checks are dropped; every other treatment keeps its
 * checks (copied).
 */
export function cometChecksForRun(
  treatment: string,
  baseline: CheckLists,
): { passed: string[]; failed: string[]; dropped: string[] } {
  if (treatment === CONTROL_TREATMENT) {
    const s = splitChecks(baseline);
    return { ...s.business, dropped: [...s.workflow.passed, ...s.workflow.failed] };
  }
  return { passed: [...baseline.passed], failed: [...baseline.failed], dropped: [] };
}
