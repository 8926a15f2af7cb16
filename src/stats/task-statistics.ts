/**
 * Statistics over per-task outcome arrays (`perTask[i][r]` = did run r of task i
 * pass), ready to hand to the bootstrap. Pure.
 *
 * Macro statistics compute the estimator per task and average over tasks, so a task
 * with many runs weighs the same as one with few. A task with fewer runs than k is
 * left out for that k (as the original aligned comparison does); no task left -> null.
 */
import { mean } from "./descriptive.js";
import { passAtK, passHatKStrict, passHatKUnbiased } from "./pass-at-k.js";
import { assertK } from "./validate.js";

export type PerTaskOutcomes = boolean[][];

/**
 * What a statistic computes from each task's run count n and pass count c alone, so the
 * bootstrap can resample counts in typed arrays instead of building boolean tables
 * (src/stats/bootstrap.ts). It must give exactly what the function gives on the table:
 * - `macro`: the mean, in task order, of `perTask(n, c)` over tasks with n >= minRuns
 *   whose value is not null; no such task -> null.
 * - `pooled`: sum of c / sum of n; no runs -> null.
 */
export type CountForm =
  | { kind: "macro"; minRuns: number; perTask: (n: number, c: number) => number | null }
  | { kind: "pooled" };

/**
 * A statistic of per-task outcomes. It must be symmetric in each task's runs (depend on their
 * passes, not their order): the bootstrap hands it a resampled task as its passes first, then
 * its failures (src/stats/bootstrap.ts).
 */
export type TaskStatistic = ((perTask: PerTaskOutcomes) => number | null) & {
  /** Optional: the same statistic from per-task counts (the bootstrap's fast path). */
  readonly counts?: CountForm;
};

function withCounts(
  f: (perTask: PerTaskOutcomes) => number | null,
  counts: CountForm,
): TaskStatistic {
  return Object.assign(f, { counts });
}
export type PassHatEstimator = "strict" | "unbiased";

function countPasses(runs: boolean[]): number {
  let c = 0;
  for (const r of runs) if (r) c++;
  return c;
}

function macro(
  perTask: PerTaskOutcomes,
  k: number,
  f: (n: number, c: number) => number | null,
): number | null {
  const values: number[] = [];
  for (const runs of perTask) {
    if (runs.length < k) continue;
    const v = f(runs.length, countPasses(runs));
    if (v !== null) values.push(v);
  }
  return mean(values);
}

/** Mean over tasks (with >= k runs) of the unbiased pass@k. */
export function macroPassAtK(k: number): TaskStatistic {
  assertK(k);
  const f = (n: number, c: number): number | null => passAtK(n, c, k);
  return withCounts((perTask) => macro(perTask, k, f), { kind: "macro", minRuns: k, perTask: f });
}

/** Mean over tasks (with >= k runs) of pass^k, strict (all runs passed) or unbiased C(c,k)/C(n,k). */
export function macroPassHatK(k: number, estimator: PassHatEstimator = "unbiased"): TaskStatistic {
  assertK(k);
  const f = (n: number, c: number): number | null =>
    estimator === "strict" ? passHatKStrict(n, c) : passHatKUnbiased(n, c, k);
  return withCounts((perTask) => macro(perTask, k, f), { kind: "macro", minRuns: k, perTask: f });
}

/** Pooled pass rate: all passes / all runs (tasks with more runs weigh more); no runs -> null. */
export const pooledPassRate: TaskStatistic = withCounts(
  (perTask) => {
    let n = 0;
    let c = 0;
    for (const runs of perTask) {
      n += runs.length;
      c += countPasses(runs);
    }
    return n === 0 ? null : c / n;
  },
  { kind: "pooled" },
);
