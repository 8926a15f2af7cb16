import {
  attributeFailures,
  classifySample,
  unresponsiveEvidence,
  type TypedEvidence,
} from "../analysis/index.js";
import type { RunArmProblem } from "../core/arm-integrity.js";
import type { Evidence } from "../core/evidence.js";
import type { JudgeBlock } from "../core/judge.js";
import type { SandboxRecord } from "../core/sandbox.js";
import {
  REPORT_SCHEMA,
  type FailureRecord,
  type Metered,
  type ModelApiRecord,
  type Outcome,
  type RunReport,
  type SkillUsage,
} from "../core/report.js";
import type { RunSpec } from "../plan/matrix.js";
import type { RubricResult } from "../scoring/index.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import type { ValidationReport } from "../validators/index.js";
import { summarizeEvents } from "./events-summary.js";
import { withTableCost } from "../cost/run-cost.js";
import type { PricingTable } from "../cost/pricing.js";
import { runApiError } from "./api-error.js";

/** What the agent phase produced, as far as evaluation cares. */
export interface AgentSummary {
  /** The driver's word for how the agent ended (TurnOutcome), or 'not_run'. */
  outcome: string;
  exit_code: number | null;
  detail: string;
  interaction: RunReport["interaction"];
}

export interface EvaluateInput {
  /** The run (its agent is in `agentInfo`). */
  spec: Pick<RunSpec, "run_id" | "task" | "treatment" | "rep">;
  experimentId: string;
  runUuid: string | null;
  task: TaskSpec | undefined;
  treatment: TreatmentSpec | undefined;
  profileName: string;
  agent: AgentSummary | null;
  evidence: Evidence | null;
  validation: ValidationReport | null;
  rubric: RubricResult | null;
  judge: JudgeBlock | null;
  sandbox: SandboxRecord | null;
  harnessError: string | null;
  stdoutTail: string;
  stderrTail: string;
  model: string | null;
  /** Prices the run's tokens when its agent reported no cost (docs/cost.md); absent: not priced. */
  pricing?: PricingTable | null | undefined;
  agentInfo: RunReport["agent"];
  suiteHash: string;
  timing: RunReport["timing"];
  artifacts: RunReport["artifacts"];
  /** The scripted model server's log of this run's requests (null: a real endpoint). */
  modelApi?: ModelApiRecord | null;
  /** The run's timeout (the relay's unanswered request is weighed against it). */
  timeoutSec?: number | null | undefined;
  /** What the arm-integrity check after the agent found (runner/arm-integrity.ts); none: absent. */
  armIntegrity?: RunArmProblem[] | undefined;
  /** The harness's metered usage and budget stop (runner/budget.ts); absent without a budget. */
  metered?: Metered | undefined;
  /** Depth of use of each installed Skill (runner/skill-usage.ts); absent without a Skill. */
  skillUsage?: SkillUsage[] | undefined;
}

const SKILL_NOT_INVOKED = /Required skill not invoked|skill.*not invoked/i;

/** The typed record of the agent's own failure check. */
function agentFailureRecord(
  agent: AgentSummary,
  message: string,
  api: { status: number | null } | null,
): FailureRecord {
  if (agent.outcome === "timeout")
    return { source: "agent", code: "agent_timeout", message, phase: "agent", status: null };
  if (api !== null) {
    const invalid = api.status === 400 || api.status === 413 || api.status === 422;
    return {
      source: "agent",
      code: invalid ? "api_invalid_request" : "api_error",
      message,
      phase: "agent",
      status: api.status,
    };
  }
  return { source: "agent", code: `agent_${agent.outcome}`, message, phase: "agent", status: null };
}

/** The typed record of each failed check of the validation (artifacts, then scripts in order). */
function validationRecords(v: ValidationReport): FailureRecord[] {
  const out: FailureRecord[] = [];
  const pool = [
    ...v.artifacts
      .filter((a) => !a.found)
      .map((a) => ({ source: "artifact" as const, code: "artifact_missing", path: a.path })),
  ];
  let artifactIdx = 0;
  for (const message of v.failed) {
    const script = v.scripts.find((s) => s.failed.includes(message));
    if (script) {
      const code = script.status === "ok" ? "check_failed" : `validator_${script.status}`;
      out.push({ source: "validator", code, message, phase: "validation", status: null });
    } else if (artifactIdx < pool.length) {
      artifactIdx++;
      out.push({
        source: "artifact",
        code: "artifact_missing",
        message,
        phase: "validation",
        status: null,
      });
    } else {
      out.push({
        source: "validator",
        code: "check_failed",
        message,
        phase: "validation",
        status: null,
      });
    }
  }
  return out;
}

/** The run's outcome as a whole. */
function runOutcome(agent: AgentSummary | null, harnessError: string | null): Outcome {
  if (harnessError !== null || agent === null) return "harness_error";
  if (agent.outcome === "budget") return "budget";
  if (agent.outcome === "simulator_error") return "harness_error";
  switch (agent.outcome) {
    case "completed":
      return "completed";
    case "timeout":
      return "timeout";
    case "spawn_error":
    case "aborted":
    case "not_run":
    case "simulator_error": // the simulated user failed: no verdict on the subject
      return "harness_error";
    default:
      return "agent_error";
  }
}

/** The failed check that records the agent's own failure, if it failed. */
function agentFailureCheck(agent: AgentSummary): string | null {
  switch (agent.outcome) {
    case "completed":
    case "budget": // recorded by its own harness record (evaluateRun)
    case "spawn_error":
    case "aborted":
    case "not_run":
    case "simulator_error":
      return null;
    case "timeout":
      return `Agent timed out: ${agent.detail}`;
    default:
      return `Agent execution failed with exit code ${String(agent.exit_code)} (${agent.outcome}): ${agent.detail}`;
  }
}

/**
 * Everything known about a run → its report. Pure: the same stored evidence,
 * validation and rubric always give the same report, which is what lets
 * `rescore` recompute reports without running an agent.
 */
export function evaluateRun(a: EvaluateInput): RunReport {
  const checksFailed: string[] = [];
  const checksPassed: string[] = [];
  // Every failed check gets its typed record where it is created (docs/statistics.md §7-8).
  const failures: FailureRecord[] = [];
  const fail = (r: Omit<FailureRecord, "status"> & { status?: number | null }): void => {
    checksFailed.push(r.message);
    failures.push({ ...r, status: r.status ?? null });
  };
  const api = runApiError(a.evidence, a.modelApi ?? null);
  const budgetStop = a.agent?.outcome === "budget" ? (a.metered?.stop ?? null) : null;
  if (a.agent?.outcome === "budget")
    fail({
      source: "harness",
      code: "budget",
      message: `Stopped by the budget: ${budgetStop?.detail ?? a.agent.detail}`,
      phase: "agent",
    });
  if (a.agent) {
    const f = agentFailureCheck(a.agent);
    if (f) fail(agentFailureRecord(a.agent, f, api));
    if (a.agent.interaction?.end_reason === "decision_queue_exhausted")
      fail({
        source: "agent",
        code: "decision_queue_exhausted",
        message: `Deterministic decision reply queue exhausted after ${a.agent.interaction.actual_turns} turns`,
        phase: "interaction",
      });
    if (a.agent.outcome === "simulator_error" && !a.harnessError)
      fail({
        source: "harness",
        code: "simulator_error",
        message: `Simulated user failed: ${a.agent.detail}`,
        phase: "interaction",
      });
  }
  if (a.validation) {
    checksPassed.push(...a.validation.passed);
    for (const r of validationRecords(a.validation)) fail(r);
  }
  if (a.rubric)
    for (const message of a.rubric.hard_failures)
      fail({
        source: "contract",
        code: SKILL_NOT_INVOKED.test(message) ? "skill_not_invoked" : "hard_failure",
        message,
        phase: "scoring",
      });
  if ((a.sandbox?.oom_kills ?? 0) > 0)
    fail({
      source: "agent",
      code: "oom_killed",
      message: `Out of memory: ${a.sandbox?.oom_kills} process(es) killed at the memory limit (${a.sandbox?.limits?.memory ?? "unknown"})`,
      phase: "agent",
    });
  if (a.harnessError)
    fail({
      source: "harness",
      code: "harness_error",
      message: `Harness error: ${a.harnessError}`,
      phase: "setup",
    });
  const outcome = runOutcome(a.agent, a.harnessError);
  const typed: TypedEvidence = {
    failures,
    model_api: a.modelApi ?? null,
    api_retries: a.evidence?.api_retries.length ?? 0,
    model_requests: a.sandbox?.model_requests ?? null,
    timeout_ms: a.timeoutSec != null ? a.timeoutSec * 1000 : null,
    awaiting_model: a.evidence?.awaiting_model ?? null,
  };
  const attribution = attributeFailures({
    failed: checksFailed,
    skills_invoked: a.evidence?.skills_invoked ?? [],
    profile: a.profileName,
    treatment_skills: a.treatment?.skills.map((s) => s.name),
    failures,
    model_unresponsive: unresponsiveEvidence(typed, a.stderrTail) !== null,
  });
  const sample = classifySample({
    outcome,
    exit_code: a.agent?.exit_code ?? null,
    has_result: (a.evidence?.results.length ?? 0) > 0,
    stdout_tail: a.stdoutTail,
    stderr: a.stderrTail,
    failed: checksFailed,
    attribution,
    total_tokens: a.evidence?.tokens?.total ?? null,
    total_cost_usd: a.evidence?.total_cost_usd ?? null,
    harness_error: a.harnessError,
    budget_stop: budgetStop?.detail ?? (a.agent?.outcome === "budget" ? a.agent.detail : null),
    api_error: api,
    typed,
  });
  const passed = checksFailed.length === 0;
  return {
    schema: REPORT_SCHEMA,
    run_id: a.spec.run_id,
    run_uuid: a.runUuid,
    experiment_id: a.experimentId,
    task: a.spec.task,
    treatment: a.spec.treatment,
    rep: a.spec.rep,
    passed,
    status:
      outcome === "harness_error" || outcome === "budget"
        ? "errored"
        : passed
          ? "passed"
          : "failed",
    outcome,
    agent_outcome: a.agent?.outcome ?? "not_run",
    outcome_detail: a.harnessError ?? a.agent?.detail ?? "",
    harness_error: a.harnessError,
    exit_code: a.agent?.exit_code ?? null,
    checks_passed: checksPassed,
    checks_failed: checksFailed,
    failures,
    model_api: a.modelApi ?? null,
    rubric: a.rubric
      ? {
          profile: a.rubric.profile,
          dimensions: a.rubric.dimensions,
          weighted_score: a.rubric.weighted_score,
          rubric_avg: a.rubric.rubric_avg,
        }
      : null,
    rubric_lines: a.rubric?.rubric_lines ?? [],
    events_summary: a.evidence
      ? withTableCost(summarizeEvents(a.evidence, a.profileName), a.pricing, a.model)
      : null,
    skill_sources: (a.treatment?.skills ?? []).map((s) => ({
      name: s.name,
      source_type: s.source_type,
      path: s.path,
      hash: s.hash,
    })),
    sample_quality: sample,
    failure_attribution: attribution,
    interaction: a.agent?.interaction ?? null,
    judge: a.judge,
    model: a.model,
    sandbox: a.sandbox,
    agent: a.agentInfo,
    hashes: { task: a.task?.hash ?? "", suite: a.suiteHash },
    timing: a.timing,
    artifacts: a.artifacts,
    timestamp: a.timing.finished_at,
    ...(a.armIntegrity?.length ? { arm_integrity: a.armIntegrity } : {}),
    ...(a.metered ? { metered: a.metered } : {}),
    ...(a.skillUsage ? { skill_usage: a.skillUsage } : {}),
  };
}
