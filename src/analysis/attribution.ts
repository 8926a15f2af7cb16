/**
 * Failure attribution: one entry per failed check. Typed failure records
 * (`{source, code}`, docs/statistics.md §7) are attributed by their fields; a check with no
 * record (a report written before records existed) falls back to the original harness's
 * ordered regexes on its text. Pure.
 */
import type { FailureRecord } from "../core/report.js";

export type AttributionBucket = "harness" | "workflow" | "task" | "model";

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
  /** Typed records of the failed checks (same order as `failed`); when given, they decide. */
  failures?: FailureRecord[];
  /** The model API was unresponsive (see `unresponsiveEvidence`): a timeout is then noise. */
  model_unresponsive?: boolean;
}

export const SKILL_NOT_INVOKED_RE = /Required skill not invoked|skill.*not invoked/i;
export const TASK_ASSUMPTION_RE = /artifact path|not found in archive|validator|task directory/i;
export const WORKFLOW_STATE_RE = /\.comet\.yaml|guard|state|transition|archive/i;

export const ATTRIBUTION_REASONS = {
  skill_never_invoked: "target Skill was never invoked, so workflow quality is not observable",
  skill_contract: "Skill invocation contract failed",
  task_assumption: "task or validator path assumption failed",
  workflow_state: "workflow state or guard evidence failed",
  generic_not_run: "generic Skill target did not run",
  no_skill_baseline:
    "the treatment installs no Skill, so the required one cannot be invoked (by design)",
  model: "task failed after observable workflow execution",
  validator_broken: "the validator itself did not produce a verdict (crash, timeout, no JSON)",
  agent_timeout_workflow:
    "the run hung past timeout_sec after the Skill was invoked, while the model kept answering",
  agent_timeout_model: "the run hung past timeout_sec while the model kept answering",
  invalid_request: "the agent sent a request the model API rejected as invalid (HTTP 400)",
  api_noise: "the model API failed (infrastructure noise; the run is excluded)",
  api_unresponsive:
    "the model API stopped answering before the run timed out (infrastructure noise)",
  decision_queue: "the scripted decision replies ran out before the workflow finished",
  harness: "skillbench or its machine failed",
} as const;

/** Codes of validator records that mean the validator itself failed. */
const BROKEN_VALIDATOR = new Set([
  "validator_crashed",
  "validator_timeout",
  "validator_no_json",
  "validator_spawn_error",
]);

function attributeTyped(
  f: FailureRecord,
  invokedAny: boolean,
  profile: string,
  baseline: boolean,
  unresponsive: boolean,
): Attribution {
  const R = ATTRIBUTION_REASONS;
  const check = f.message;
  const at = (bucket: AttributionBucket, reason: string): Attribution => ({
    bucket,
    check,
    reason,
  });
  switch (f.source) {
    case "harness":
      return at("harness", R.harness);
    case "contract":
      if (f.code === "skill_not_invoked") {
        if (baseline) return at("workflow", R.no_skill_baseline);
        return invokedAny ? at("workflow", R.skill_contract) : at("harness", R.skill_never_invoked);
      }
      return at("workflow", R.workflow_state);
    case "agent":
      if (f.code === "agent_timeout" && unresponsive) return at("harness", R.api_unresponsive);
      if (f.code === "agent_timeout")
        return invokedAny
          ? at("workflow", R.agent_timeout_workflow)
          : at("model", R.agent_timeout_model);
      if (f.code === "api_invalid_request") return at("model", R.invalid_request);
      if (f.code === "api_error") return at("harness", R.api_noise);
      if (f.code === "decision_queue_exhausted") return at("workflow", R.decision_queue);
      return at("model", R.model);
    case "validator":
    case "artifact":
      // A failed check of a working validator is judged like a missing artifact.
      if (f.source === "validator" && BROKEN_VALIDATOR.has(f.code))
        return at("task", R.validator_broken);
      if (profile === "generic" && !invokedAny && !baseline)
        return at("harness", R.generic_not_run);
      return at("model", R.model);
  }
}

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
 * Attribute every failed check of a run. A check with a typed record goes by its source and
 * code (docs/statistics.md §7, typed table); otherwise, in order:
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
  return input.failed.map((check, i) => {
    const typed = input.failures?.[i];
    return typed && typed.message === check
      ? attributeTyped(
          typed,
          invokedAny,
          input.profile,
          baseline,
          input.model_unresponsive ?? false,
        )
      : attributeOne(check, invokedAny, input.profile, baseline);
  });
}
