/** Builders of synthetic RunReports and metadata for the report tests. */
import type { RunDigest } from "../../../src/core/digest.js";
import { RunReportSchema, type RunReport } from "../../../src/core/report.js";
import type { SummaryInput } from "../../../src/report/summary-md.js";
import type { Metadata } from "../../../src/store/metadata.js";

export interface RunSpec {
  task?: string;
  treatment?: string;
  rep?: number;
  passed?: boolean;
  /** failed checks (default: one when passed is false) */
  failed?: string[];
  attribution?: RunReport["failure_attribution"];
  quality?: "included" | "flagged" | "excluded";
  reasonCode?: string;
  /** dimension scores; null = N/A. Omit for the default (completion from `passed`). `false` = no rubric */
  dims?: Record<string, number | null> | false;
  weighted?: number;
  tokens?: number | null;
  cost?: number | null;
  turns?: number | null;
  duration?: number | null;
  tools?: number;
  model?: string | null;
  agentVersion?: string | null;
  taskHash?: string;
  skills?: Array<{ name: string; hash: string }>;
}

const HASH = `sha256:${"a".repeat(64)}`;

export function makeReport(s: RunSpec = {}): RunReport {
  const task = s.task ?? "task-a";
  const treatment = s.treatment ?? "CONTROL";
  const rep = s.rep ?? 1;
  const passed = s.passed ?? true;
  const failed = s.failed ?? (passed ? [] : ["check_x: wrong output"]);
  const quality = s.quality ?? "included";
  const dims = s.dims === false ? null : (s.dims ?? { completion: passed ? 1 : 0, efficiency: 1 });
  const scores = dims ? Object.values(dims).filter((v): v is number => v !== null) : [];
  const avg = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  const run_id = `${task}-${treatment}-r${rep}`;
  const report = {
    schema: "skillbench.report.v1",
    run_id,
    run_uuid: null,
    experiment_id: "exp-1",
    task,
    treatment,
    rep,
    passed: failed.length === 0,
    status: failed.length === 0 ? "passed" : "failed",
    outcome: "completed",
    agent_outcome: "success",
    outcome_detail: "",
    exit_code: 0,
    checks_passed: ["check_ok"],
    checks_failed: failed,
    rubric: dims
      ? {
          profile: "generic",
          dimensions: Object.entries(dims).map(([name, score]) => ({
            name,
            weight: name === "completion" ? 2 : 1,
            score,
            reason: "",
            checks: [],
          })),
          weighted_score: s.weighted ?? avg ?? 0,
          rubric_avg: avg,
        }
      : null,
    rubric_lines: [],
    events_summary: {
      duration_seconds: s.duration === undefined ? 10 : s.duration,
      duration_api_seconds: null,
      num_turns: s.turns === undefined ? 3 : s.turns,
      tool_calls: s.tools ?? 2,
      input_tokens: null,
      output_tokens: null,
      cache_read_input_tokens: null,
      cache_creation_input_tokens: null,
      total_tokens: s.tokens === undefined ? 1000 : s.tokens,
      total_cost_usd: s.cost === undefined ? 0.01 : s.cost,
      model_usage: {},
      files_created: [],
      files_modified: [],
      commands_run: 0,
      skills_invoked: [],
      skill_files_touched: [],
      scripts_used: [],
      session_ids: [],
      api_retries: 0,
      peak_context_tokens: null,
      profile: "generic",
      final_response: null,
    },
    skill_sources: (s.skills ?? []).map((k) => ({
      name: k.name,
      source_type: "path",
      path: `/skills/${k.name}`,
      hash: k.hash,
    })),
    sample_quality: {
      status: quality,
      reason_code:
        s.reasonCode ??
        (quality === "excluded"
          ? "rate_limited"
          : quality === "flagged"
            ? "partial_observability"
            : "valid_signal"),
      reason: quality === "excluded" ? "API rate limit or quota failure" : "reason text",
      include_in_analysis: quality !== "excluded",
      confidence: "high",
      evidence:
        quality === "excluded" ? ["api_error_status 429: rejected"] : ["result event present"],
    },
    failure_attribution:
      s.attribution ??
      failed.map((check) => ({
        bucket: "model",
        check,
        reason: "task failed after observable workflow execution",
      })),
    interaction: null,
    model: s.model === undefined ? "claude-test" : s.model,
    agent: {
      name: "claude-code",
      bin: null,
      version: s.agentVersion === undefined ? "2.1.328" : s.agentVersion,
    },
    hashes: { task: s.taskHash ?? HASH, suite: HASH },
    timing: {
      started_at: "2026-01-01T00:00:00Z",
      finished_at: "2026-01-01T00:00:10Z",
      wall_ms: 10000,
    },
    artifacts: {
      stdout: `runs/${run_id}/stdout.jsonl`,
      stderr: `runs/${run_id}/stderr.txt`,
      events: null,
      validation: null,
      workspace: null,
    },
    timestamp: "2026-01-01T00:00:10Z",
  };
  return RunReportSchema.parse(report);
}

/** `count` reps of one task × treatment; `passes` says which reps pass (1-based), the rest fail. */
export function reps(
  treatment: string,
  count: number,
  passes: number[],
  extra: RunSpec = {},
): RunReport[] {
  return Array.from({ length: count }, (_, i) =>
    makeReport({ ...extra, treatment, rep: i + 1, passed: passes.includes(i + 1) }),
  );
}

/** summary.md's input for these runs: experiment exp-1, no times, suite, agent version or model. */
export function makeSummaryInput(treatments: string[], reports: RunDigest[]): SummaryInput {
  return {
    experimentId: "exp-1",
    startedAt: null,
    completedAt: null,
    suite: null,
    agentVersion: null,
    model: null,
    treatments,
    reports,
  };
}

export function makeMetadata(treatments: string[]): Metadata {
  return {
    schema: "skillbench.experiment.v1",
    experiment_id: "exp-1",
    started_at: "2026-01-01T00:00:00Z",
    completed_at: "2026-01-01T01:00:00Z",
    suite: { path: "/suite", hash: HASH },
    treatments,
    model: null,
    versions: { skillbench: "0.1.0", claude: "2.1.328" },
  };
}

/** A successful judge block with these dimension scores. */
export function makeJudgeBlock(scores: Record<string, number>): NonNullable<RunReport["judge"]> {
  return {
    status: "enabled_and_successful",
    reason: "",
    model: "j",
    transport: "http",
    agent: null,
    profile: "generic",
    prompt_kind: "generic",
    dimensions: Object.entries(scores).map(([name, score]) => ({
      name,
      score,
      reason: "r",
      samples: [score],
      spread: { min: score, max: score, stdev: 0 },
    })),
    lines: Object.entries(scores).map(
      ([name, score]) => `[RUBRIC-JUDGE] ${name}: ${score.toFixed(2)} - r`,
    ),
    samples_requested: 1,
    samples_parsed: 1,
    calls: 1,
    repairs: 0,
    tokens: null,
    cost_usd: null,
    cached: false,
    prompt_hash: null,
    answer_chars: null,
  };
}
