/**
 * Failure attribution (comet facts §9): one entry per failed check, first matching
 * rule wins, all regexes case-insensitive on the check text. Pure.
 */

type AttributionBucket = "harness" | "workflow" | "task" | "model";

export interface Attribution {
  bucket: AttributionBucket;
  check: string;
  reason: string;
}

export interface AttributionInput {
  failed: string[];
  skills_invoked: string[];
  profile: string;
  /**
   * Skills the treatment installed. When given and empty (a no-skill baseline such
   * as CONTROL), a skill that was not invoked is the treatment's design, not a
   * harness fault: rule 1 gives `workflow` and rule 4 does not apply.
   */
  treatment_skills?: string[];
}

const SKILL_NOT_INVOKED_RE = /Required skill not invoked|skill.*not invoked/i;
const TASK_ASSUMPTION_RE = /artifact path|not found in archive|validator|task directory/i;
const WORKFLOW_STATE_RE = /\.comet\.yaml|guard|state|transition|archive/i;

export const ATTRIBUTION_REASONS = {
  skill_never_invoked: "target Skill was never invoked, so workflow quality is not observable",
  skill_contract: "Skill invocation contract failed",
  task_assumption: "task or validator path assumption failed",
  workflow_state: "workflow state or guard evidence failed",
  generic_not_run: "generic Skill target did not run",
  no_skill_baseline:
    "the treatment installs no Skill, so the required one cannot be invoked (by design)",
  model: "task failed after observable workflow execution",
} as const;

function attributeOne(
  check: string,
  invokedAny: boolean,
  profile: string,
  baseline: boolean,
): Attribution {
  const R = ATTRIBUTION_REASONS;
  if (SKILL_NOT_INVOKED_RE.test(check)) {
    if (baseline) return { bucket: "workflow", check, reason: R.no_skill_baseline };
    return invokedAny
      ? { bucket: "workflow", check, reason: R.skill_contract }
      : { bucket: "harness", check, reason: R.skill_never_invoked };
  }
  if (TASK_ASSUMPTION_RE.test(check)) return { bucket: "task", check, reason: R.task_assumption };
  if (WORKFLOW_STATE_RE.test(check)) return { bucket: "workflow", check, reason: R.workflow_state };
  if (profile === "generic" && !invokedAny && !baseline)
    return { bucket: "harness", check, reason: R.generic_not_run };
  return { bucket: "model", check, reason: R.model };
}

/**
 * Attribute every failed check of a run, in order:
 *  1. `Required skill not invoked|skill.*not invoked` -> harness if no skill was
 *     invoked at all, else workflow;
 *  2. `artifact path|not found in archive|validator|task directory` -> task;
 *  3. `\.comet\.yaml|guard|state|transition|archive` -> workflow;
 *  4. profile `generic` and no skill invoked -> harness (not for a no-skill treatment);
 *  5. otherwise -> model.
 */
export function attributeFailures(input: AttributionInput): Attribution[] {
  const invokedAny = input.skills_invoked.length > 0;
  const baseline = input.treatment_skills !== undefined && input.treatment_skills.length === 0;
  return input.failed.map((check) => attributeOne(check, invokedAny, input.profile, baseline));
}
