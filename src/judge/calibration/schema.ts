/** judge-calibration.json (docs/judge.md, "Calibration"): what `skillbench judge calibrate` stores. */
import { z } from "zod";

export const JUDGE_CALIBRATION_SCHEMA = "skillbench.judge-calibration.v1";
export const JUDGE_CALIBRATION_FILE = "judge-calibration.json";

/** A coefficient and its percentile bootstrap interval over the labelled runs (null: undefined). */
const EstimateSchema = z.object({
  estimate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** Replicates on which the coefficient was defined (only these enter the interval). */
  valid_replicates: z.number().int().nonnegative(),
});
export type Estimate = z.infer<typeof EstimateSchema>;

const RaterAgreementSchema = z.object({
  rater: z.string(),
  /** Runs both the judge and this rater labelled. */
  units: z.number().int().nonnegative(),
  kappa: EstimateSchema,
  /** Quadratic-weighted κ (the levels are ordered). */
  weighted_kappa: EstimateSchema,
  /** counts[judge level][rater level]. */
  confusion: z.array(z.array(z.number().int().nonnegative())),
  /** Share of the units on the confusion matrix's diagonal. */
  agreement: EstimateSchema,
});

const DimensionCalibrationSchema = z.object({
  name: z.string(),
  /** Runs with at least two labels among the judge and the humans (α's pairable units). */
  units: z.number().int().nonnegative(),
  /** Krippendorff's α over the judge and every human rater; ordinal is what a gate reads. */
  alpha_ordinal: EstimateSchema,
  alpha_nominal: EstimateSchema,
  raters: z.array(RaterAgreementSchema),
});

const RepeatabilitySchema = z.object({
  dimension: z.string(),
  /** Runs whose judge block holds at least two samples of this dimension. */
  runs: z.number().int().nonnegative(),
  samples_per_run: z.number().int().nonnegative(),
  /** Krippendorff's α (ordinal) with the samples as raters. */
  alpha_ordinal: EstimateSchema,
  /** Mean over runs of the samples' standard deviation (the judge block's spread.stdev). */
  mean_stdev: z.number().nullable(),
});

export const JudgeCalibrationSchema = z.object({
  schema: z.literal(JUDGE_CALIBRATION_SCHEMA),
  created_at: z.string(),
  experiment_id: z.string().nullable(),
  labels_file: z.string(),
  judge: z.object({
    model: z.string(),
    prompt_kind: z.string(),
    prompt_digest: z.string(),
    rubric: z.object({ profile: z.string(), dimensions: z.array(z.string()) }),
    rubric_digest: z.string(),
  }),
  /** Both the judge's scores and the labels are mapped to this many ordered levels on 0..1. */
  levels: z.number().int().min(2),
  bootstrap: z.object({
    replicates: z.number().int().positive(),
    seed: z.number().int(),
    level: z.number(),
  }),
  raters: z.array(z.string()),
  dimensions: z.array(DimensionCalibrationSchema),
  repeatability: z.array(RepeatabilitySchema),
  pairwise: z.object({
    labels: z.number().int().nonnegative(),
    judged_pairs: z.number().int().nonnegative(),
    note: z.string(),
  }),
  notes: z.array(z.string()),
});
export type JudgeCalibration = z.infer<typeof JudgeCalibrationSchema>;
