/**
 * `pairwise.json` in a results folder: the pairwise judge's verdicts (docs/judge.md, "Pairwise"),
 * written by the pairwise stage after the runs (runner/pairwise-stage.ts) and read by the reports.
 */
import { z } from "zod";

/** What one judging said: output A, output B, or a tie. */
export const PreferenceSchema = z.enum(["A", "B", "tie"]);
export type Preference = z.infer<typeof PreferenceSchema>;

/** One order of a pair: the preference, or null with the error when the judge failed (fail closed). */
const OrderSchema = z.object({
  preferred: PreferenceSchema.nullable(),
  reason: z.string(),
  calls: z.number().int().nonnegative(),
  repairs: z.number().int().nonnegative(),
});

const PairSchema = z.object({
  task: z.string(),
  rep: z.number().int(),
  candidate_run: z.string(),
  baseline_run: z.string(),
  /** the candidate as A */
  first: OrderSchema,
  /** the baseline as A */
  second: OrderSchema,
  /** from the candidate's side; null when an order failed (the pair is not counted) */
  outcome: z.enum(["candidate", "baseline", "tie"]).nullable(),
  disagree: z.boolean(),
});
export type PairVerdict = z.infer<typeof PairSchema>;

export const PAIRWISE_SCHEMA = "skillbench.pairwise.v1";

export const PairwiseFileSchema = z.object({
  schema: z.literal(PAIRWISE_SCHEMA),
  model: z.string(),
  candidate: z.string(),
  baseline: z.string(),
  pairs: z.array(PairSchema),
  tokens: z.object({ input: z.number(), output: z.number() }).nullable(),
  cost_usd: z.number().nullable(),
});
export type PairwiseFile = z.infer<typeof PairwiseFileSchema>;
