import type { RunDigest } from "../../core/digest.js";
import { bootstrapIntervalsOfArms, macroPassAtK, macroPassHatK } from "../../stats/index.js";
import type { BootstrapResult } from "../../stats/bootstrap.js";
import { perTaskOutcomes } from "../outcomes.js";
import { computePassK } from "../passk.js";
import { BOOTSTRAP_LEVEL, BOOTSTRAP_REPLICATES } from "./tuning.js";
import type { IntervalValue, PassKSection } from "./types.js";

/**
 * The pass@k / pass^k table (src/report/passk.ts) plus a two-stage bootstrap 95% interval
 * (tasks, then runs within a task) for pass@k and unbiased pass^k of every row. Pure.
 */
export function passKSection(
  reports: RunDigest[],
  treatments: string[],
  ks: number[] | undefined,
  seed: number,
): PassKSection {
  const table = computePassK(reports, treatments, ks);
  const interval = (r: BootstrapResult | null | undefined): IntervalValue | null =>
    r
      ? { estimate: r.estimate, low: r.low, high: r.high, valid_replicates: r.valid_replicates }
      : null;
  // Every k of both statistics, and every row, in one bootstrap call: rows with the same
  // number of tasks share their random draws (src/stats/bootstrap.ts).
  const stats = table.ks.flatMap((k) => [macroPassAtK(k), macroPassHatK(k, "unbiased")]);
  const bootstrapped = table.rows.filter((row) => row.n > 0);
  const all = bootstrapIntervalsOfArms(
    bootstrapped.map((row) => perTaskOutcomes(reports, row.treatment, row.metric).outcomes),
    stats,
    { seed, replicates: BOOTSTRAP_REPLICATES, level: BOOTSTRAP_LEVEL },
  );
  const resultsOf = new Map(bootstrapped.map((row, i) => [row, all[i] ?? []]));
  const bootstrap = table.rows.map((row) => {
    const results = resultsOf.get(row) ?? [];
    const at: Record<string, IntervalValue | null> = {};
    const hat: Record<string, IntervalValue | null> = {};
    table.ks.forEach((k, i) => {
      at[k] = interval(results[2 * i]);
      hat[k] = interval(results[2 * i + 1]);
    });
    return {
      metric: row.metric,
      treatment: row.treatment,
      pass_at_k: at,
      pass_hat_k_unbiased: hat,
    };
  });
  return { ...table, bootstrap };
}
