import { describe, expect, it } from "vitest";
import type { Preference } from "../../../src/core/pairwise.js";
import { reducePair, summarizePairs } from "../../../src/stats/pairwise.js";

describe("reducePair (first: candidate is A; second: baseline is A)", () => {
  it.each<[string, Preference, Preference, string, boolean]>([
    ["agree: candidate both times", "A", "B", "candidate", false],
    ["agree: baseline both times", "B", "A", "baseline", false],
    ["agree: tie both times", "tie", "tie", "tie", false],
    ["disagree: always the first position", "A", "A", "tie", true],
    ["disagree: always the second position", "B", "B", "tie", true],
    ["disagree: a preference and a tie", "A", "tie", "tie", true],
    ["disagree: a tie and a preference", "tie", "A", "tie", true],
  ])("%s", (_n, first, second, outcome, disagree) => {
    expect(reducePair(first, second)).toEqual({ outcome, disagree });
  });
});

describe("summarizePairs", () => {
  it("a first-position judge: all ties, position bias 1, no win rate", () => {
    const s = summarizePairs(["t1", "t1", "t2"].map((task) => ({ task, ...reducePair("A", "A") })));
    expect(s).toMatchObject({ pairs: 3, wins: 0, losses: 0, ties: 3, disagreements: 3 });
    expect(s.position_bias).toBe(1);
    expect(s.win_rate).toBeNull();
    expect(s.win_rate_ci).toBeNull();
    expect(s.sign_test).toEqual({ tasks_better: 0, tasks_worse: 0, tasks_even: 2, p: null });
  });

  it("wins, losses and ties; win rate over decisive pairs with its Wilson interval; sign test over tasks", () => {
    const pairs = [
      { task: "a", outcome: "candidate", disagree: false },
      { task: "a", outcome: "candidate", disagree: false },
      { task: "b", outcome: "candidate", disagree: false },
      { task: "b", outcome: "baseline", disagree: false },
      { task: "c", outcome: "candidate", disagree: false },
      { task: "d", outcome: "tie", disagree: true },
    ] as const;
    const s = summarizePairs(pairs);
    expect(s).toMatchObject({ pairs: 6, wins: 4, losses: 1, ties: 1, disagreements: 1 });
    expect(s.position_bias).toBeCloseTo(1 / 6, 12);
    expect(s.win_rate).toBeCloseTo(0.8, 12);
    // Wilson 4/5, z = 1.96: centre (0.8 + 0.38416) / 1.76832 = 0.66958…, half 0.30413… → [0.3755, 0.9638]
    expect(s.win_rate_ci?.low).toBeCloseTo(0.3755, 3);
    expect(s.win_rate_ci?.high).toBeCloseTo(0.9638, 3);
    // a: +2, b: 0, c: +1, d: 0 → 2 better, 0 worse: two-sided p = 2 · 0.5² = 0.5
    expect(s.sign_test).toEqual({ tasks_better: 2, tasks_worse: 0, tasks_even: 2, p: 0.5 });
  });
});
