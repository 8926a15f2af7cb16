/** The judge block of a run report (see src/judge/ for how it is produced). */
import { z } from "zod";

/** The judge's transports: a direct Messages API call, or the `claude` CLI. */
const JudgeTransportNameSchema = z.enum(["http", "cli"]);
export type JudgeTransportName = z.infer<typeof JudgeTransportNameSchema>;

const JudgeStatusSchema = z.enum(["enabled_and_successful", "failed", "skipped"]);

/** Spread of one dimension's scores over the samples that answered. */
const JudgeSpreadSchema = z.object({
  min: z.number(),
  max: z.number(),
  /** Sample standard deviation (n - 1); 0 for a single sample. */
  stdev: z.number(),
});
export type JudgeSpread = z.infer<typeof JudgeSpreadSchema>;

const JudgeDimensionSchema = z.object({
  name: z.string(),
  /**
   * Mean over the samples, 0..1; null: N/A, the judge gave no score (it failed, or did not score
   * this dimension): `reason` is the cause. A judge failure never becomes a score (docs/judge.md).
   */
  score: z.number().min(0).max(1).nullable(),
  /** The reason given by the first sample that scored this dimension; the cause when N/A. */
  reason: z.string(),
  samples: z.array(z.number().min(0).max(1)),
  spread: JudgeSpreadSchema,
});
export type JudgeDimension = z.infer<typeof JudgeDimensionSchema>;

/**
 * The judge overlay of one run (report.json `judge`). It never changes the
 * rule scores. `lines` are the `[RUBRIC-JUDGE]` lines, the status line last.
 */
export const JudgeBlockSchema = z.object({
  status: JudgeStatusSchema,
  /** Why it failed or was skipped; notes (missing dimensions, failed samples) when successful; '' otherwise. */
  reason: z.string(),
  /** The run's profile name (a built-in's or a suite profile's). */
  profile: z.string(),
  /** `generic` (task_completion, output_quality, instruction_adherence, custom_N) or `comet`. */
  prompt_kind: z.enum(["generic", "comet"]).nullable(),
  model: z.string().nullable(),
  transport: JudgeTransportNameSchema.nullable(),
  /** The agent whose CLI carried a `cli` judge (`--judge-agent`; null: HTTP, or not recorded). */
  agent: z.string().nullable().default(null),
  dimensions: z.array(JudgeDimensionSchema),
  lines: z.array(z.string()),
  /** Samples asked for, and how many gave a parseable verdict. */
  samples_requested: z.number().int().nonnegative(),
  samples_parsed: z.number().int().nonnegative(),
  /** Requests actually sent (samples + repair attempts); 0 when cached or skipped. */
  calls: z.number().int().nonnegative(),
  repairs: z.number().int().nonnegative(),
  /** Summed over every call; null when no call reported usage. A cache hit reports 0. */
  tokens: z.object({ input: z.number(), output: z.number() }).nullable(),
  /** Summed cost reported by the transport (the CLI reports one, HTTP does not: null). A cache hit reports 0. */
  cost_usd: z.number().nullable(),
  cached: z.boolean(),
  /** sha256 of the cache key (model, prompt, settings); null when no prompt was built. */
  prompt_hash: z.string().nullable(),
  /**
   * Length in characters of the run's output as the judge read it (the generic prompt's workspace
   * dump), for the verbosity check (docs/judge.md, "Ties are ties"); null when unknown (a
   * profile's own prompt, a skipped judge, reports written before it was recorded).
   */
  answer_chars: z.number().int().nonnegative().nullable().default(null),
});
export type JudgeBlock = z.infer<typeof JudgeBlockSchema>;
