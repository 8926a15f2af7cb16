import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { verbosityRows } from "../../../src/report/judge-verbosity.js";
import { pearson } from "../../../src/stats/correlation.js";
import { makeJudgeBlock, makeReport } from "../report/helpers.js";

describe("pearson", () => {
  it.each<[string, number[], number[], number | null]>([
    ["perfect positive", [1, 2, 3], [2, 4, 6], 1],
    ["perfect negative", [1, 2, 3], [3, 2, 1], -1],
    // x̄ = 2.5, ȳ = 2.5; Σdxdy = 1.5·0.5 + 0.5·(−0.5)·(−1)… by hand: dx = (−1.5, −.5, .5, 1.5),
    // dy = (−.5, −1.5, 1.5, .5): Σdxdy = .75 + .75 + .75 + .75 = 3; Σdx² = Σdy² = 5 → r = 0.6
    ["hand-computed 0.6", [1, 2, 3, 4], [2, 1, 4, 3], 0.6],
    ["no spread in y", [1, 2, 3], [0.5, 0.5, 0.5], null],
    ["one point", [1], [1], null],
  ])("%s", (_n, xs, ys, r) => {
    const got = pearson(xs, ys);
    if (r === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(r, 12);
  });
});

function run(treatment: string, rep: number, chars: number, score: number): RunReport {
  return {
    ...makeReport({ treatment, rep }),
    judge: { ...makeJudgeBlock({ task_completion: score }), answer_chars: chars },
  };
}

describe("verbosityRows", () => {
  it.each<[string, RunReport[], [string, number, number | null, boolean][]]>([
    [
      "score rises with length: flagged",
      [run("A", 1, 100, 0.4), run("A", 2, 500, 0.7), run("A", 3, 900, 1)],
      [["A", 3, 1, true]],
    ],
    [
      "two runs only: r is ±1 but not flagged",
      [run("A", 1, 100, 0.4), run("A", 2, 500, 0.7)],
      [["A", 2, 1, false]],
    ],
    [
      "longer scores lower: not flagged",
      [run("A", 1, 100, 1), run("A", 2, 500, 0.7), run("A", 3, 900, 0.4)],
      [["A", 3, -1, false]],
    ],
    [
      "ties are ties: equal scores, no correlation",
      [run("A", 1, 100, 1), run("A", 2, 500, 1), run("A", 3, 900, 1)],
      [["A", 3, null, false]],
    ],
    ["no recorded length (older reports): no row", [makeReport({ treatment: "A" })], []],
  ])("%s", (_n, reports, want) => {
    const rows = verbosityRows(reports, ["A"]).map((r) => [
      r.treatment,
      r.runs,
      r.r === null ? null : Math.round(r.r * 1e9) / 1e9,
      r.flagged,
    ]);
    expect(rows).toEqual(want);
  });
});
