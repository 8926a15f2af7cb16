import { z } from "zod";
import { defaultAgent } from "../agents/registry.js";
import { SealedSchema } from "./sign.js";

/**
 * What travels in a queue job: the run to do and the experiment's settings, never a
 * credential (workers take theirs from their own environment) and never a file (the
 * suite travels as a bundle named by its content hash). Parsed with this schema by the
 * worker. See docs/distributed.md.
 */

/**
 * One BullMQ queue per agent CLI in a Redis database holds every experiment's runs for that
 * agent (`skillbench-runs` for the default agent, Claude Code, `skillbench-runs-<agent>` for the others), so a
 * worker started with `--agent codex` only takes Codex runs.
 */
export const QUEUE_NAME = "skillbench-runs";
export function queueNameFor(agent: string): string {
  return agent === defaultAgent().name ? QUEUE_NAME : `${QUEUE_NAME}-${agent}`;
}
/** Prefix of every key skillbench (and BullMQ, for its queue) keeps in Redis. */
export const KEY_PREFIX = "skillbench";

/** A worker's presence record (refreshed every third of its lifetime while it runs). */
export const WORKER_TTL_SEC = 15;
export function workerKey(name: string): string {
  return `${KEY_PREFIX}:worker:${name}`;
}

export const WorkerPresenceSchema = z.object({
  name: z.string(),
  host: z.string(),
  pid: z.number().int(),
  concurrency: z.number().int(),
  agent: z.string(),
  started_at: z.string(),
  running: z.array(z.string()),
  seen_at: z.string(),
});
export type WorkerPresence = z.infer<typeof WorkerPresenceSchema>;

/**
 * Variables a queued run may not set with `--env`: a model endpoint or a proxy would send the
 * worker's credentials elsewhere, and credentials are each worker's own (`--pass-env`).
 */
export function isEndpointName(name: string): boolean {
  return /(_BASE_URL$|_API_BASE$|_ENDPOINT(_URL)?$|^(HTTPS?|ALL|NO)_PROXY$|^ANTHROPIC_CUSTOM_HEADERS$|^CLAUDE_CODE_USE_(BEDROCK|VERTEX)$|^AWS_|^CLOUD_ML_REGION$|^GOOGLE_APPLICATION_CREDENTIALS$|^NODE_EXTRA_CA_CERTS$|^NODE_OPTIONS$|^SSL_CERT_)/i.test(
    name,
  );
}

/** Job id: the experiment id and the run id, so enqueueing a run twice is a no-op. */
export function jobIdFor(experimentId: string, runId: string): string {
  return `${experimentId}/${runId}`;
}

const RunSpecSchema = z.object({
  run_id: z.string().min(1),
  task: z.string().min(1),
  treatment: z.string().min(1),
  rep: z.number().int().positive(),
});

export const RateLimitSchema = z.object({
  max: z.number().int().positive(),
  per_ms: z.number().int().positive(),
});
export type RateLimit = z.infer<typeof RateLimitSchema>;

export const JobSettingsSchema = z.object({
  /** The agent CLI (`--agent`): claude, codex, gemini or opencode. */
  agent: z.string().min(1),
  agent_retries: z.number().int().min(0).nullable(),
  simulator_agent: z.string().nullable(),
  model: z.string().nullable(),
  profile: z.string().nullable(),
  timeout_sec: z.number().positive().nullable(),
  /**
   * `--env` values, encrypted under the queue's shared key (sign.ts): never in clear in Redis.
   * Names that look like credentials or name a model endpoint are refused at enqueue time, and
   * again by the worker.
   */
  env_sealed: SealedSchema.nullable(),
  /** Variable names each worker passes from its own environment. */
  pass_env: z.array(z.string()),
  judge: z.object({
    judge: z.boolean().optional(),
    judgeModel: z.string().optional(),
    judgeBaseUrl: z.string().optional(),
    judgeSamples: z.number().int().positive().optional(),
  }),
  interaction: z.object({
    mode: z.string().optional(),
    maxTurns: z.number().int().positive().optional(),
    simulatorPrompt: z.string().optional(),
  }),
  simulator_model: z.string().nullable(),
  sandbox: z.enum(["local", "bwrap", "docker", "auto"]).nullable(),
  /** The coordinator's scripted model server, when it plays the model. */
  scripted: z.object({ url: z.string(), has_judge: z.boolean(), script_id: z.string() }).nullable(),
  /** Model requests per window across every worker. */
  rate_limit: RateLimitSchema.nullable(),
  /**
   * The budgets (docs/budgets.md): every worker meters its runs and adds their spend to one
   * counter in Redis (budget-counter.ts); absent without a budget.
   */
  budget: z
    .object({
      usd: z.number().positive().nullable(),
      tokens: z.number().int().positive().nullable(),
      run_usd: z.number().positive().nullable(),
    })
    .optional(),
});
export type JobSettings = z.infer<typeof JobSettingsSchema>;

export const JobDataSchema = z.object({
  schema: z.literal("skillbench.queue-job.v2"),
  experiment_id: z.string().min(1),
  /** Content hash of the suite bundle (see bundle.ts). */
  bundle: z.string().regex(/^[0-9a-f]{64}$/),
  run: RunSpecSchema,
  settings: JobSettingsSchema,
  /** HMAC of everything above under the shared key (sign.ts `macOf(key, "job", …)`). */
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});
export type JobData = z.infer<typeof JobDataSchema>;

/** A worker's answer: where the run's record is, and what it holds. */
export const JobResultSchema = z.object({
  schema: z.literal("skillbench.queue-result.v2"),
  job_id: z.string(),
  artifact: z.string(),
  compressed_bytes: z.number().int().min(0),
  /** sha256 of the compressed record as the worker stored it. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.enum(["passed", "failed", "errored"]),
  worker: z.string(),
  omitted: z.array(z.string()),
  /** HMAC of everything above under the shared key (`macOf(key, "record", …)`). */
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});
export type JobResult = z.infer<typeof JobResultSchema>;

/** `50/min`, `10/s`, `600/h` → a rate limit. */
export function parseRateLimit(text: string): RateLimit | null {
  const m = /^\s*(\d+)\s*\/\s*(s|sec|second|m|min|minute|h|hour)\s*$/i.exec(text);
  if (!m) return null;
  const max = Number(m[1]);
  if (!Number.isInteger(max) || max < 1) return null;
  const unit = (m[2] ?? "").toLowerCase();
  const per_ms = unit.startsWith("s") ? 1000 : unit.startsWith("h") ? 3_600_000 : 60_000;
  return { max, per_ms };
}
