import { describe, expect, it } from "vitest";
import { createBudgetLedger } from "../../../src/cost/budget.js";
import { parsePricing } from "../../../src/cost/pricing.js";
import { admissionEstimate } from "../../../src/runner/budget-estimate.js";

const TABLE = parsePricing(
  `version: 2026-01-01
models:
  claude-sonnet-4-5:
    input: 3
    output: 15
    cache_read: 0.3
    cache_write: 3.75
`,
  "t.yaml",
);
const tokens = (output: number, input = 0) => ({ input, output, cache_read: 0, cache_write: 0 });
const sonnet = (output: number, input = 0) => ({
  model: "claude-sonnet-4-5",
  tokens: tokens(output, input),
});

describe("budget ledger", () => {
  it("prices each delta by its model and adds it to the run and the experiment", () => {
    const l = createBudgetLedger({ usd: 10, tokens: null, runUsd: null }, TABLE);
    expect(l.record("a", sonnet(100_000))).toBeNull(); // $1.50
    expect(l.record("b", sonnet(0, 1_000_000))).toBeNull(); // $3
    expect(l.spendOf("a").usd).toBeCloseTo(1.5);
    expect(l.spent().usd).toBeCloseTo(4.5);
    expect(l.spent().tokens).toBe(1_100_000);
  });

  it.each([
    ["the run's cap", { usd: null, tokens: null, runUsd: 1 }, "run_usd"],
    ["the experiment's dollars", { usd: 1, tokens: null, runUsd: null }, "budget_usd"],
    ["the experiment's tokens", { usd: null, tokens: 50_000, runUsd: null }, "budget_tokens"],
  ] as const)("a delta that crosses %s stops the run", (_n, limits, cause) => {
    const l = createBudgetLedger(limits, TABLE);
    expect(l.record("a", sonnet(40_000))).toBeNull(); // $0.60, 40k tokens
    expect(l.record("a", sonnet(40_000))?.cause).toBe(cause); // $1.20, 80k tokens
  });

  it("an unpriced model stops a run under a dollar budget, and only counts tokens without one", () => {
    const unpriced = { model: "mystery-model", tokens: tokens(10) };
    expect(
      createBudgetLedger({ usd: 5, tokens: null, runUsd: null }, TABLE).record("a", unpriced)
        ?.cause,
    ).toBe("unpriced");
    const t = createBudgetLedger({ usd: null, tokens: 100, runUsd: null }, TABLE);
    expect(t.record("a", unpriced)).toBeNull();
    expect(t.spendOf("a").unpriced).toEqual(["mystery-model"]);
  });

  it("admits a run only when what is left covers its estimate, the runs under way held back", () => {
    const l = createBudgetLedger({ usd: 3, tokens: null, runUsd: null }, TABLE);
    expect(l.admit("a", { usd: 1, tokens: null })).toBeNull();
    expect(l.admit("b", { usd: 1.5, tokens: null })).toBeNull();
    // 3 - (1 + 1.5) held = 0.5 left
    expect(l.admit("c", { usd: 1, tokens: null })).toMatch(
      /has \$0\.5000 left beside the runs under way/,
    );
    l.record("a", sonnet(40_000)); // a spent $0.60: over its estimate, holds nothing more
    l.finish("a");
    expect(l.admit("c", { usd: 0.8, tokens: null })).toBeNull(); // 3 - 0.6 - 1.5 = 0.9
    l.observe({ usd: 3.5, tokens: 0 }); // another worker spent the rest
    expect(l.admit("d", { usd: 0, tokens: null })).toMatch(/has \$0\.0000 left/);
  });

  it("without earlier runs, the admission's estimate is the stand-in rule: the largest spend of the task's finished runs, else the run cap, else none", () => {
    const limits = { usd: 5, tokens: null, runUsd: 0.25 };
    const finished = new Map([
      [
        "t",
        [
          { tokens: tokens(10), usd: 0.1, unpriced: [] },
          { tokens: tokens(30), usd: 0.3, unpriced: [] },
        ],
      ],
    ]);
    const of = (f: typeof finished, runUsd: number | null) =>
      admissionEstimate({ finished: f, runUsd, samples: () => [], model: null, pricing: TABLE });
    const run = (run_id: string, task: string) => ({
      run_id,
      task,
      treatment: "X",
      agent: "claude",
    });
    const e = of(finished, limits.runUsd);
    expect(e(run("t-X-r3", "t"))).toMatchObject({ usd: 0.3, tokens: 30 });
    expect(e(run("u-X-r1", "u"))).toMatchObject({ usd: 0.25, tokens: null });
    expect(of(new Map(), null)(run("u", "u"))).toMatchObject({ usd: null, tokens: null });
  });
});
