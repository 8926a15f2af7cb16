/**
 * The bootstrap draws a resampled task's pass count as one Binomial(n, c/n) draw (one uniform
 * inverted through a CDF table) instead of resampling its n runs one by one: the tables must be
 * the exact distribution, the drawn counts must follow it, and intervals must be what resampling
 * the runs gives up to Monte Carlo error.
 */
import { describe, expect, it } from "vitest";
import {
  binomialCdf,
  binomialCount,
  binomialRow,
  bootstrapInterval,
  bootstrapPairedDifference,
  quantileSorted,
} from "../../../src/stats/bootstrap.js";
import { mulberry32 } from "../../../src/stats/prng.js";
import {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
  type TaskStatistic,
} from "../../../src/stats/task-statistics.js";

/** P(X <= k) of Binomial(n, c/n), k = 0..n, in exact rational arithmetic, then to a double. */
function exactCdf(n: number, c: number): number[] {
  const N = BigInt(n);
  const C = BigInt(c);
  // pmf(k) = binom(n, k) c^k (n - c)^(n - k) / n^n
  const den = N ** N;
  const scale = 10n ** 30n;
  const out: number[] = [];
  let binom = 1n;
  let below = 0n;
  for (let k = 0; k <= n; k++) {
    if (k > 0) binom = (binom * BigInt(n - k + 1)) / BigInt(k);
    below += binom * C ** BigInt(k) * (N - C) ** BigInt(n - k);
    out.push(Number((below * scale) / den) / 1e30);
  }
  return out;
}

describe("binomialCdf", () => {
  it.each([
    [1, 0],
    [1, 1],
    [2, 1],
    [3, 1],
    [3, 2],
    [5, 0],
    [5, 5],
    [7, 3],
    [10, 1],
    [10, 9],
    [50, 17],
    [50, 49],
    [200, 3],
    [500, 1],
    [500, 250],
    [500, 499],
  ])("n = %i, c = %i: the exact CDF, non-decreasing, ending in exactly 1", (n, c) => {
    const cdf = binomialCdf(n, c);
    const exact = exactCdf(n, c);
    expect(cdf).toHaveLength(n + 1);
    expect(cdf[n]).toBe(1);
    for (let k = 0; k <= n; k++) {
      const v = cdf[k] as number;
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
      if (k > 0) expect(v).toBeGreaterThanOrEqual(cdf[k - 1] as number);
      expect(Math.abs(v - (exact[k] as number)), `k = ${k}`).toBeLessThan(1e-13);
    }
  });

  it("c = 0 is all ones (the count is 0); c = n is zeros then 1 (the count is n)", () => {
    expect(Array.from(binomialCdf(1, 0))).toEqual([1, 1]);
    expect(Array.from(binomialCdf(4, 0))).toEqual([1, 1, 1, 1, 1]);
    expect(Array.from(binomialCdf(1, 1))).toEqual([0, 1]);
    expect(Array.from(binomialCdf(4, 4))).toEqual([0, 0, 0, 0, 1]);
    expect(Array.from(binomialCdf(0, 0))).toEqual([1]);
  });

  it("n = 500: mean and variance of the tabulated pmf are n·p and n·p·(1 − p)", () => {
    for (const c of [1, 37, 250, 480]) {
      const cdf = binomialCdf(500, c);
      let mean = 0;
      let square = 0;
      for (let k = 0; k <= 500; k++) {
        const pmf = (cdf[k] as number) - (k > 0 ? (cdf[k - 1] as number) : 0);
        mean += k * pmf;
        square += k * k * pmf;
      }
      const p = c / 500;
      expect(mean).toBeCloseTo(500 * p, 9);
      expect(square - mean * mean).toBeCloseTo(500 * p * (1 - p), 7);
    }
  });

  it.each([
    [-1, 0],
    [3, 4],
    [3, -1],
    [2.5, 1],
  ])("n = %d, c = %d throws", (n, c) => {
    expect(() => binomialCdf(n, c)).toThrow(RangeError);
  });
});

describe("binomialCount", () => {
  it("is the least k with u < CDF(k)", () => {
    const row = binomialRow(3, 1); // CDF 8/27, 20/27, 26/27, 1, then its guide
    expect(Array.from(row.subarray(4))).toEqual([0, 0, 1, 2]);
    const cdf = binomialCdf(3, 1);
    expect(binomialCount(row, 0, 3, 0)).toBe(0);
    expect(binomialCount(row, 0, 3, 8 / 27 - 1e-9)).toBe(0);
    expect(binomialCount(row, 0, 3, cdf[0] as number)).toBe(1);
    expect(binomialCount(row, 0, 3, 0.5)).toBe(1);
    expect(binomialCount(row, 0, 3, cdf[1] as number)).toBe(2);
    expect(binomialCount(row, 0, 3, 0.99)).toBe(3);
    expect(binomialCount(row, 0, 3, 1 - 2 ** -32)).toBe(3);
  });

  it("reads its row at an offset; constant rows give their constant count", () => {
    const rows = new Float64Array([
      ...binomialRow(2, 0),
      ...binomialRow(4, 4),
      ...binomialRow(1, 1),
    ]);
    // binomialRow(2, 0) is 3 + 4 entries long, binomialRow(4, 4) 5 + 8
    for (const u of [0, 0.3, 0.75, 1 - 2 ** -32]) {
      expect(binomialCount(rows, 0, 2, u)).toBe(0);
      expect(binomialCount(rows, 7, 4, u)).toBe(4);
      expect(binomialCount(rows, 20, 1, u)).toBe(1);
    }
  });

  it.each([
    [1, 0],
    [2, 1],
    [7, 3],
    [31, 30],
    [32, 5],
    [63, 40],
    [64, 1],
    [500, 250],
  ])(
    "n = %i, c = %i: the guided search equals a linear search, at and around every CDF step and guide cell",
    (n, c) => {
      const row = binomialRow(n, c);
      const cdf = binomialCdf(n, c);
      const linear = (u: number): number => {
        let k = 0;
        while (!(u < (cdf[k] as number))) k++;
        return k;
      };
      const size = row.length - (n + 1);
      const us = [0, 1 - 2 ** -32];
      for (const v of cdf) if (v < 1) us.push(v, Math.max(0, v - 2 ** -32), v + 2 ** -32);
      for (let g = 0; g < size; g++) us.push(g / size, Math.max(0, g / size - 2 ** -32));
      const rng = mulberry32(n * 1000 + c);
      for (let i = 0; i < 2000; i++) us.push(rng());
      for (const u of us)
        if (u < 1) expect(binomialCount(row, 0, n, u), `u = ${u}`).toBe(linear(u));
    },
  );
});

/**
 * The pass counts the bootstrap draws for a one-task table (n runs, c passed), read through a
 * statistic without a count form (the table-building path, which draws as the fast path does).
 */
function drawnCounts(n: number, c: number, replicates: number, seed: number): number[] {
  const runs = Array.from({ length: n }, (_, r) => r < c);
  const counts: number[] = [];
  let ordered = true;
  const record: TaskStatistic = (table) => {
    const task = table[0] ?? [];
    const drawn = task.filter(Boolean).length;
    // the resampled task is its passes, then its failures
    ordered &&= task.length === n && task.every((x, r) => x === r < drawn);
    counts.push(drawn);
    return drawn;
  };
  bootstrapInterval([runs], record, { replicates, seed });
  expect(ordered).toBe(true);
  // the first call is the estimate on the observed data
  return counts.slice(1);
}

describe("the drawn pass counts follow Binomial(n, c/n)", () => {
  it.each([
    [1, 0],
    [1, 1],
    [3, 1],
    [5, 4],
    [10, 3],
    [50, 20],
  ])("n = %i, c = %i: mean, variance and a chi-square test over 20000 draws", (n, c) => {
    const B = 20000;
    const counts = drawnCounts(n, c, B, 7);
    expect(counts).toHaveLength(B);
    const p = c / n;
    const mean = counts.reduce((s, x) => s + x, 0) / B;
    const variance = counts.reduce((s, x) => s + (x - mean) ** 2, 0) / (B - 1);
    const sd = Math.sqrt(n * p * (1 - p));
    // 4 standard errors of the mean; the variance within 5% (exactly 0 for c = 0 or n)
    expect(Math.abs(mean - n * p)).toBeLessThanOrEqual((4 * sd) / Math.sqrt(B) + 1e-12);
    expect(Math.abs(variance - sd * sd)).toBeLessThanOrEqual(0.05 * sd * sd + 1e-12);
    if (c === 0 || c === n) {
      expect(new Set(counts)).toEqual(new Set([c]));
      return;
    }
    // Pearson's chi-square over the counts with expected frequency >= 5 (the rest pooled)
    const exact = exactCdf(n, c);
    const observed = new Array<number>(n + 1).fill(0);
    for (const x of counts) observed[x] = (observed[x] ?? 0) + 1;
    let chi = 0;
    let cells = 0;
    let pooledObserved = 0;
    let pooledExpected = 0;
    for (let k = 0; k <= n; k++) {
      const expected = B * ((exact[k] as number) - (k > 0 ? (exact[k - 1] as number) : 0));
      if (expected < 5) {
        pooledObserved += observed[k] as number;
        pooledExpected += expected;
        continue;
      }
      chi += ((observed[k] as number) - expected) ** 2 / expected;
      cells++;
    }
    if (pooledExpected > 0) {
      chi += (pooledObserved - pooledExpected) ** 2 / pooledExpected;
      cells++;
    }
    // well above the 99.9% point of chi-square with cells − 1 degrees of freedom (Wilson–Hilferty)
    const df = cells - 1;
    const limit = df * (1 - 2 / (9 * df) + 3.09 * Math.sqrt(2 / (9 * df))) ** 3;
    expect(chi).toBeLessThan(limit);
  });
});

/** The method before: resample each drawn task's n runs one by one, with replacement. */
function perRunInterval(
  perTask: PerTaskOutcomes,
  stat: TaskStatistic,
  replicates: number,
  seed: number,
): { low: number; high: number } {
  const rng = mulberry32(seed);
  const values: number[] = [];
  for (let b = 0; b < replicates; b++) {
    const sample = Array.from({ length: perTask.length }, () => {
      const runs = perTask[Math.floor(rng() * perTask.length)] ?? [];
      return runs.map(() => runs[Math.floor(rng() * runs.length)] ?? false);
    });
    const v = stat(sample);
    if (v !== null) values.push(v);
  }
  values.sort((x, y) => x - y);
  return { low: quantileSorted(values, 0.025), high: quantileSorted(values, 0.975) };
}

/** `tasks` tasks of `runs` runs; task i passes with its own probability around p. */
function known(seed: number, tasks: number, runs: number, p: number): PerTaskOutcomes {
  const rng = mulberry32(seed);
  return Array.from({ length: tasks }, () => {
    const q = Math.min(1, Math.max(0, p + (rng() - 0.5) * 0.6));
    return Array.from({ length: runs }, () => rng() < q);
  });
}

describe("intervals: as resampling the runs gives, up to Monte Carlo error", () => {
  const data = known(3, 100, 5, 0.6);
  it.each<[string, TaskStatistic]>([
    ["pooled pass rate", pooledPassRate],
    ["pass@1", macroPassAtK(1)],
    ["pass@3", macroPassAtK(3)],
    ["pass^2 unbiased", macroPassHatK(2)],
  ])("%s on 100 tasks × 5 runs: both endpoints within 0.02", (_name, stat) => {
    const got = bootstrapInterval(data, stat);
    const before = perRunInterval(data, stat, 2000, 1);
    expect(got).not.toBeNull();
    expect(Math.abs((got?.low ?? 0) - before.low)).toBeLessThan(0.02);
    expect(Math.abs((got?.high ?? 0) - before.high)).toBeLessThan(0.02);
  });

  it("the pooled interval on a known p = 0.6 covers it", () => {
    const got = bootstrapInterval(known(4, 100, 5, 0.6), pooledPassRate);
    expect(got?.low).toBeLessThan(0.6);
    expect(got?.high).toBeGreaterThan(0.6);
  });

  it("docs/statistics.md §4's worked example (seed 1, B = 2000)", () => {
    const T = true;
    const F = false;
    const mixed: PerTaskOutcomes = [
      [T, T, F],
      [T, F, F],
      [T, T, T],
      [F, F, F],
      [T, T, F],
      [T, F, T],
    ];
    const withSkill = [3, 2, 3, 1, 3, 3].map((c) => [0, 1, 2].map((r) => r < c));
    const shown = (r: { estimate: number; low: number; high: number } | null): string[] =>
      r ? [r.estimate, r.low, r.high].map((x) => x.toFixed(3)) : [];
    expect(shown(bootstrapInterval(mixed, macroPassAtK(1)))).toEqual(["0.556", "0.222", "0.833"]);
    expect(shown(bootstrapInterval(mixed, macroPassHatK(2)))).toEqual(["0.333", "0.056", "0.778"]);
    expect(shown(bootstrapPairedDifference(withSkill, mixed, pooledPassRate))).toEqual([
      "0.278",
      "0.056",
      "0.556",
    ]);
  });

  it("the same seed gives the same interval, to the bit; another seed another", () => {
    const o = { seed: 17, replicates: 500 };
    expect(bootstrapInterval(data, macroPassAtK(2), o)).toStrictEqual(
      bootstrapInterval(data, macroPassAtK(2), o),
    );
    const b = known(5, 100, 5, 0.5);
    const once = bootstrapPairedDifference(data, b, (t) => pooledPassRate(t), o);
    expect(bootstrapPairedDifference(data, b, (t) => pooledPassRate(t), o)).toStrictEqual(once);
    expect(bootstrapInterval(data, macroPassAtK(2), { ...o, seed: 18 })).not.toStrictEqual(
      bootstrapInterval(data, macroPassAtK(2), o),
    );
  });
});
