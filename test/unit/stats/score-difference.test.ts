import { describe, expect, it } from "vitest";
import {
  holm,
  regressionP,
  scoreDifference,
  scoreInterval,
} from "../../../src/stats/score-difference.js";

describe("holm", () => {
  it.each([
    // smallest p against α/3, then α/2, then α: step-down stops at the first that fails
    { ps: [0.01, 0.02, 0.03], rejected: [true, true, true], alphas: [0.05 / 3, 0.025, 0.05] },
    { ps: [0.03, 0.01, 0.02], rejected: [true, true, true], alphas: [0.05, 0.05 / 3, 0.025] },
    { ps: [0.01, 0.04, 0.03], rejected: [true, false, false], alphas: [0.05 / 3, 0.05, 0.025] },
    { ps: [0.02, 0.001], rejected: [true, true], alphas: [0.05, 0.025] },
    { ps: [0.03, 0.03], rejected: [false, false], alphas: [0.025, 0.05] },
    { ps: [], rejected: [], alphas: [] },
  ])("$ps", ({ ps, rejected, alphas }) => {
    const out = holm(ps, 0.05);
    expect(out.map((x) => x.rejected)).toEqual(rejected);
    out.forEach((x, i) => expect(x.alpha).toBeCloseTo(alphas[i] ?? 0, 12));
  });
});

describe("scoreDifference / scoreInterval / regressionP", () => {
  it("one task, 3 runs against 3, one hung run: −0.33 is not resolved", () => {
    const d = scoreDifference([[1, 1, 0]], [[1, 1, 1]]);
    expect(d?.delta).toBeCloseTo(-1 / 3, 12);
    expect(d?.tasks).toBe(1);
    if (!d) return;
    const iv = scoreInterval(d, 0.05);
    expect(iv.high).toBeGreaterThan(0);
    expect(regressionP(d, 0.05)).toBeGreaterThan(0.05);
  });

  it("no spread observed is not certainty: 2 × 0.5 against 2 × 1.0 (Newcombe's keeps it wide)", () => {
    const d = scoreDifference([[0.5, 0.5]], [[1, 1]]);
    if (!d) throw new Error("no difference");
    const iv = scoreInterval(d, 0.05);
    expect(iv.low).toBeCloseTo(-0.905, 3);
    expect(iv.high).toBeGreaterThan(0.2);
    // the t intervals alone would be the point −0.50 (both arms constant)
    expect(d.errors.every((e) => e.se === 0)).toBe(true);
  });

  it("a clear regression over tasks is resolved; the interval at α = p touches −margin", () => {
    const a = [
      [0, 0, 0],
      [0, 0.1, 0],
      [0.2, 0, 0],
      [0, 0, 0],
    ];
    const b = [
      [1, 1, 0.9],
      [1, 1, 1],
      [0.8, 1, 1],
      [1, 1, 1],
    ];
    const d = scoreDifference(a, b);
    if (!d) throw new Error("no difference");
    expect(d.errors.map((e) => e.df)).toEqual([3, expect.any(Number)]);
    const p = regressionP(d, 0.05);
    expect(p).toBeLessThan(0.001);
    expect(scoreInterval(d, p).high).toBeCloseTo(-0.05, 6);
  });

  it("no task scored by both arms: null", () => {
    expect(scoreDifference([[1], []], [[], [1]])).toBeNull();
  });
});
