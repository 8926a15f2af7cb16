/**
 * The sequential rule of `run --until-decided` (src/stats/sequential.ts): its pieces against
 * known values, and by simulation that looking after every round does not inflate false claims
 * (10,000 A/A experiments with heterogeneous tasks claim a difference at most α of the time)
 * while a true effect of 0.3 is found in most experiments.
 */
import { describe, expect, it } from "vitest";
import { normalUpperTail } from "../../../src/stats/normal.js";
import { mulberry32 } from "../../../src/stats/prng.js";
import {
  alphaSpent,
  intervalBand,
  lookAlpha,
  sequentialInterval,
  sequentialStops,
  type Band,
  type Spending,
} from "../../../src/stats/sequential.js";
import { tCritical } from "../../../src/stats/student-t.js";

describe("normal upper tail", () => {
  it.each([
    [0, 0.5],
    [1.959963984540054, 0.025],
    [-1.959963984540054, 0.975],
    [3.090232306167813, 0.001],
    [5, 2.866515718791939e-7],
  ])("P(Z > %d) = %d", (x, p) => {
    expect(Math.abs(normalUpperTail(x) - p) / p).toBeLessThan(2e-7);
  });
});

describe("Student's t critical values (two-sided)", () => {
  it.each([
    [0.05, 1, 12.7062047],
    [0.05, 2, 4.30265273],
    [0.05, 5, 2.57058184],
    [0.05, 10, 2.22813885],
    [0.01, 3, 5.84090931],
    [0.001, 30, 3.64596],
  ])("alpha %d, df %d → %d", (alpha, df, t) => {
    expect(tCritical(alpha, df)).toBeCloseTo(t, 4);
  });
  it("refuses a df that is not a positive whole number", () => {
    expect(() => tCritical(0.05, 0)).toThrow(RangeError);
    expect(() => tCritical(0.05, 2.5)).toThrow(RangeError);
  });
});

describe("alpha spending", () => {
  it.each<[Spending, number, number]>([
    ["obrien_fleming", 0.25, 0.0000886],
    ["obrien_fleming", 0.5, 0.005575],
    ["obrien_fleming", 0.75, 0.023625],
    ["obrien_fleming", 1, 0.05],
    ["pocock", 0.5, 0.05 * Math.log(1 + (Math.E - 1) / 2)],
    ["pocock", 1, 0.05],
    ["pocock", 0, 0],
  ])("%s at t = %d spends %d", (s, t, want) => {
    expect(alphaSpent(t, 0.05, s)).toBeCloseTo(want, 5);
  });
  it("the looks' levels add up to α at most, however the looks fall", () => {
    for (const fractions of [
      [0.1, 0.2, 0.5, 1],
      [1 / 3, 2 / 3, 1],
      [0.5, 0.6],
    ]) {
      let prev = 0;
      let sum = 0;
      for (const t of fractions) {
        sum += lookAlpha(t, prev, 0.05, "obrien_fleming");
        prev = t;
      }
      expect(sum).toBeLessThanOrEqual(0.05 + 1e-12);
    }
  });
});

describe("interval band", () => {
  it.each<[number, number, Band]>([
    [0.01, 0.4, "improved"],
    [-0.4, -0.01, "regressed"],
    [-0.04, 0.3, "non_inferior"],
    [-0.05, 0.3, "inconclusive"],
    [-0.2, 0.2, "inconclusive"],
  ])("[%d, %d] → %s (margin 0.05)", (low, high, band) => {
    expect(intervalBand(low, high, 0.05)).toBe(band);
  });
});

describe("sequential interval", () => {
  it("is the hull of Newcombe's interval and the task-clustered one", () => {
    // 2 tasks × 10 runs per arm: a 9/10, 5/10; b 5/10, 5/10 → Δ = 14/20 − 10/20 = 0.2.
    const iv = sequentialInterval({ n: [10, 10], c: [9, 5] }, { n: [10, 10], c: [5, 5] }, 0.05);
    expect(iv?.delta).toBeCloseTo(0.2, 12);
    expect(iv?.tasks).toBe(2);
    // u = ((9 − 7) − (5 − 5))/20 = 0.1 and −0.1; V = 2 · 0.02 = 0.04; t(1) = 12.706 → ±2.54,
    // clipped to [−1, 1].
    expect(iv?.low).toBe(-1);
    expect(iv?.high).toBe(1);
  });
  it("with one task it is Newcombe's interval", () => {
    const iv = sequentialInterval({ n: [20], c: [16] }, { n: [20], c: [8] }, 0.05);
    expect(iv?.delta).toBeCloseTo(0.4, 12);
    expect(iv?.low).toBeCloseTo(0.0964, 3);
    expect(iv?.high).toBeCloseTo(0.6169, 3);
  });
  it("leaves out tasks one arm did not run, and is null with none in common", () => {
    const iv = sequentialInterval({ n: [4, 0], c: [4, 0] }, { n: [4, 4], c: [0, 4] }, 0.05);
    expect(iv?.tasks).toBe(1);
    expect(iv?.delta).toBe(1);
    expect(sequentialInterval({ n: [4, 0], c: [1, 0] }, { n: [0, 4], c: [0, 1] }, 0.05)).toBe(null);
  });
  it("a look with (almost) nothing to spend claims nothing", () => {
    const iv = sequentialInterval({ n: [50, 50], c: [50, 50] }, { n: [50, 50], c: [0, 0] }, 0);
    expect(iv).toMatchObject({ low: -1, high: 1 });
  });
});

interface Design {
  tasks: number;
  /** repetitions per task and arm added each round */
  round: number;
  maxCount: number;
}

/**
 * Simulate `experiments` sequential experiments: every task has its own pass rate (heterogeneous:
 * 20% always pass, 10% never, the rest uniform in (0.05, 0.95)); the candidate's rate is the
 * baseline's + effect (capped at 1). After each round the rule looks; it stops when
 * `sequentialStops` says so, or at maxCount. Typed arrays and one seeded PRNG: a few ms per 1,000.
 */
function simulate(
  d: Design,
  effect: number,
  experiments: number,
  seed: number,
  levels: (t: number, previous: number) => number,
): Record<Band, number> & { looks: number } {
  const rng = mulberry32(seed);
  const pa = new Float64Array(d.tasks);
  const pb = new Float64Array(d.tasks);
  const a = { n: new Int32Array(d.tasks), c: new Int32Array(d.tasks) };
  const b = { n: new Int32Array(d.tasks), c: new Int32Array(d.tasks) };
  const out = { improved: 0, regressed: 0, non_inferior: 0, inconclusive: 0, looks: 0 };
  for (let e = 0; e < experiments; e++) {
    for (let i = 0; i < d.tasks; i++) {
      const u = rng();
      const base = effect > 0 ? 0.1 + 0.5 * rng() : u < 0.2 ? 1 : u < 0.3 ? 0 : 0.05 + 0.9 * rng();
      pb[i] = base;
      pa[i] = Math.min(1, base + effect);
    }
    a.n.fill(0);
    a.c.fill(0);
    b.n.fill(0);
    b.c.fill(0);
    let previous = 0;
    for (let count = d.round; ; count += d.round) {
      const reps = Math.min(count, d.maxCount);
      for (let i = 0; i < d.tasks; i++) {
        for (let r = a.n[i] ?? 0; r < reps; r++) {
          if (rng() < (pa[i] ?? 0)) (a.c[i] as number)++;
          if (rng() < (pb[i] ?? 0)) (b.c[i] as number)++;
        }
        a.n[i] = reps;
        b.n[i] = reps;
      }
      const t = reps / d.maxCount;
      const iv = sequentialInterval(a, b, levels(t, previous));
      previous = t;
      out.looks++;
      const band = iv ? intervalBand(iv.low, iv.high, 0.05) : "inconclusive";
      if ((iv && sequentialStops(band, iv.high, 0.05)) || reps >= d.maxCount) {
        out[band]++;
        break;
      }
    }
  }
  return out;
}

const spend =
  (s: Spending) =>
  (t: number, previous: number): number =>
    lookAlpha(t, previous, 0.05, s);

describe("by simulation: 10,000 experiments per row", () => {
  const N = 10_000;
  it.each<[string, Design, Spending]>([
    ["8 tasks, rounds of 2, up to 10 reps", { tasks: 8, round: 2, maxCount: 10 }, "obrien_fleming"],
    ["3 tasks, rounds of 1, up to 10 reps", { tasks: 3, round: 1, maxCount: 10 }, "obrien_fleming"],
    ["20 tasks, rounds of 1, up to 6 reps", { tasks: 20, round: 1, maxCount: 6 }, "pocock"],
  ])("A/A, %s: a difference is claimed at most α = 0.05 of the time", (_n, d, s) => {
    const r = simulate(d, 0, N, 11, spend(s));
    expect(r.improved + r.regressed + r.non_inferior + r.inconclusive).toBe(N);
    expect((r.improved + r.regressed) / N).toBeLessThanOrEqual(0.05);
  });

  it("an effect of 0.3 is found (improved) in most experiments, often before the last round", () => {
    const d = { tasks: 8, round: 2, maxCount: 10 };
    const r = simulate(d, 0.3, N, 12, spend("obrien_fleming"));
    expect(r.improved / N).toBeGreaterThan(0.8);
    expect(r.regressed).toBe(0);
    // stopping early: fewer looks than 5 per experiment on average
    expect(r.looks / N).toBeLessThan(5);
  });

  it("peeking without spending (α = 0.05 at every look) claims more often than the rule", () => {
    const d = { tasks: 3, round: 1, maxCount: 10 };
    const naive = simulate(d, 0, N, 13, () => 0.05);
    const ruled = simulate(d, 0, N, 13, spend("obrien_fleming"));
    const claims = (r: Record<Band, number>): number => (r.improved + r.regressed) / N;
    expect(claims(naive)).toBeGreaterThan(2 * claims(ruled));
  });
});
