import { describe, expect, it } from "vitest";
import { costOfAnswer, costOfAnswerLines } from "../../../src/report/comparison/cost.js";
import { usd } from "../../../src/report/format.js";
import { makeReport, type RunSpec } from "./helpers.js";

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
