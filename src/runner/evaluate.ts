import { attributeFailures, classifySample } from "../analysis/index.js";
import type { Evidence } from "../core/evidence.js";
import type { JudgeBlock } from "../core/judge.js";
import type { SandboxRecord } from "../core/sandbox.js";
import { REPORT_SCHEMA, type Outcome, type RunReport } from "../core/report.js";
import type { RunSpec } from "../plan/matrix.js";
import type { RubricResult } from "../scoring/index.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import type { ValidationReport } from "../validators/index.js";
import { summarizeEvents } from "./events-summary.js";

/** What the agent phase produced, as far as evaluation cares. */
export interface AgentSummary {
  /** The driver's word for how the agent ended (TurnOutcome), or 'not_run'. */
  outcome: string;
  exit_code: number | null;
  detail: string;
  interaction: RunReport["interaction"];
}

export interface EvaluateInput {
  spec: RunSpec;
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
  agentInfo: RunReport["agent"];
  suiteHash: string;
  timing: RunReport["timing"];
  artifacts: RunReport["artifacts"];
}

/** The run's outcome as a whole. */
function runOutcome(agent: AgentSummary | null, harnessError: string | null): Outcome {
  if (harnessError !== null || agent === null) return "harness_error";
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

/** Claude Code prints a result event even when the model API failed: that is noise, not the agent. */
function apiErrorOf(e: Evidence | null): { status: number | null; message: string } | null {
  const last = e?.results[e.results.length - 1];
  if (!last || last.terminal_reason !== "api_error") return null;
  return { status: last.api_error_status, message: last.result ?? "" };
}

/**
 * Everything known about a run → its report. Pure: the same stored evidence,
 * validation and rubric always give the same report, which is what lets
 * `rescore` recompute reports without running an agent.
 */
export function evaluateRun(a: EvaluateInput): RunReport {
  const checksFailed: string[] = [];
  const checksPassed: string[] = [];
  if (a.agent) {
    const f = agentFailureCheck(a.agent);
    if (f) checksFailed.push(f);
    if (a.agent.interaction?.end_reason === "decision_queue_exhausted")
      checksFailed.push(
        `Deterministic decision reply queue exhausted after ${a.agent.interaction.actual_turns} turns`,
      );
    if (a.agent.outcome === "simulator_error" && !a.harnessError)
      checksFailed.push(`Simulated user failed: ${a.agent.detail}`);
  }
  if (a.validation) {
    checksPassed.push(...a.validation.passed);
    checksFailed.push(...a.validation.failed);
  }
  if (a.rubric) checksFailed.push(...a.rubric.hard_failures);
  if ((a.sandbox?.oom_kills ?? 0) > 0)
    checksFailed.push(
      `Out of memory: ${a.sandbox?.oom_kills} process(es) killed at the memory limit (${a.sandbox?.limits?.memory ?? "unknown"})`,
    );
  if (a.harnessError) checksFailed.push(`Harness error: ${a.harnessError}`);
  const outcome = runOutcome(a.agent, a.harnessError);
  const attribution = attributeFailures({
    failed: checksFailed,
    skills_invoked: a.evidence?.skills_invoked ?? [],
    profile: a.profileName,
    treatment_skills: a.treatment?.skills.map((s) => s.name),
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
    api_error: apiErrorOf(a.evidence),
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
    status: outcome === "harness_error" ? "errored" : passed ? "passed" : "failed",
    outcome,
    agent_outcome: a.agent?.outcome ?? "not_run",
    outcome_detail: a.harnessError ?? a.agent?.detail ?? "",
    harness_error: a.harnessError,
    exit_code: a.agent?.exit_code ?? null,
    checks_passed: checksPassed,
    checks_failed: checksFailed,
    rubric: a.rubric
      ? {
          profile: a.rubric.profile,
          dimensions: a.rubric.dimensions,
          weighted_score: a.rubric.weighted_score,
          rubric_avg: a.rubric.rubric_avg,
        }
      : null,
    rubric_lines: a.rubric?.rubric_lines ?? [],
    events_summary: a.evidence ? summarizeEvents(a.evidence, a.profileName) : null,
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
  };
}
