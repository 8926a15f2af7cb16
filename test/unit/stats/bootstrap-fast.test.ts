/**
 * The bootstrap's typed-array path (statistics with a count form) must give exactly the
 * seeded results of the straightforward table-building bootstrap. The reference below is
 * that straightforward algorithm written out independently of src/stats/bootstrap.ts, but
 * for the CDF tables of Binomial(n, c/n) it inverts (binomialCdf, checked against exact
 * rational arithmetic in bootstrap-binomial.test.ts): per replicate and task slot, one
 * uniform draws the task, then one per arm draws its pass count, the least k with
 * u < CDF(k) (a linear search here, bisection there).
 */
import { describe, expect, it } from "vitest";
import {
  binomialCdf,
  bootstrapInterval,
  bootstrapIntervals,
  bootstrapPairedDifference,
  quantileSorted,
  type BootstrapResult,
} from "../../../src/stats/bootstrap.js";
import { mulberry32 } from "../../../src/stats/prng.js";
import {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
  type TaskStatistic,
} from "../../../src/stats/task-statistics.js";

/** A task's runs resampled: c' passes, then n - c' failures, c' drawn from one uniform. */
function resample(runs: boolean[], rng: () => number): boolean[] {
  const cdf = binomialCdf(runs.length, runs.filter(Boolean).length);
  const u = rng();
  let drawn = 0;
  while (!(u < (cdf[drawn] ?? 1))) drawn++;
  return runs.map((_, r) => r < drawn);
}

function summarise(
  estimate: number,
  values: number[],
  replicates: number,
  seed: number,
  level: number,
): BootstrapResult | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return {
    estimate,
    low: quantileSorted(sorted, (1 - level) / 2),
    high: quantileSorted(sorted, (1 + level) / 2),
    level,
    replicates,
    valid_replicates: values.length,
    seed,
  };
}

function referenceInterval(
  perTask: PerTaskOutcomes,
  stat: TaskStatistic,
  replicates: number,
  seed: number,
  level: number,
): BootstrapResult | null {
  const estimate = stat(perTask);
  if (estimate === null || perTask.length === 0) return null;
  const rng = mulberry32(seed);
  const values: number[] = [];
  for (let b = 0; b < replicates; b++) {
    const sample: PerTaskOutcomes = [];
    for (let i = 0; i < perTask.length; i++) {
      sample.push(resample(perTask[Math.floor(rng() * perTask.length)] ?? [], rng));
    }
    const v = stat(sample);
    if (v !== null) values.push(v);
  }
  return summarise(estimate, values, replicates, seed, level);
}

function referencePaired(
  a: PerTaskOutcomes,
  b: PerTaskOutcomes,
  stat: TaskStatistic,
  replicates: number,
  seed: number,
  level: number,
): BootstrapResult | null {
  const sa = stat(a);
  const sb = stat(b);
  if (sa === null || sb === null || a.length === 0) return null;
  const rng = mulberry32(seed);
  const values: number[] = [];
  for (let r = 0; r < replicates; r++) {
    const ra: PerTaskOutcomes = [];
    const rb: PerTaskOutcomes = [];
    for (let i = 0; i < a.length; i++) {
      const j = Math.floor(rng() * a.length);
      ra.push(resample(a[j] ?? [], rng));
      rb.push(resample(b[j] ?? [], rng));
    }
    const va = stat(ra);
    const vb = stat(rb);
    if (va !== null && vb !== null) values.push(va - vb);
  }
  return summarise(sa - sb, values, replicates, seed, level);
}

/** A seeded random table: `tasks` tasks, run counts in [minRuns, maxRuns], pass probability p. */
function table(
  seed: number,
  tasks: number,
  minRuns: number,
  maxRuns: number,
  p: number,
): PerTaskOutcomes {
  const rng = mulberry32(seed);
  return Array.from({ length: tasks }, () => {
    const n = minRuns + Math.floor(rng() * (maxRuns - minRuns + 1));
    return Array.from({ length: n }, () => rng() < p);
  });
}

/** Bit-for-bit equality, field by field (Object.is distinguishes -0 and NaN). */
function expectIdentical(got: BootstrapResult | null, want: BootstrapResult | null): void {
  expect(got === null).toBe(want === null);
  if (got === null || want === null) return;
  for (const key of Object.keys(want) as (keyof BootstrapResult)[]) {
    expect(Object.is(got[key], want[key]), `${key}: ${got[key]} vs ${want[key]}`).toBe(true);
  }
}

const statistics: [string, TaskStatistic][] = [
  ["pass@1", macroPassAtK(1)],
  ["pass@2", macroPassAtK(2)],
  ["pass@5", macroPassAtK(5)],
  ["pass^2 unbiased", macroPassHatK(2)],
  ["pass^3 unbiased", macroPassHatK(3)],
  ["pass^2 strict", macroPassHatK(2, "strict")],
  ["pooled", pooledPassRate],
];

// [name, seed, tasks, min runs, max runs, pass probability]
const inputs: [string, number, number, number, number, number][] = [
  ["uniform 3 runs", 11, 8, 3, 3, 0.55],
  ["ragged 0..6 runs", 12, 15, 0, 6, 0.4],
  ["one task", 13, 1, 5, 5, 0.5],
  ["all pass", 14, 6, 1, 4, 1],
  ["all fail", 15, 6, 2, 4, 0],
  ["many tasks, few runs", 16, 60, 1, 3, 0.7],
  ["few tasks, many runs", 17, 3, 20, 40, 0.3],
];

describe("bootstrap fast path equals the reference bit for bit", () => {
  for (const [inputName, seed, tasks, lo, hi, p] of inputs) {
    const data = table(seed, tasks, lo, hi, p);
    it.each(statistics)(`${inputName}: %s`, (_name, stat) => {
      expect(stat.counts).toBeDefined();
      for (const [s, level] of [
        [1, 0.95],
        [seed * 7 + 3, 0.9],
      ] as const) {
        const want = referenceInterval(data, stat, 200, s, level);
        expectIdentical(bootstrapInterval(data, stat, { replicates: 200, seed: s, level }), want);
        // The table-building path (no count form) agrees too.
        const plain: TaskStatistic = (t) => stat(t);
        expectIdentical(bootstrapInterval(data, plain, { replicates: 200, seed: s, level }), want);
      }
    });
  }

  for (const [inputName, seed, tasks, lo, hi, p] of inputs) {
    const a = table(seed, tasks, lo, hi, p);
    const b = table(seed + 100, tasks, lo, hi, 1 - p / 2);
    it.each(statistics)(`paired ${inputName}: %s`, (_name, stat) => {
      const want = referencePaired(a, b, stat, 300, seed, 0.95);
      expectIdentical(
        bootstrapPairedDifference(a, b, stat, { replicates: 300, seed, level: 0.95 }),
        want,
      );
    });
  }

  it("the default 2000 replicates on a report-sized table", () => {
    const data = table(99, 40, 3, 5, 0.6);
    for (const [, stat] of statistics) {
      expectIdentical(bootstrapInterval(data, stat), referenceInterval(data, stat, 2000, 1, 0.95));
    }
  });

  it.each(inputs)(
    "every statistic at once (one pass over the draws): %s",
    (_n, seed, t, lo, hi, p) => {
      const data = table(seed, t, lo, hi, p);
      const stats = [
        ...statistics.map(([, stat]) => stat),
        (x: PerTaskOutcomes) => pooledPassRate(x),
      ];
      const got = bootstrapIntervals(data, stats, { replicates: 200, seed, level: 0.9 });
      expect(got).toHaveLength(stats.length);
      stats.forEach((stat, i) =>
        expectIdentical(got[i] ?? null, referenceInterval(data, stat, 200, seed, 0.9)),
      );
    },
  );

  it("a paired interval asked for again (remembered) is the same, and a changed input is not", () => {
    const a = table(21, 30, 2, 6, 0.5);
    const b = table(22, 30, 2, 6, 0.6);
    const o = { replicates: 300, seed: 5, level: 0.95 };
    const want = referencePaired(a, b, pooledPassRate, 300, 5, 0.95);
    expectIdentical(bootstrapPairedDifference(a, b, pooledPassRate, o), want);
    expectIdentical(bootstrapPairedDifference(a, b, pooledPassRate, o), want);
    const flipped = a.map((runs, i) => (i === 0 ? runs.map((x, r) => (r === 0 ? !x : x)) : runs));
    expectIdentical(
      bootstrapPairedDifference(flipped, b, pooledPassRate, o),
      referencePaired(flipped, b, pooledPassRate, 300, 5, 0.95),
    );
    expectIdentical(
      bootstrapPairedDifference(a, b, pooledPassRate, { ...o, seed: 6 }),
      referencePaired(a, b, pooledPassRate, 300, 6, 0.95),
    );
  });
});
