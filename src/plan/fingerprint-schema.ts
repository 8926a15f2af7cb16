import { z } from "zod";

/**
 * What a run was run with, as far as it can change the run's result: one fingerprint per run,
 * the same code for `run --baseline-from` (the frozen runs against the runs planned now),
 * `compare DIR_A DIR_B` (drift between two experiments) and the calibration lookups (a
 * calibration against the arm it is quoted for). Pure (docs/statistics.md §11).
 *
 * Every field is a string, or null when it is not recorded (a folder written before the field
 * existed, or a side that cannot know it): a null field is not compared. `fingerprintKey` gives
 * a stable key of a whole fingerprint, for a future reuse of runs whose fingerprint is unchanged.
 */
export interface RunFingerprint {
  task: string;
  /** the agent, by its report name (`claude-code`, `codex`, ...) */
  agent: string | null;
  agent_version: string | null;
  /** the model asked for; `CLI default` when none */
  model: string | null;
  /** `scripted` (skillbench's scripted model) or `live` (any other endpoint) */
  endpoint: EndpointKind | null;
  /** the scripted model's script (`sha256:…`), or the live endpoint's host (`default`: the agent's own) */
  endpoint_at: string | null;
  task_hash: string | null;
  /** the sandbox kind the run used (or will use), as resolved: never `auto` */
  sandbox: string | null;
  profile: string | null;
  /** `off`, `skipped`, or `<model> via <transport>, <n> sample(s)` */
  judge: string | null;
  /** `none`, or `auto_user, <n> turns max` */
  interaction: string | null;
  /** a hash of the rest of the interaction settings (simulator prompt, patterns, replies) */
  interaction_settings: string | null;
  timeout_sec: string | null;
  /** the treatment's Skills, `name@hash`, sorted, comma-separated (`none`) */
  skills: string | null;
}

export type EndpointKind = "scripted" | "live";

const text = z.string().nullable();
/** A fingerprint as stored in a file (calibration.json). */
export const RunFingerprintSchema = z.object({
  task: z.string(),
  agent: text,
  agent_version: text,
  model: text,
  endpoint: z.enum(["scripted", "live"]).nullable(),
  endpoint_at: text,
  task_hash: text,
  sandbox: text,
  profile: text,
  judge: text,
  interaction: text,
  interaction_settings: text,
  timeout_sec: text,
  skills: text,
}) satisfies z.ZodType<RunFingerprint>;
