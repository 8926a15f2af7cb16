import { describe, expect, it } from "vitest";
import {
  bootstrapInterval,
  bootstrapPairedDifference,
  quantileSorted,
} from "../../../src/stats/bootstrap.js";
import { discordantPairs, taskSignCounts } from "../../../src/stats/paired.js";
import { mulberry32, mulberry32Blocks } from "../../../src/stats/prng.js";
import {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
} from "../../../src/stats/task-statistics.js";

const T = true;
const F = false;

// 6 tasks x 3 runs, 10/18 passes.
const mixed: PerTaskOutcomes = [
  [T, T, F],
  [T, F, F],
  [T, T, T],
  [F, F, F],
  [T, T, F],
  [T, F, T],
];

describe("task statistics", () => {
  it.each<[string, (p: PerTaskOutcomes) => number | null, PerTaskOutcomes, number | null]>([
    [
      "pass@1 macro",
      macroPassAtK(1),
      [
        [T, T, F],
        [F, F],
      ],
      (2 / 3 + 0) / 2,
    ],
    ["pass@2 macro skips tasks with < 2 runs", macroPassAtK(2), [[T, T, F], [T]], 1],
    ["pass@3 macro: no task has 3 runs", macroPassAtK(3), [[T, F], [T]], null],
    [
      "pass^2 unbiased",
      macroPassHatK(2),
      [
        [T, T, F],
        [T, T],
      ],
      (1 / 3 + 1) / 2,
    ],
    [
      "pass^2 strict",
      macroPassHatK(2, "strict"),
      [
        [T, T, F],
        [T, T],
      ],
      0.5,
    ],
    ["pooled pass rate", pooledPassRate, [[T, T, F], [T]], 0.75],
    ["pooled pass rate, no runs", pooledPassRate, [[], []], null],
  ])("%s", (_name, stat, data, expected) => {
    const v = stat(data);
    if (expected === null) expect(v).toBeNull();
    else expect(v).toBeCloseTo(expected, 12);
  });
});

describe("quantileSorted (type 7)", () => {
  it.each([
    [[1, 2, 3, 4], 0, 1],
    [[1, 2, 3, 4], 1, 4],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[1, 2, 3, 4], 0.25, 1.75],
    [[7], 0.975, 7],
  ])("%j q=%f -> %f", (xs, q, v) => expect(quantileSorted(xs, q)).toBeCloseTo(v, 12));
});

describe("mulberry32", () => {
  it("is deterministic per seed and in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });

  it("mulberry32Blocks gives the same sequence, a block at a time", () => {
    const one = mulberry32(42);
    const blocks = mulberry32Blocks(42);
    for (const size of [1, 7, 0, 300, 2]) {
      const out = new Float64Array(size);
      blocks.fill(out);
      expect(Array.from(out)).toEqual(Array.from({ length: size }, () => one()));
    }
  });
});

describe("bootstrapInterval", () => {
  it("is reproducible with a seed and changes with another seed", () => {
    const r1 = bootstrapInterval(mixed, macroPassAtK(1), { seed: 7, replicates: 500 });
    const r2 = bootstrapInterval(mixed, macroPassAtK(1), { seed: 7, replicates: 500 });
    const r3 = bootstrapInterval(mixed, macroPassAtK(1), { seed: 8, replicates: 500 });
    expect(r1).toEqual(r2);
    expect(r3).not.toEqual(r1);
  });

  it.each<[string, (p: PerTaskOutcomes) => number | null]>([
    ["pass@1", macroPassAtK(1)],
    ["pass@2", macroPassAtK(2)],
    ["pass^2 unbiased", macroPassHatK(2)],
    ["pass^3 strict", macroPassHatK(3, "strict")],
    ["pooled", pooledPassRate],
  ])("%s: the interval contains the point estimate and lies in [0, 1]", (_n, stat) => {
    const r = bootstrapInterval(mixed, stat);
    expect(r).not.toBeNull();
    if (!r) return;
    expect(r.estimate).toBeCloseTo(stat(mixed) ?? -1, 12);
    expect(r.low).toBeLessThanOrEqual(r.estimate);
    expect(r.high).toBeGreaterThanOrEqual(r.estimate);
    expect(r.low).toBeGreaterThanOrEqual(0);
    expect(r.high).toBeLessThanOrEqual(1);
    expect(r.low).toBeLessThan(r.high);
    expect(r.replicates).toBe(2000);
    expect(r.valid_replicates).toBe(2000);
    expect(r.level).toBe(0.95);
    expect(r.seed).toBe(1);
  });

  it("all-pass data has a degenerate interval at 1", () => {
    const r = bootstrapInterval(
      [
        [T, T],
        [T, T, T],
      ],
      pooledPassRate,
      { replicates: 200 },
    );
    expect(r).toMatchObject({ estimate: 1, low: 1, high: 1 });
  });

  it("a higher level gives a wider interval", () => {
    const r90 = bootstrapInterval(mixed, pooledPassRate, { level: 0.9 });
    const r99 = bootstrapInterval(mixed, pooledPassRate, { level: 0.99 });
    expect((r99?.high ?? 0) - (r99?.low ?? 0)).toBeGreaterThan((r90?.high ?? 0) - (r90?.low ?? 0));
  });

  it.each<[string, PerTaskOutcomes]>([
    ["no tasks", []],
    ["statistic undefined on the data (k > runs)", [[T], [F]]],
  ])("%s -> null", (_n, data) => {
    expect(bootstrapInterval(data, macroPassAtK(2))).toBeNull();
  });

  it.each([{ replicates: 0 }, { replicates: 1.5 }, { level: 1 }, { seed: 0.5 }])(
    "bad options %j throw",
    (o) => {
      expect(() => bootstrapInterval(mixed, pooledPassRate, o)).toThrow(RangeError);
    },
  );
});

describe("bootstrapPairedDifference", () => {
  const better: PerTaskOutcomes = Array.from({ length: 12 }, () => [T, T, T, T]);
  const worse: PerTaskOutcomes = Array.from({ length: 12 }, (_v, i) =>
    i % 3 === 0 ? [T, F, F, F] : [F, F, F, F],
  );

  it("a large, consistent difference excludes 0", () => {
    const r = bootstrapPairedDifference(better, worse, pooledPassRate);
    expect(r?.estimate).toBeCloseTo(1 - 4 / 48, 12);
    expect(r?.low).toBeGreaterThan(0);
  });

  it("identical arms give an interval around 0 (estimate 0, contains 0)", () => {
    const r = bootstrapPairedDifference(mixed, mixed, macroPassAtK(1), { seed: 3 });
    expect(r?.estimate).toBe(0);
    expect(r?.low).toBeLessThanOrEqual(0);
    expect(r?.high).toBeGreaterThanOrEqual(0);
  });

  it("is reproducible", () => {
    const a = bootstrapPairedDifference(mixed, worse.slice(0, 6), macroPassHatK(2), {
      seed: 11,
      replicates: 300,
    });
    const b = bootstrapPairedDifference(mixed, worse.slice(0, 6), macroPassHatK(2), {
      seed: 11,
      replicates: 300,
    });
    expect(a).toEqual(b);
  });

  it("different task counts throw", () => {
    expect(() => bootstrapPairedDifference(mixed, [[T]], pooledPassRate)).toThrow(RangeError);
  });
});

describe("paired counts", () => {
  it("discordantPairs pairs run r with run r, up to the shorter arm", () => {
    const a: PerTaskOutcomes = [
      [T, T, F],
      [F, T],
    ];
    const b: PerTaskOutcomes = [
      [T, F],
      [F, F, T],
    ];
    expect(discordantPairs(a, b)).toEqual({
      pairs: 4,
      both_pass: 1,
      a_only: 2,
      b_only: 0,
      both_fail: 1,
    });
  });

  it("taskSignCounts compares pass rates exactly", () => {
    const a: PerTaskOutcomes = [[T, F], [T, T], [F], [T, F, F], []];
    const b: PerTaskOutcomes = [[T, F, T, F], [T, F], [T], [F, F], [T]];
    expect(taskSignCounts(a, b)).toEqual({ pos: 2, neg: 1, ties: 1, skipped: 1 });
  });

  it.each([discordantPairs, taskSignCounts])("%o throws on different task counts", (f) => {
    expect(() => f([[T]], [])).toThrow(RangeError);
  });
});
