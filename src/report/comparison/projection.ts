/**
 * What would resolve an unresolved Δ pass rate, projected from the observed per-task rates
 * (docs/statistics.md §9 "More runs needed", §12 "Plan ahead"). Pure.
 *
 * The projection keeps every task's observed pass rates and asks the sequential rule's interval
 * (stats/sequential.ts: the hull of Newcombe's score interval and the task-clustered t interval,
 * the closed form of the verdict's interval) at a level: with f times the runs per task (counts
 * scaled, so the rates stay) and, for tasks, with the observed tasks repeated g times (new tasks
 * as spread as the observed ones). More runs narrow Newcombe's part only: the task-clustered part
 * depends on the per-task rates, not on how many runs each task has, so when the tasks disagree
 * no number of runs resolves it and only more tasks do. The projection assumes the rates hold
 * (no power margin): a lower bound.
 */
import { sequentialInterval, type PerTaskOutcomes } from "../../stats/index.js";

export type Goal = "improvement" | "non_inferiority" | "regression";

/** Runs and passes per task of one arm. */
export interface ArmCounts {
  n: number[];
  c: number[];
}

export function armCounts(o: PerTaskOutcomes): ArmCounts {
  return { n: o.map((x) => x.length), c: o.map((x) => x.filter(Boolean).length) };
}

/** The goal the observed Δ points to: above 0 → improvement, above −margin → non-inferiority. */
export function goalOf(delta: number, margin: number): Goal {
  return delta > 0 ? "improvement" : delta > -margin ? "non_inferiority" : "regression";
}

function resolves(goal: Goal, iv: { low: number; high: number }, margin: number): boolean {
  if (goal === "improvement") return iv.low > 0;
  if (goal === "regression") return iv.high < 0;
  return iv.low > -margin;
}

function scaled(a: ArmCounts, f: number, g: number): ArmCounts {
  const n: number[] = [];
  const c: number[] = [];
  for (let k = 0; k < g; k++)
    for (let i = 0; i < a.n.length; i++) {
      n.push((a.n[i] ?? 0) * f);
      c.push((a.c[i] ?? 0) * f);
    }
  return { n, c };
}

/** Whether the projected interval resolves `goal` with f × the runs per task and g × the tasks. */
function resolvesAt(
  a: ArmCounts,
  b: ArmCounts,
  goal: Goal,
  margin: number,
  alpha: number,
  f: number,
  g = 1,
): boolean {
  const iv = sequentialInterval(scaled(a, f, g), scaled(b, f, g), alpha);
  return iv !== null && resolves(goal, iv, margin);
}

/** The most runs per task the projection tries (a factor of the runs now). */
const MAX_RUN_FACTOR = 64;
/** The most tasks it tries (a factor of the tasks now). */
const MAX_TASK_FACTOR = 64;

/** The smallest factor f in [from, MAX_RUN_FACTOR] of the runs per task that resolves `goal`; null: none does. */
export function runFactorToResolve(
  a: ArmCounts,
  b: ArmCounts,
  goal: Goal,
  margin: number,
  alpha: number,
  from = 1,
): number | null {
  if (!resolvesAt(a, b, goal, margin, alpha, MAX_RUN_FACTOR)) return null;
  let lo = from - 1;
  let hi = MAX_RUN_FACTOR;
  // resolving is monotone in f (Newcombe's part narrows, the clustered part stays): bisect
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (mid >= from && resolvesAt(a, b, goal, margin, alpha, mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The smallest number of tasks (a multiple of the tasks now) that resolves `goal` with f × the runs per task; null: none does. */
export function tasksToResolve(
  a: ArmCounts,
  b: ArmCounts,
  goal: Goal,
  margin: number,
  alpha: number,
  f = 1,
): number | null {
  for (let g = 1; g <= MAX_TASK_FACTOR; g++)
    if (resolvesAt(a, b, goal, margin, alpha, f, g)) return g * a.n.length;
  return null;
}
