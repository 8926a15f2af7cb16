/**
 * A run stopped by a budget (docs/budgets.md): skillbench's own (runner/budget.ts) or the agent's
 * (Claude Code's --max-budget-usd, the driver's ownBudgetStop): outcome budget, status errored,
 * excluded from the analysis as `budget`, a harness record: never a failure of the run.
 */
import { describe, expect, it } from "vitest";
import { defaultAgent } from "../../../src/agents/index.js";
import { ownBudgetStop } from "../../../src/runner/budget.js";
import { evaluateRun, type EvaluateInput } from "../../../src/runner/evaluate.js";
import { evaluateInput } from "./evaluate-input.js";

/** A finished run whose one check failed (a missing artifact): a budget stop must not read as that failure. */
function input(over: Partial<EvaluateInput>): EvaluateInput {
  return evaluateInput({
    validation: { artifacts: [], scripts: [], passed: [], failed: ["Missing artifact: out.txt"] },
    ...over,
  });
}

const STOP = {
  tokens: { input: 1, output: 2, cache_read: 0, cache_write: 0 },
  total_tokens: 3,
  usd: 2,
  unpriced: [],
  pricing: "2026-01-01",
  stop: {
    cause: "run_usd" as const,
    detail: "the run spent $2.00, over its cap of $1.00 (--max-run-usd)",
  },
};

describe("a run stopped by a budget", () => {
  it("is invalid with cause budget, never a failure, whatever its checks say", () => {
    const r = evaluateRun(
      input({
        agent: {
          outcome: "budget",
          exit_code: null,
          detail: "stopped by the budget",
          interaction: null,
        },
        metered: STOP,
      }),
    );
    expect(r).toMatchObject({ outcome: "budget", status: "errored", passed: false, metered: STOP });
    expect(r.sample_quality).toMatchObject({
      status: "excluded",
      reason_code: "budget",
      include_in_analysis: false,
    });
    expect(r.sample_quality.reason).toContain("over its cap of $1.00");
    expect(r.failures[0]).toMatchObject({ source: "harness", code: "budget", phase: "agent" });
    expect(r.failure_attribution.map((a) => a.bucket)).toContain("harness");
  });

  it("without a budget, a report has no metered field (reports of other experiments unchanged)", () => {
    expect("metered" in evaluateRun(input({}))).toBe(false);
  });

  it.each([
    ["Claude Code's own cap", "error_max_budget_usd", "budget"],
    ["another final subtype", "error_max_turns", "agent_error"],
    ["a successful result", "success", "agent_error"],
  ])("%s → agent outcome %s", (_n, subtype, want) => {
    const agent = { outcome: "agent_error", exit_code: 1, detail: "d", interaction: null };
    const out = ownBudgetStop(agent, { results: [{ subtype }] }, defaultAgent().ownBudgetStop);
    expect(out.outcome).toBe(want);
  });

  it("an agent with no cap of its own is never mapped", () => {
    const agent = { outcome: "agent_error", exit_code: 1, detail: "d", interaction: null };
    expect(
      ownBudgetStop(agent, { results: [{ subtype: "error_max_budget_usd" }] }, undefined),
    ).toBe(agent);
  });
});
