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
});
export type SandboxRecord = z.infer<typeof SandboxRecordSchema>;
