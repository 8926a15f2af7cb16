import type { RunReport } from "../../core/report.js";
import {
  bootstrapInterval,
  macroPassAtK,
  macroPassHatK,
  type TaskStatistic,
} from "../../stats/index.js";
import { perTaskOutcomes } from "../outcomes.js";
import { computePassK } from "../passk.js";
import {
  BOOTSTRAP_LEVEL,
  BOOTSTRAP_REPLICATES,
  type IntervalValue,
  type PassKSection,
} from "./types.js";

/**
 * The pass@k / pass^k table (src/report/passk.ts) plus a two-stage bootstrap 95% interval
 * (tasks, then runs within a task) for pass@k and unbiased pass^k of every row. Pure.
 */
export function passKSection(
  reports: RunReport[],
  treatments: string[],
  ks: number[] | undefined,
  seed: number,
): PassKSection {
  const table = computePassK(reports, treatments, ks);
  const boot = (outcomes: boolean[][], stat: TaskStatistic): IntervalValue | null => {
    const r = bootstrapInterval(outcomes, stat, {
      seed,
      replicates: BOOTSTRAP_REPLICATES,
      level: BOOTSTRAP_LEVEL,
    });
    return r
      ? { estimate: r.estimate, low: r.low, high: r.high, valid_replicates: r.valid_replicates }
      : null;
  };
  const bootstrap = table.rows.map((row) => {
    const { outcomes } = perTaskOutcomes(reports, row.treatment, row.metric);
    const at: Record<string, IntervalValue | null> = {};
    const hat: Record<string, IntervalValue | null> = {};
    for (const k of table.ks) {
      at[k] = row.n === 0 ? null : boot(outcomes, macroPassAtK(k));
      hat[k] = row.n === 0 ? null : boot(outcomes, macroPassHatK(k, "unbiased"));
    }
    return {
      metric: row.metric,
      treatment: row.treatment,
      pass_at_k: at,
      pass_hat_k_unbiased: hat,
    };
  });
  return { ...table, bootstrap };
}
