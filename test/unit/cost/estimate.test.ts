import { describe, expect, it } from "vitest";
import {
  estimatePlan,
  estimateRun,
  makespan,
  pickSamples,
  type RunKey,
  type UsageSample,
} from "../../../src/cost/estimate.js";
import { parsePricing } from "../../../src/cost/pricing.js";
import { costText, estimateLine } from "../../../src/cost/render.js";

const pricing = parsePricing(
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

const KEY: RunKey = { task: "t1", treatment: "WITH", agent: "claude", model: "claude-sonnet-4-5" };
const TYPICAL = { input: 1000, output: 100, cache_read: 10_000, cache_write: 0, seconds: 60 };

function sample(over: Partial<UsageSample> & { input?: number }): UsageSample {
  const input = over.input ?? 1_000_000;
  return {
    task: "t1",
    treatment: "WITH",
    agent: "claude",
    model: "claude-sonnet-4-5",
    billed_model: null,
    tokens: { input, output: 0, cache_read: 0, cache_write: 0 },
    reported_usd: null,
    seconds: 10,
    from: "history",
    ...over,
  };
}

describe("source precedence", () => {
  const history = sample({ input: 2_000_000 });
  const pilotSame = sample({ from: "pilot", input: 3_000_000 });
  const pilotOtherTreatment = sample({ from: "pilot", treatment: "CONTROL", input: 4_000_000 });
  const otherTask = sample({ task: "t2", input: 5_000_000 });
  const otherModel = sample({ model: "claude-haiku-4-5", input: 6_000_000 });
  const otherAgent = sample({ agent: "codex", input: 7_000_000 });
  it.each([
    ["history wins over pilot", [pilotSame, history], "history", 2_000_000],
    ["pilot of the same key", [pilotOtherTreatment, pilotSame], "pilot", 3_000_000],
    ["pilot of the task under another treatment", [pilotOtherTreatment], "pilot", 4_000_000],
    ["history of another task is not used", [otherTask], "agent-default", 1000],
    ["history of another model is not used", [otherModel], "agent-default", 1000],
    ["history of another agent is not used", [otherAgent], "agent-default", 1000],
    ["nothing: the agent's default", [], "agent-default", 1000],
  ] as const)("%s", (_, samples, source, input) => {
    const e = estimateRun({ run: KEY, samples, typical: TYPICAL, pricing });
    expect(e.source).toBe(source);
    expect(e.tokens.input).toBe(input);
  });

  it("a history sample of another treatment is not a match (only a pilot's is)", () => {
    expect(pickSamples(KEY, [sample({ treatment: "CONTROL" })])).toBeNull();
  });

  it("no samples and no default figure: source none, unpriced, with why", () => {
    const e = estimateRun({ run: KEY, samples: [], typical: null, pricing });
    expect(e.source).toBe("none");
    expect(e.usd).toBeNull();
    expect(e.unpriced).toMatch(/no default figure for agent claude/);
  });
});

describe("range", () => {
  it("mean, min and max of the matching samples", () => {
    const e = estimateRun({
      run: KEY,
      samples: [
        sample({ input: 1_000_000, seconds: 10 }),
        sample({ input: 3_000_000, seconds: 30 }),
        sample({ input: 2_000_000, seconds: 20 }),
      ],
      typical: TYPICAL,
      pricing,
    });
    expect(e.samples).toBe(3);
    expect(e.total_tokens).toEqual({ mean: 2_000_000, min: 1_000_000, max: 3_000_000 });
    expect(e.seconds).toEqual({ mean: 20, min: 10, max: 30 });
    // $3 per million input tokens.
    expect(e.usd).toBeCloseTo(6);
    expect(e.usd_range?.min).toBeCloseTo(3);
    expect(e.usd_range?.max).toBeCloseTo(9);
    expect(e.priced_as).toBe("claude-sonnet-4-5");
  });

  it("the agent's default: half to twice the figure", () => {
    const e = estimateRun({ run: KEY, samples: [], typical: TYPICAL, pricing });
    expect(e.total_tokens).toEqual({ mean: 11_100, min: 5_550, max: 22_200 });
    expect(e.seconds).toEqual({ mean: 60, min: 30, max: 120 });
    // 1000 × 3 + 100 × 15 + 10000 × 0.3 = 7500 per million.
    expect(e.usd).toBeCloseTo(0.0075);
    expect(e.usd_range?.max).toBeCloseTo(0.015);
  });

  it("each sample is priced by the model it billed", () => {
    const e = estimateRun({
      run: KEY,
      samples: [sample({ billed_model: "claude-sonnet-4-5-20250929" })],
      typical: null,
      pricing,
    });
    expect(e.usd).toBeCloseTo(3);
  });
});

describe("unpriced model", () => {
  it("tokens are estimated, the cost is unpriced and names the model", () => {
    const run = { ...KEY, model: "claude-opus-9" };
    const e = estimateRun({
      run,
      samples: [sample({ model: "claude-opus-9", reported_usd: 0.5 })],
      typical: TYPICAL,
      pricing,
    });
    expect(e.source).toBe("history");
    expect(e.tokens.input).toBe(1_000_000);
    expect(e.usd).toBeNull();
    expect(e.usd_range).toBeNull();
    expect(e.unpriced).toBe("claude-opus-9");
    // The agent's own figure is kept beside it, as the agent's.
    expect(e.reported_usd).toBe(0.5);
  });

  it("a billed model the table lacks leaves it unpriced even when the asked one is known", () => {
    const e = estimateRun({
      run: KEY,
      samples: [sample({ billed_model: "claude-opus-5-5" })],
      typical: null,
      pricing,
    });
    expect(e.unpriced).toBe("claude-opus-5-5");
  });

  it("no model asked for: the agent's default model is unpriced, not guessed", () => {
    const e = estimateRun({ run: { ...KEY, model: null }, samples: [], typical: TYPICAL, pricing });
    expect(e.usd).toBeNull();
    expect(e.unpriced).toMatch(/agent's default model/);
    expect(e.total_tokens.mean).toBe(11_100);
  });

  it("the plan's cost counts priced runs and says which are unpriced", () => {
    const priced = estimateRun({ run: KEY, samples: [], typical: TYPICAL, pricing });
    const unpriced = estimateRun({
      run: { ...KEY, model: "mystery" },
      samples: [],
      typical: TYPICAL,
      pricing,
    });
    const p = estimatePlan([priced, unpriced, unpriced], 1, pricing);
    expect(p.priced_runs).toBe(1);
    expect(p.usd?.mean).toBeCloseTo(0.0075);
    expect(p.unpriced).toEqual([{ why: "mystery", runs: 2 }]);
    expect(costText(p)).toMatch(/2 run\(s\) unpriced: mystery is not in the pricing table t\.yaml/);
  });
});

describe("wall time at a concurrency", () => {
  it.each([
    [[10, 10, 10, 10], 1, 40],
    [[10, 10, 10, 10], 2, 20],
    [[10, 10, 10, 10], 8, 10],
    [[30, 10, 10, 10], 2, 30],
    [[], 2, 0],
  ])("%j at -j %i takes %i", (d, j, want) => {
    expect(makespan(d, j)).toBe(want);
  });

  it("the plan's wall range uses the runs' ranges", () => {
    const e = estimateRun({ run: KEY, samples: [], typical: TYPICAL, pricing });
    const p = estimatePlan([e, e, e, e], 2, pricing);
    expect(p.seconds).toEqual({ mean: 120, min: 60, max: 240 });
    expect(p.sources).toEqual([{ source: "agent-default", runs: 4 }]);
  });

  it("the start-up line: figures for a real model, not-real for the scripted one", () => {
    const e = estimateRun({ run: KEY, samples: [], typical: TYPICAL, pricing });
    const p = estimatePlan([e, e], 1, pricing);
    expect(estimateLine(p, { scripted: false, from: [] })).toBe(
      "estimate: 22,200 tokens, $0.0150 ($0.0075–$0.0300), ~2m00s at -j 1 (2 from agent-default)",
    );
    expect(estimateLine(p, { scripted: true, from: [] })).toMatch(/the cost is not real/);
  });
});

describe("a history-store sample counts only for the same task content, agent and model", () => {
  const store = (over: Partial<UsageSample>): UsageSample =>
    sample({ same_content_only: true, task_hash: "sha256:t1", input: 2_000_000, ...over });
  const keyed: RunKey = { ...KEY, task_hash: "sha256:t1" };
  it.each([
    ["same name, same content", keyed, [store({})], "history"],
    [
      "same name, other content (another suite's greet)",
      keyed,
      [store({ task_hash: "sha256:x" })],
      "agent-default",
    ],
    ["the sample recorded no task hash", keyed, [store({ task_hash: null })], "agent-default"],
    ["the planned task's hash is not known", KEY, [store({})], "agent-default"],
    ["same content, another agent", keyed, [store({ agent: "codex" })], "agent-default"],
    ["same content, another model", keyed, [store({ model: "claude-haiku-4-5" })], "agent-default"],
    [
      "a named folder's sample counts by name, as before",
      keyed,
      [sample({ task_hash: "sha256:x" })],
      "history",
    ],
  ] as const)("%s", (_, run, samples, source) => {
    expect(estimateRun({ run, samples, typical: TYPICAL, pricing }).source).toBe(source);
  });
});
