import { describe, expect, it } from "vitest";
import { costOfAnswer, costOfAnswerLines } from "../../../src/report/comparison/cost.js";
import { usd } from "../../../src/report/format.js";
import { makeJudgeBlock, makeReport, type RunSpec } from "./helpers.js";

const roles = { candidate: "WITH_SKILL", baseline: "CONTROL", control: "CONTROL" };

function runs(treatment: string, specs: RunSpec[]) {
  return specs.map((s, i) => makeReport({ treatment, rep: i + 1, ...s }));
}

describe("costOfAnswer", () => {
  it("equal arms: Δcost ÷ Δpasses", () => {
    const c = costOfAnswer(
      [
        ...runs("CONTROL", [
          { passed: true, cost: 0.01 },
          { passed: false, cost: 0.01 },
        ]),
        ...runs("WITH_SKILL", [
          { passed: true, cost: 0.03 },
          { passed: true, cost: 0.03 },
        ]),
      ],
      roles,
    );
    // (0.06 − 0.02) / (2 − 1) passes
    expect(c.per_extra_pass_usd).toBeCloseTo(0.04);
    expect(c.na).toBeNull();
    expect(c.experiment_usd).toBeCloseTo(0.08);
    expect(c.experiment_tokens).toBe(4000);
  });

  it.each([
    [
      "the candidate passes no more often",
      [{ passed: true }, { passed: true }],
      [{ passed: true }, { passed: true }],
      /passes no more often than the baseline \(Δ pass rate 0\.00\): there is no extra passed run to pay for/,
    ],
    [
      "the candidate passes less often",
      [{ passed: true }],
      [{ passed: false }],
      /Δ pass rate -1\.00/,
    ],
    [
      "an arm reported no cost",
      [{ passed: false, cost: null }],
      [{ passed: true }],
      /reported no cost/,
    ],
    ["an arm has no analysis-set run", [{ passed: false }], [], /no analysis-set run/],
  ] as [string, RunSpec[], RunSpec[], RegExp][])("n/a when %s", (_, base, cand, why) => {
    const c = costOfAnswer([...runs("CONTROL", base), ...runs("WITH_SKILL", cand)], roles);
    expect(c.per_extra_pass_usd).toBeNull();
    expect(c.na).toMatch(why);
    expect(costOfAnswerLines(c, usd)[0]).toMatch(/: n\/a: /);
  });

  it("excluded runs count in the experiment's cost, not in the per-pass figure", () => {
    const c = costOfAnswer(
      [
        ...runs("CONTROL", [{ passed: false, cost: 0.01 }]),
        ...runs("WITH_SKILL", [
          { passed: true, cost: 0.02 },
          { passed: false, cost: 0.5, quality: "excluded" },
        ]),
      ],
      roles,
    );
    expect(c.per_extra_pass_usd).toBeCloseTo(0.01);
    expect(c.experiment_usd).toBeCloseTo(0.53);
    expect(c.runs).toBe(3);
    expect(costOfAnswerLines(c, usd)).toEqual([
      "- **Extra cost per extra passed run** (WITH_SKILL over CONTROL): +$0.0100 (Δ cost per run +$0.0100 ÷ Δ pass rate +1.00; analysis set)",
      "- **Cost of the experiment behind this verdict** (all 3 runs, excluded ones included): $0.5300, 3,000 tokens",
    ]);
  });
});

describe("the judge's cost (counted apart from the runs')", () => {
  type J = {
    calls: number;
    tokens: { input: number; output: number } | null;
    cost_usd: number | null;
  };
  const judged = (treatment: string, rep: number, j: J | null) => ({
    ...makeReport({ treatment, rep, passed: true, cost: 0.01 }),
    judge: j ? { ...makeJudgeBlock({ task_completion: 4 }), ...j } : null,
  });
  it.each<[string, (J | null)[], object | null, RegExp | null]>([
    ["no judge", [null, null], null, null],
    [
      "a judge whose calls were all cached",
      [{ calls: 0, tokens: { input: 0, output: 0 }, cost_usd: 0 }],
      null,
      null,
    ],
    [
      "an HTTP judge: tokens, no dollars",
      [
        { calls: 1, tokens: { input: 1200, output: 80 }, cost_usd: null },
        { calls: 2, tokens: { input: 1000, output: 20 }, cost_usd: null },
      ],
      { calls: 3, runs: 2, tokens: 2300, usd: null, unreported_runs: 2 },
      /3 call\(s\) on 2 run\(s\): 2,300 tokens, no dollars reported by its transport/,
    ],
    [
      "a CLI judge reports dollars; one run's did not",
      [
        { calls: 1, tokens: null, cost_usd: 0.02 },
        { calls: 1, tokens: null, cost_usd: null },
        null,
      ],
      { calls: 2, runs: 2, tokens: null, usd: 0.02, unreported_runs: 1 },
      /2 call\(s\) on 2 run\(s\): \$0\.0200 \(1 judged run\(s\) reported no dollars\); not in the runs' figures/,
    ],
  ])("%s", (_, judges, expected, line) => {
    const reports = judges.map((j, i) => judged(i % 2 ? "CONTROL" : "WITH_SKILL", i + 1, j));
    const c = costOfAnswer(reports, roles);
    // The runs' own figures are unchanged by the judge's.
    expect(c.experiment_usd).toBeCloseTo(0.01 * judges.length);
    if (expected === null) {
      expect(c.judge).toBeUndefined();
      expect(costOfAnswerLines(c, usd)).toHaveLength(2);
      expect("judge" in c).toBe(false); // comparison.json unchanged without judge calls
    } else {
      expect(c.judge).toEqual(expected);
      expect(costOfAnswerLines(c, usd)[2]).toMatch(line ?? /./);
    }
  });
});
