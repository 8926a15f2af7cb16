import { describe, expect, it } from "vitest";
import type { EventsSummary } from "../../../src/core/report.js";
import { parsePricing } from "../../../src/cost/pricing.js";
import { withTableCost } from "../../../src/cost/run-cost.js";

const pricing = parsePricing(
  `version: 2026-01-01
models:
  gpt-5:
    input: 1.25
    output: 10
    cache_read: 0.125
`,
  "t.yaml",
);

function es(over: Partial<EventsSummary>): EventsSummary {
  return {
    duration_seconds: 1,
    duration_api_seconds: null,
    num_turns: 1,
    tool_calls: 0,
    input_tokens: 1_000_000,
    output_tokens: 100_000,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: null,
    total_tokens: 1_100_000,
    total_cost_usd: null,
    model_usage: {},
    files_created: [],
    files_modified: [],
    commands_run: 0,
    skills_invoked: [],
    skill_files_touched: [],
    scripts_used: [],
    session_ids: [],
    api_retries: 0,
    peak_context_tokens: null,
    profile: "generic",
    final_response: null,
    ...over,
  };
}

describe("withTableCost", () => {
  it("prices a run whose agent reported no cost, marked as the table's", () => {
    const got = withTableCost(es({}), pricing, "gpt-5-2025-08-07");
    // 1M input at $1.25 + 0.1M output at $10
    expect(got.total_cost_usd).toBeCloseTo(2.25);
    expect(got.cost_source).toBe("pricing_table");
    expect(got.cost_priced_as).toBe("gpt-5 (pricing table 2026-01-01)");
  });

  it("the model the agent billed wins over the run's", () => {
    const got = withTableCost(es({ model_usage: { "gpt-5": {} } }), pricing, "other");
    expect(got.cost_priced_as).toMatch(/^gpt-5 /);
  });

  it.each([
    ["the agent reported a cost", es({ total_cost_usd: 0.5 }), "gpt-5"],
    ["the model is not in the table", es({}), "mystery-model"],
    ["no model is known", es({}), null],
    [
      "no token counts",
      es({
        input_tokens: null,
        output_tokens: null,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: null,
      }),
      "gpt-5",
    ],
  ] as const)("leaves it as it is when %s", (_, summary, model) => {
    expect(withTableCost(summary, pricing, model)).toBe(summary);
  });

  it("no table: as it is", () => {
    const s = es({});
    expect(withTableCost(s, null, "gpt-5")).toBe(s);
  });
});
