import { agentDriver } from "../agents/registry.js";
import type { Evidence } from "../core/evidence.js";
import {
  checksForRun,
  scoreRubric,
  type RubricProfile,
  type RubricResult,
} from "../scoring/index.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import type { ValidationReport } from "../validators/index.js";
import type { FinishedWorkspace } from "./finished-workspace.js";

/** The rubric's view of how the conversation went. */
function interactionInput(r: {
  mode: string;
  max_turns: number;
  actual_turns: number;
  decision_points?: unknown;
  deterministic_replies?: unknown;
  simulated_replies?: unknown;
}) {
  const n = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
  return {
    mode: r.mode === "auto_user" ? ("auto_user" as const) : ("none" as const),
    max_turns: r.max_turns,
    actual_turns: r.actual_turns,
    decision_points: n(r.decision_points),
    deterministic_replies: n(r.deterministic_replies),
    simulated_replies: n(r.simulated_replies),
  };
}

/** The inputs of the rubric that come from the task and treatment. */
export function rubricTaskInput(task: TaskSpec, treatment: TreatmentSpec) {
  return {
    skill_package_path: task.evaluation.skill_package_path ?? null,
    route_conformance_expected_node_order:
      treatment.route_conformance_expected_node_order ??
      task.evaluation.route_conformance_expected_node_order ??
      null,
    generated_node_skills:
      treatment.generated_node_skills ?? task.evaluation.generated_node_skills ?? null,
    required_skills: treatment.required_skills ?? task.evaluation.required_skills,
    expected_artifacts: treatment.expected_artifacts ?? task.evaluation.expected_artifacts,
    require_skill_invocation:
      treatment.require_skill_invocation ?? task.evaluation.require_skill_invocation,
    skill_steps: task.evaluation.steps ?? null,
  };
}

export interface FinishedRunInput {
  profile: RubricProfile;
  /** The run's treatment name (the profile's `checksForRun` may judge it on some checks only). */
  treatmentName: string;
  task: TaskSpec | undefined;
  treatment: TreatmentSpec | undefined;
  evidence: Evidence | null;
  /** The validators' report as they wrote it (before the profile splits its checks). */
  validation: ValidationReport | null;
  interaction: {
    mode: string;
    max_turns: number;
    actual_turns: number;
    decision_points?: unknown;
    deterministic_replies?: unknown;
    simulated_replies?: unknown;
  };
  workspace: FinishedWorkspace;
}

export interface FinishedRunScore {
  /** The validation as scored: the checks this profile counts for this treatment. */
  validation: ValidationReport | null;
  rubric: RubricResult | null;
}

/**
 * The one scoring step of a finished run, shared by `run` (run-one.ts) and `rescore`: the
 * profile's split of the validators' checks, then the rubric over the finished workspace (its
 * manifest and saved copy, docs/ARCHITECTURE.md "One scoring step"). Pure but for the
 * workspace view's reads of the saved copy.
 */
export function scoreFinishedRun(f: FinishedRunInput): FinishedRunScore {
  if (!f.validation) return { validation: null, rubric: null };
  // The profile decides which checks count (its `checksForRun` hook; by default all of them).
  const checks = checksForRun(f.profile, f.treatmentName, f.validation);
  const validation = { ...f.validation, passed: checks.passed, failed: checks.failed };
  const rubric =
    f.evidence && f.task && f.treatment
      ? scoreRubric(f.profile, {
          evidence: f.evidence,
          baseline: { passed: checks.passed, failed: checks.failed },
          task: rubricTaskInput(f.task, f.treatment),
          treatment: f.treatmentName,
          interaction: interactionInput(f.interaction),
          workspace: f.workspace.view,
          fileExists: f.workspace.fileExists,
          // Steps name neutral tool kinds (docs/trajectory.md): the run's agent says which is which.
          tool_vocabulary: agentDriver(f.evidence.agent.name)?.toolVocabulary ?? { tools: {} },
        })
      : null;
  return { validation, rubric };
}
