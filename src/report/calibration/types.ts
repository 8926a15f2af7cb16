/**
 * The shape of calibration.json (schema `skillbench.calibration.v1`, docs/statistics.md §13):
 * what an A/A calibration (`skillbench calibrate`) found about one treatment's run-to-run noise.
 * Parsed with this schema wherever it is read (a comparison looks for one, `report` and `rescore`
 * recompute it).
 */
import { z } from "zod";
import { RunFingerprintSchema } from "../../plan/fingerprint-schema.js";

export const CALIBRATION_SCHEMA = "skillbench.calibration.v1";
/** Random splits of the runs into two arms (default). */
export const DEFAULT_SPLITS = 200;
/**
 * The fewest analysis-set runs per arm (per task) from which a noise floor is quoted: below it the
 * floor of a handful of splits is itself noise (2 runs per arm can say ±0.00). docs/statistics.md §13.
 */
export const MIN_PER_ARM = 5;

const BandSchema = z.enum(["improved", "non_inferior", "regressed", "inconclusive"]);
const CiSchema = z.object({ low: z.number(), high: z.number(), level: z.number() });

export const CalibrationSettingsSchema = z.object({
  treatment: z.string().min(1),
  /** repetitions per arm asked (`--count`): the treatment ran 2 × per_arm times per task */
  per_arm: z.number().int().positive(),
  splits: z.number().int().positive(),
  seed: z.number().int(),
  margin: z.number().gt(0).lt(1),
});
export type CalibrationSettings = z.infer<typeof CalibrationSettingsSchema>;

const TaskRowSchema = z.object({
  task: z.string(),
  runs: z.number().int(),
  passes: z.number().int(),
  pass_rate: z.number().nullable(),
  /** share of pairs of its runs that disagree, 2c(n−c)/(n(n−1)); null below 2 runs (not the flip rate: that is per task, yes or no) */
  pair_disagreement: z.number().nullable(),
});

export const CalibrationSchema = z.object({
  schema: z.literal(CALIBRATION_SCHEMA),
  experiment_id: z.string().nullable(),
  settings: CalibrationSettingsSchema,
  /** what a comparison must share with it for its noise floor to apply */
  fingerprint: z.object({
    agent: z.string().nullable(),
    agent_version: z.string().nullable(),
    model: z.string().nullable(),
    scripted: z.boolean(),
    /** task → content hash */
    tasks: z.record(z.string(), z.string()),
    /** the treatment's Skills, name@hash, sorted */
    skills: z.array(z.string()),
    /**
     * the first run of each task, fingerprinted as compare and --baseline-from do
     * (src/plan/fingerprint.ts); absent in calibrations written before
     */
    runs: z.array(RunFingerprintSchema).optional(),
  }),
  runs: z.object({ raw: z.number().int(), analysis: z.number().int(), excluded: z.number().int() }),
  tasks: z.array(TaskRowSchema),
  /** the flip rate, as a comparison's: share of tasks (with ≥ 2 runs) whose runs disagree */
  task_flip_rate: z.number().nullable(),
  /** mean over tasks of their pair disagreement */
  mean_pair_disagreement: z.number().nullable(),
  /** the first per_arm repetitions against the rest, as the verdict rule reads them */
  split_by_rep: z.object({ delta: z.number(), ci: CiSchema, band: BandSchema }).nullable(),
  /** random splits of each task's runs into two halves */
  resampled: z
    .object({
      splits: z.number().int(),
      bands: z.record(BandSchema, z.number().int()),
      /** share of splits the verdict rule called improved or regressed */
      claim_rate: z.number(),
      /** 95th percentile and maximum of |Δ pass rate| between the halves: the noise floor */
      delta_abs_p95: z.number(),
      delta_abs_max: z.number(),
    })
    .nullable(),
});
export type Calibration = z.infer<typeof CalibrationSchema>;

/**
 * calibration.json written before "flip rate" got one meaning: the pair measure was called
 * `flip_rate` (per task) and `pair_flip_rate` (mean). Read as the current shape.
 */
export const LegacyCalibrationSchema = CalibrationSchema.omit({
  tasks: true,
  mean_pair_disagreement: true,
})
  .extend({
    tasks: z.array(
      TaskRowSchema.omit({ pair_disagreement: true }).extend({
        flip_rate: z.number().nullable(),
      }),
    ),
    pair_flip_rate: z.number().nullable(),
  })
  .transform(({ tasks, pair_flip_rate, ...rest }) => ({
    ...rest,
    tasks: tasks.map(({ flip_rate, ...t }) => ({ ...t, pair_disagreement: flip_rate })),
    mean_pair_disagreement: pair_flip_rate,
  }));

/** The noise floor a comparison shows beside its delta (comparison.json `noise_floor`). */
export interface NoiseFloor {
  /** the calibration's results folder */
  dir: string;
  experiment_id: string | null;
  /** the calibrated treatment and which arm of this comparison it is */
  treatment: string;
  arm: "baseline" | "candidate";
  per_arm: number;
  splits: number;
  claim_rate: number;
  delta_abs_p95: number;
  task_flip_rate: number | null;
  /** this comparison's Δ lies beyond the floor (|Δ| > delta_abs_p95) */
  delta_beyond_floor: boolean | null;
}
