/**
 * Two-stage (cluster) percentile bootstrap over per-task outcomes. Pure and
 * deterministic: the same data, statistic, seed and B give the same interval.
 *
 * One replicate: draw T tasks with replacement from the T tasks; then, inside each
 * drawn task, draw its n runs with replacement from its own n runs; evaluate the
 * statistic on that resampled table. The interval is the (1-level)/2 and
 * (1+level)/2 percentiles (linear interpolation, "type 7") of the replicates.
 * Resampling both stages captures between-task and within-task (run-to-run) noise;
 * it is slightly conservative (wider) compared with resampling tasks only.
 */
import { mulberry32 } from "./prng.js";
import type { PerTaskOutcomes, TaskStatistic } from "./task-statistics.js";
import { assertProbability } from "./validate.js";

export interface BootstrapOptions {
  /** Number of replicates B (default 2000). */
  replicates?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

export interface BootstrapResult {
  /** The statistic on the observed data (for a paired difference: A minus B). */
  estimate: number;
  low: number;
  high: number;
  level: number;
  replicates: number;
  /** Replicates whose statistic was not null (only these enter the percentiles). */
  valid_replicates: number;
  seed: number;
}

interface Resolved {
  replicates: number;
  seed: number;
  level: number;
}

function resolve(options: BootstrapOptions | undefined): Resolved {
  const replicates = options?.replicates ?? 2000;
  const seed = options?.seed ?? 1;
  const level = options?.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`replicates must be a positive integer, got ${replicates}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  assertProbability("level", level, true);
  return { replicates, seed, level };
}

/** Quantile of sorted values, linear interpolation between order statistics (type 7). */
export function quantileSorted(sorted: number[], q: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of an empty array");
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (h - lo) * (b - a);
}

function resampleRuns(runs: boolean[], rng: () => number): boolean[] {
  const out: boolean[] = new Array<boolean>(runs.length);
  for (let r = 0; r < runs.length; r++) out[r] = runs[Math.floor(rng() * runs.length)] ?? false;
  return out;
}

function finish(estimate: number | null, values: number[], o: Resolved): BootstrapResult | null {
  if (estimate === null || values.length === 0) return null;
  values.sort((x, y) => x - y);
  return {
    estimate,
    low: quantileSorted(values, (1 - o.level) / 2),
    high: quantileSorted(values, (1 + o.level) / 2),
    level: o.level,
    replicates: o.replicates,
    valid_replicates: values.length,
    seed: o.seed,
  };
}

/**
 * Percentile bootstrap interval for `statistic` over one treatment's per-task outcomes
 * (e.g. `macroPassAtK(2)`, `macroPassHatK(2)`, `pooledPassRate`). Returns null when
 * the statistic is null on the observed data (e.g. no task has k runs) or on every
 * replicate.
 */
export function bootstrapInterval(
  perTask: PerTaskOutcomes,
  statistic: TaskStatistic,
  options?: BootstrapOptions,
): BootstrapResult | null {
  const o = resolve(options);
  const estimate = statistic(perTask);
  if (estimate === null || perTask.length === 0) return finish(null, [], o);
  const rng = mulberry32(o.seed);
  const t = perTask.length;
  const values: number[] = [];
  for (let b = 0; b < o.replicates; b++) {
    const sample: PerTaskOutcomes = new Array<boolean[]>(t);
    for (let i = 0; i < t; i++) sample[i] = resampleRuns(perTask[Math.floor(rng() * t)] ?? [], rng);
    const v = statistic(sample);
    if (v !== null) values.push(v);
  }
  return finish(estimate, values, o);
}

/**
 * Paired-by-task bootstrap interval for statistic(A) - statistic(B), where a[i] and
 * b[i] are the runs of the SAME task i under two treatments. Each replicate draws one
 * set of task indices used for both arms (keeping the pairing), then resamples runs
 * within each arm of each task independently. An interval that excludes 0 is evidence
 * of a real difference at that level. a and b must have the same number of tasks.
 */
export function bootstrapPairedDifference(
  a: PerTaskOutcomes,
  b: PerTaskOutcomes,
  statistic: TaskStatistic,
  options?: BootstrapOptions,
): BootstrapResult | null {
  if (a.length !== b.length) {
    throw new RangeError(
      `paired bootstrap needs the same tasks in both arms (${a.length} vs ${b.length})`,
    );
  }
  const o = resolve(options);
  const sa = statistic(a);
  const sb = statistic(b);
  if (sa === null || sb === null || a.length === 0) return finish(null, [], o);
  const rng = mulberry32(o.seed);
  const t = a.length;
  const values: number[] = [];
  for (let r = 0; r < o.replicates; r++) {
    const ra: PerTaskOutcomes = new Array<boolean[]>(t);
    const rb: PerTaskOutcomes = new Array<boolean[]>(t);
    for (let i = 0; i < t; i++) {
      const j = Math.floor(rng() * t);
      ra[i] = resampleRuns(a[j] ?? [], rng);
      rb[i] = resampleRuns(b[j] ?? [], rng);
    }
    const va = statistic(ra);
    const vb = statistic(rb);
    if (va !== null && vb !== null) values.push(va - vb);
  }
  return finish(sa - sb, values, o);
}
