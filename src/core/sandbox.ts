import { z } from "zod";

/** The isolation record of a run (report.sandbox); produced by src/sandbox. */
export const SANDBOX_KINDS = ["local", "bwrap", "docker"] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

/** What the console and every report say about a run with no sandbox (docs/sandbox.md). */
export const LOCAL_WARNING = "local: the agent can read and change your files and environment";

export const SandboxLimitsSchema = z.object({
  cpus: z.number().nullable(),
  memory: z.string().nullable(),
  pids: z.number().int().nullable(),
});
export type SandboxLimits = z.infer<typeof SandboxLimitsSchema>;

/**
 * The model requests the sandbox saw pass through skillbench's relay (bwrap, docker) or its
 * loopback tap (`local`), timed at the byte level up to the end of the agent's turns
 * (src/sandbox/request-log.ts): what says, on any endpoint, whether the model left the agent
 * waiting (docs/statistics.md §8, `api_unresponsive`).
 */
export const ModelRequestsSchema = z.object({
  via: z.enum(["relay", "tap"]),
  /** requests seen (a request: bytes from the agent after the endpoint's last answer on its connection) */
  requests: z.number().int(),
  /** requests that got at least one byte back */
  answered: z.number().int(),
  /** the request begun last: how long it waited for its first byte (or until the end, unanswered) */
  last: z.object({ waited_ms: z.number(), answered: z.boolean() }).nullable(),
});
export type ModelRequests = z.infer<typeof ModelRequestsSchema>;

/** What the report records about a run's isolation (`report.sandbox`). */
export const SandboxRecordSchema = z.object({
  kind: z.enum(SANDBOX_KINDS),
  /** Why this kind was used (the `auto` reason, or "requested"). */
  why: z.string(),
  /** docker: the immutable image id (`sha256:<64 hex>`); otherwise null. */
  image_id: z.string().nullable(),
  /** docker: the image tag that was run; otherwise null. */
  image_tag: z.string().nullable(),
  /** `claude --version` run inside the sandbox (bwrap, docker); null for local. */
  agent_version_inside: z.string().nullable(),
  /** Resource limits applied (docker only); null when none are enforced. */
  limits: SandboxLimitsSchema.nullable(),
  network_policy: z.string(),
  protects: z.array(z.string()),
  does_not_protect: z.array(z.string()),
  /** Out-of-memory kills seen in the sandbox by the end of the run (docker: the cgroup counter); null when unknown. */
  oom_kills: z.number().int().nullable(),
  /** The model requests it relayed, timed; absent without a relay or tap (and before it was recorded). */
  model_requests: ModelRequestsSchema.optional(),
});
export type SandboxRecord = z.infer<typeof SandboxRecordSchema>;
