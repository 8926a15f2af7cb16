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
export type TaskStatistic = (perTask: PerTaskOutcomes) => number | null;
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
  return (perTask) => macro(perTask, k, (n, c) => passAtK(n, c, k));
}

/** Mean over tasks (with >= k runs) of pass^k, strict (all runs passed) or unbiased C(c,k)/C(n,k). */
export function macroPassHatK(k: number, estimator: PassHatEstimator = "unbiased"): TaskStatistic {
  assertK(k);
  return (perTask) =>
    macro(perTask, k, (n, c) =>
      estimator === "strict" ? passHatKStrict(n, c) : passHatKUnbiased(n, c, k),
    );
}

/** Pooled pass rate: all passes / all runs (tasks with more runs weigh more); no runs -> null. */
export const pooledPassRate: TaskStatistic = (perTask) => {
  let n = 0;
  let c = 0;
  for (const runs of perTask) {
    n += runs.length;
    c += countPasses(runs);
  }
  return n === 0 ? null : c / n;
};
