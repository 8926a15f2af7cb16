import { z } from "zod";
import { BUILT_IN_REPORT_NAMES } from "../agents/report-names.js";
import { RunArmProblemSchema } from "./arm-integrity.js";
import { JudgeBlockSchema } from "./judge.js";
import { RunKeyRecordSchema } from "./run-key.js";
import { SandboxRecordSchema } from "./sandbox.js";

export const REPORT_SCHEMA = "skillbench.report.v1";

const DimensionSchema = z.object({
  name: z.string(),
  weight: z.number(),
  /** null = not applicable */
  score: z.number().nullable(),
  reason: z.string(),
  checks: z.array(z.object({ name: z.string(), passed: z.boolean() })),
});

const RubricSchema = z.object({
  profile: z.string(),
  dimensions: z.array(DimensionSchema),
  weighted_score: z.number(),
  rubric_avg: z.number().nullable(),
});

const SampleQualitySchema = z.object({
  status: z.enum(["included", "flagged", "excluded"]),
  reason_code: z.string(),
  reason: z.string(),
  include_in_analysis: z.boolean(),
  confidence: z.enum(["high", "medium", "low"]),
  evidence: z.array(z.string()),
});

const AttributionSchema = z.object({
  bucket: z.enum(["harness", "workflow", "task", "model"]),
  check: z.string(),
  reason: z.string(),
});

/**
 * Where a failed check or a harness error came from (docs/statistics.md §8): sample quality and
 * attribution decide on these fields, not on the message text.
 */
const FailureSourceSchema = z.enum(["validator", "artifact", "contract", "agent", "harness"]);
const FailurePhaseSchema = z.enum([
  "setup",
  "agent",
  "interaction",
  "validation",
  "scoring",
  "judge",
]);
const FailureRecordSchema = z.object({
  source: FailureSourceSchema,
  /** A stable word: `check_failed`, `artifact_missing`, `agent_timeout`, `api_invalid_request`, ... */
  code: z.string(),
  /** The failed check as it appears in checks_failed. */
  message: z.string(),
  phase: FailurePhaseSchema,
  /** HTTP status of a model-API failure, when the agent reported one. */
  status: z.number().int().nullable().default(null),
});
export type FailureRecord = z.infer<typeof FailureRecordSchema>;

/**
 * What the model endpoint did for this run's agent, when the harness knows (the scripted model
 * server logs every request). null: a real endpoint, judged from the agent's own evidence.
 */
const ModelApiRecordSchema = z.object({
  source: z.literal("scripted_server"),
  requests: z.number().int(),
  /** requests answered with a complete 2xx reply */
  answered: z.number().int(),
  /** requests that never got an answer (hang, or the agent left before the reply) */
  unanswered: z.number().int(),
  /** error replies by HTTP status */
  errors: z.record(z.string(), z.number().int()),
  /**
   * The run's last model request got an error reply or a cut stream (the agent was still
   * retrying a failing model when it stopped); absent in reports written before it existed.
   */
  last_failed: z.boolean().optional(),
});
export type ModelApiRecord = z.infer<typeof ModelApiRecordSchema>;

const SkillSourceSchema = z.object({
  name: z.string(),
  source_type: z.enum(["path", "inline"]),
  path: z.string().nullable(),
  hash: z.string(),
});

/**
 * How deeply a run used one Skill it had installed (docs/evidence.md, "Depth of use"): derived
 * from the normalised evidence and the Skill's own file list (analysis/skill-usage.ts).
 */
const SkillUsageSchema = z.object({
  skill: z.string(),
  /** By the agent's own mechanism (its Skill tool; Codex: SKILL.md read). */
  invoked: z.boolean(),
  /** Skill-relative paths of the Skill's files read (SKILL.md also when invoked), in `files` order. */
  files_read: z.array(z.string()),
  /** Skill-relative paths of the Skill's files executed through a shell command. */
  scripts_run: z.array(z.string()),
  /** Share of `files` read or run (0..1). */
  coverage: z.number(),
  /** Every file of the installed Skill, Skill-relative, sorted: coverage's denominator. */
  files: z.array(z.string()),
  /** The Skill files the eval manifest names as holding the real knowledge (`key_files:`). */
  key_files: z.array(z.string()).optional(),
});
export type SkillUsage = z.infer<typeof SkillUsageSchema>;

const EventsSummarySchema = z.object({
  duration_seconds: z.number().nullable(),
  duration_api_seconds: z.number().nullable(),
  num_turns: z.number().nullable(),
  tool_calls: z.number().int(),
  /** How many of `tool_calls` subagents made; absent in reports written before it existed. */
  subagent_tool_calls: z.number().int().optional(),
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  cache_read_input_tokens: z.number().nullable(),
  cache_creation_input_tokens: z.number().nullable(),
  total_tokens: z.number().nullable(),
  total_cost_usd: z.number().nullable(),
  /**
   * Who priced `total_cost_usd` when the agent reported no cost: the pricing table
   * (docs/cost.md), with the entry and the table's version in `cost_priced_as`. Absent: the
   * agent's own figure (or none).
   */
  cost_source: z.literal("pricing_table").optional(),
  cost_priced_as: z.string().optional(),
  model_usage: z.record(z.string(), z.unknown()),
  files_created: z.array(z.string()),
  files_modified: z.array(z.string()),
  commands_run: z.number().int(),
  skills_invoked: z.array(z.string()),
  skill_files_touched: z.array(z.string()),
  scripts_used: z.array(z.string()),
  session_ids: z.array(z.string()),
  api_retries: z.number().int(),
  peak_context_tokens: z.number().nullable(),
  profile: z.string(),
  final_response: z.string().nullable(),
});
export type EventsSummary = z.infer<typeof EventsSummarySchema>;

const InteractionSchema = z
  .object({
    mode: z.enum(["none", "auto_user"]),
    max_turns: z.number().int(),
    actual_turns: z.number().int(),
    end_reason: z.string(),
    turns: z.array(z.record(z.string(), z.unknown())),
  })
  .loose();

/**
 * Outcome of the run as a whole (the agent's, or the harness's when it failed). `budget`: the
 * run was stopped by a budget (docs/budgets.md): invalid, never a failure.
 */
const OutcomeSchema = z.enum(["completed", "agent_error", "timeout", "harness_error", "budget"]);
export type Outcome = z.infer<typeof OutcomeSchema>;

/**
 * A queued run's journey: the job, the worker whose attempt produced the record, and the
 * attempts lost on the way (a worker killed or gone: harness noise, never the run's result).
 */
export const QueueRecordSchema = z.object({
  job_id: z.string(),
  worker: z.string(),
  attempts: z.number().int().positive(),
  lost_attempts: z.array(
    z.object({
      attempt: z.number().int().positive(),
      worker: z.string(),
      started_at: z.string(),
      reason: z.string(),
    }),
  ),
  /** Files of the run's record left out to stay under the transfer size cap. */
  omitted: z.array(z.string()),
});
export type QueueRecord = z.infer<typeof QueueRecordSchema>;

const TokensSchema = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number(),
  cache_write: z.number(),
});

/**
 * The harness's own count of the run's model usage, metered as the responses streamed
 * (docs/budgets.md); present only when a budget was given.
 */
const MeteredSchema = z.object({
  tokens: TokensSchema,
  total_tokens: z.number(),
  /** Dollars of the priced part, with the pricing table `pricing`. */
  usd: z.number(),
  /** Models the table does not price: their tokens are in `tokens`, their dollars nowhere. */
  unpriced: z.array(z.string()),
  /** The pricing table's version. */
  pricing: z.string(),
  /** Why a budget stopped the run (outcome `budget`), else null. */
  stop: z
    .object({
      cause: z.enum(["run_usd", "budget_usd", "budget_tokens", "unpriced"]),
      detail: z.string(),
    })
    .nullable(),
});
export type Metered = z.infer<typeof MeteredSchema>;

/**
 * report.json: one per run, written atomically once the run is complete.
 * Versioned by `schema`; see docs/report-schema.md.
 */
export const RunReportSchema = z.object({
  schema: z.literal(REPORT_SCHEMA),
  run_id: z.string(),
  /** The UUID given to the instruction template and the validators as {run_id}. */
  run_uuid: z.string().nullable().default(null),
  experiment_id: z.string(),
  task: z.string(),
  treatment: z.string(),
  rep: z.number().int().positive(),
  passed: z.boolean(),
  status: z.enum(["passed", "failed", "errored"]),
  outcome: OutcomeSchema,
  agent_outcome: z.string(),
  outcome_detail: z.string(),
  /** The harness fault, when the run errored because of skillbench (or its machine). */
  harness_error: z.string().nullable().default(null),
  exit_code: z.number().int().nullable(),
  checks_passed: z.array(z.string()),
  checks_failed: z.array(z.string()),
  /** One typed record per failed check (same order); empty in reports written before them. */
  failures: z.array(FailureRecordSchema).default([]),
  /** The scripted model server's view of this run's requests; null for a real endpoint. */
  model_api: ModelApiRecordSchema.nullable().default(null),
  rubric: RubricSchema.nullable(),
  rubric_lines: z.array(z.string()),
  events_summary: EventsSummarySchema.nullable(),
  skill_sources: z.array(SkillSourceSchema),
  sample_quality: SampleQualitySchema,
  failure_attribution: z.array(AttributionSchema),
  interaction: InteractionSchema.nullable(),
  /** The LLM judge's overlay (null when the judge is off); never changes rule scores. */
  judge: JudgeBlockSchema.nullable().default(null),
  model: z.string().nullable(),
  /** How the run was isolated (null: written before sandboxes were recorded). */
  sandbox: SandboxRecordSchema.nullable().default(null),
  agent: z.object({
    /** The agent that ran (docs/agents.md); Claude Code keeps the name it had before there were drivers. */
    // The built-in drivers' report names, in registry order (src/agents/report-names.ts).
    name: z.enum(BUILT_IN_REPORT_NAMES),
    bin: z.string().nullable(),
    version: z.string().nullable(),
  }),
  hashes: z.object({ task: z.string(), suite: z.string() }),
  timing: z.object({ started_at: z.string(), finished_at: z.string(), wall_ms: z.number() }),
  artifacts: z.object({
    stdout: z.string(),
    stderr: z.string(),
    events: z.string().nullable(),
    validation: z.string().nullable(),
    workspace: z.string().nullable(),
    /** `--keep-workspaces`: the run's live workspace, kept (absolute; never swept as a leftover). */
    kept_workspace: z.string().optional(),
  }),
  timestamp: z.string(),
  /** How a queued run travelled (absent for local runs); see docs/distributed.md. */
  queue: QueueRecordSchema.optional(),
  /** The run's content key (docs/reuse.md); absent in reports written before keys. */
  run_key: RunKeyRecordSchema.optional(),
  /** `--reuse`: the results folder this run was taken from instead of being run (absent: run here). */
  reused_from: z.string().optional(),
  /**
   * A Skill seen in an arm that does not install it (`arm_leak`), or a file of its own Skill read
   * with content other than the frozen copy's (`skill_drift`); absent when there is none
   * (docs/statistics.md, "Arm integrity").
   */
  arm_integrity: z.array(RunArmProblemSchema).optional(),
  /** The metered usage and budget stop (absent without a budget); see docs/budgets.md. */
  metered: MeteredSchema.optional(),
  /** Depth of use of each installed Skill (absent when the run had none; docs/evidence.md). */
  skill_usage: z.array(SkillUsageSchema).optional(),
});
export type RunReport = z.infer<typeof RunReportSchema>;
