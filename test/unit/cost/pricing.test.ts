import { describe, expect, it } from "vitest";
import { costOf, loadPricing, parsePricing, priceFor } from "../../../src/cost/pricing.js";
import { InputError } from "../../../src/core/errors.js";

const TABLE = `version: 2026-01-01
models:
  claude-sonnet-4-5:
    match: [claude-sonnet-4.5]
    input: 3
    output: 15
    cache_read: 0.3
    cache_write: 3.75
  gpt-5:
    input: 1.25
    output: 10
    cache_read: 0.125
  gpt-5-mini:
    input: 0.25
    output: 2
    cache_read: 0.025
`;

describe("priceFor", () => {
  const table = parsePricing(TABLE, "t.yaml");
  it.each([
    ["claude-sonnet-4-5", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-sonnet-4.5", "claude-sonnet-4-5"],
    ["anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"],
    ["gpt-5", "gpt-5"],
    ["gpt-5-2025-08-07", "gpt-5"],
    // The longest prefix wins: gpt-5-mini's snapshot is not priced as gpt-5.
    ["gpt-5-mini-2025-08-07", "gpt-5-mini"],
    // A prefix takes a name only at a boundary.
    ["gpt-5.1", null],
    ["claude-sonnet-4-50", null],
    ["claude-opus-5-5", null],
    ["", null],
  ])("%s is priced as %s", (model, want) => {
    expect(priceFor(table, model)?.model ?? null).toBe(want);
  });

  it("prices cache writes as input where the table leaves them out", () => {
    expect(priceFor(table, "gpt-5")?.price.cache_write).toBe(1.25);
  });
});

describe("costOf", () => {
  const table = parsePricing(TABLE, "t.yaml");
  it.each([
    // 1M input at $3 + 100k output at $15 + 2M cache reads at $0.30 + 10k cache writes at $3.75
    ["claude-sonnet-4-5", [1_000_000, 100_000, 2_000_000, 10_000], 3 + 1.5 + 0.6 + 0.0375],
    // 2,400 in, 160 out, 6,000 cache read: 0.003 + 0.0016 + 0.00075
    ["gpt-5", [2_400, 160, 6_000, 0], 0.00535],
    ["gpt-5", [0, 0, 0, 0], 0],
  ] as const)("%s %j costs $%d", (model, [input, output, cache_read, cache_write], usd) => {
    const got = costOf(table, model, { input, output, cache_read, cache_write });
    expect(got.priced).toBe(true);
    if (got.priced) expect(got.usd).toBeCloseTo(usd, 12);
  });

  it("says a model is unpriced instead of guessing", () => {
    expect(
      costOf(table, "mystery-1", { input: 1, output: 1, cache_read: 0, cache_write: 0 }),
    ).toEqual({ priced: false, model: "mystery-1" });
  });
});

describe("parsePricing errors name the file, the field and the line", () => {
  it.each([
    [
      "version: 1\nmodels:\n  m:\n    input: -1\n    output: 1\n    cache_read: 0\n",
      "models.m.input (line 4)",
    ],
    ["version: 1\nmodels:\n  m:\n    input: 1\n    output: 1\n", "models.m.cache_read (line 4)"],
    [
      "version: 1\nmodels:\n  m:\n    input: 1\n    output: 1\n    cache_read: 0\n    price: 2\n",
      "models.m (line 4)",
    ],
    ["models: {}\n", "version"],
    [
      "version: 1\nmodels:\n  a:\n    input: 1\n    output: 1\n    cache_read: 0\n  b:\n    match: [a]\n    input: 1\n    output: 1\n    cache_read: 0\n",
      'models.b.match (line 8): "a" already prices a',
    ],
    ["version: [\n", "line 2"],
  ])("%j", (text, where) => {
    let err: unknown;
    try {
      parsePricing(text, "prices.yaml");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain("prices.yaml");
    expect((err as InputError).message).toContain(where);
  });
});

describe("the shipped table", () => {
  it("parses and prices each agent's usual models", async () => {
    const table = await loadPricing();
    expect(table.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const m of [
      "claude-sonnet-4-5-20250929",
      "claude-opus-4-5",
      "gpt-5-codex",
      "gemini-2.5-pro",
    ])
      expect(priceFor(table, m), m).not.toBeNull();
  });

  it("a missing file is an input error naming it", async () => {
    await expect(loadPricing("/nonexistent/prices.yaml")).rejects.toThrow(
      /\/nonexistent\/prices\.yaml: cannot read the pricing table/,
    );
  });
});
