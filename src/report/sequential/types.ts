/**
 * sequential.json (schema `skillbench.sequential.v1`, docs/statistics.md §12): the looks of a
 * `run --until-decided` experiment. A comparison of the folder decides its band at the level the
 * last look may spend, so `report` and `rescore` read the experiment the way it was stopped.
 */
import { z } from "zod";

export const SEQUENTIAL_SCHEMA = "skillbench.sequential.v1";

const BandSchema = z.enum(["improved", "non_inferior", "regressed", "inconclusive"]);

const LookSchema = z.object({
  /** repetitions per task and treatment after this round */
  count: z.number().int().positive(),
  /** count / max_count */
  fraction: z.number().gt(0).max(1),
  /** α spent up to and including this look */
  alpha_spent: z.number().min(0),
  /** the nominal two-sided level of this look: α spent now − α spent before */
  alpha_look: z.number().min(0),
  /** what the comparison said after this round (null until it was read) */
  band: BandSchema.nullable(),
  delta: z.number().nullable(),
  ci: z.object({ low: z.number(), high: z.number(), level: z.number() }).nullable(),
});

/** The plan made at the first look (report/sequential/plan.ts): can --max-count decide at this number of tasks? */
const PlanSchema = z.object({
  tasks: z.number().int().nonnegative(),
  goal: z.enum(["improvement", "non_inferiority", "regression"]),
  alpha_last: z.number().min(0),
  decidable: z.boolean(),
  count_needed: z.number().int().positive().nullable(),
  tasks_needed: z.number().int().positive().nullable(),
  text: z.string(),
});

export const SequentialSchema = z.object({
  schema: z.literal(SEQUENTIAL_SCHEMA),
  alpha: z.number().gt(0).lt(1),
  spending: z.enum(["obrien_fleming", "pocock"]),
  margin: z.number().gt(0).lt(1),
  max_count: z.number().int().positive(),
  /** repetitions added per round */
  round: z.number().int().positive(),
  looks: z.array(LookSchema),
  /** made at the first look; absent in folders written before it existed */
  plan: PlanSchema.nullable().optional(),
  /** running: a round is under way; decided: stopped on a band; max_count: no more rounds allowed; stopped: interrupted */
  status: z.enum(["running", "decided", "max_count", "stopped"]),
});
export type Sequential = z.infer<typeof SequentialSchema>;
