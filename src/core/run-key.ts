import { z } from "zod";

/**
 * A finished run's content key as stored in its report.json (`run_key`): what the run was run
 * with, part by part, and the key made from them (src/plan/run-key.ts computes both). `--reuse
 * DIR` takes a stored run instead of running it again only when its key equals the planned
 * run's; the parts say what differed when it does not. Pure data (docs/reuse.md).
 */
export const RunKeyPartsSchema = z.object({
  /** the format of these parts (RUN_KEY_VERSION): keys of another format are never compared */
  version: z.number().int(),
  /** the harness's scoring version (SCORING_VERSION) the run was scored under */
  scoring_version: z.number().int(),
  task: z.string(),
  /** the task folder's content hash (task.toml, instruction.md, environment/, validation/, data/) */
  task_hash: z.string(),
  treatment: z.string(),
  /** the treatment's content: its settings and every Skill's bytes (by their hashes) */
  treatment_hash: z.string(),
  rep: z.number().int(),
  /** the agent by its report name, and its version */
  agent: z.string(),
  agent_version: z.string().nullable(),
  /** the model asked for (`CLI default` when none) */
  model: z.string(),
  /** `scripted` (skillbench's scripted model) or `live` */
  endpoint: z.enum(["scripted", "live"]),
  /** the script's hash, or the live endpoint's host */
  endpoint_at: z.string().nullable(),
  /** the sandbox kind, resolved (never `auto`) */
  sandbox: z.string(),
  /** docker: the image id (`sha256:…`) the run ran in; null for local and bwrap */
  image: z.string().nullable(),
  profile: z.string(),
  /** a suite profile's file (profiles/<name>.toml) hash; null for a built-in (scoring_version covers it) */
  profile_hash: z.string().nullable(),
  /** the judge's settings: `off`, `skipped`, or `<model> via <transport>, <n> sample(s)` */
  judge: z.string(),
  /** `none`, or `auto_user, <n> turns max`, and a hash of the rest of the interaction settings */
  interaction: z.string(),
  interaction_settings: z.string(),
  timeout_sec: z.string(),
  /** a hash of the declared environment (skillbench.yaml env and validation, --env, --pass-env names) */
  environment: z.string(),
});
export type RunKeyParts = z.infer<typeof RunKeyPartsSchema>;

export const RunKeyRecordSchema = z.object({
  /** `sha256:<hex>` of the parts' canonical JSON */
  key: z.string(),
  parts: RunKeyPartsSchema,
});
export type RunKeyRecord = z.infer<typeof RunKeyRecordSchema>;
