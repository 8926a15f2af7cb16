import { describe, expect, it } from "vitest";
import type { UsageSample } from "../../../src/cost/estimate.js";
import { parsePricing } from "../../../src/cost/pricing.js";
import { admissionEstimate } from "../../../src/runner/budget-estimate.js";

const TABLE = parsePricing(
  `version: 2026-01-01
models:
  claude-sonnet-4-5:
    input: 3
    output: 15
    cache_read: 0.3
`,
  "t.yaml",
);
const tokens = (input: number, output: number) => ({
  input,
  output,
  cache_read: 0,
  cache_write: 0,
});
const sample = (over: Partial<UsageSample>): UsageSample => ({
  task: "t",
  treatment: "A",
  agent: "claude",
  model: null,
  billed_model: "claude-sonnet-4-5",
  tokens: tokens(1_000_000, 0), // $3 at the table's price
  reported_usd: null,
  seconds: 10,
  from: "history",
  ...over,
});
const run = {
  run_id: "t-A-r1",
  task: "t",
  treatment: "A",
  agent: "claude",
  task_hash: "sha256:t1",
};

describe("the budget's admission estimate (real evidence only)", () => {
  it.each<
    [
      string,
      { finished?: [string, number, number][]; samples?: UsageSample[]; runUsd?: number | null },
      object,
    ]
  >([
    [
      "this experiment's metered runs of the task come first: the largest",
      {
        finished: [
          ["t", 0.5, 100],
          ["t", 0.7, 50],
        ],
        samples: [sample({})],
      },
      { source: "experiment", usd: 0.7, tokens: 100 },
    ],
    [
      "earlier runs of the same key: the largest metered dollars",
      { samples: [sample({ metered_usd: 2 }), sample({ metered_usd: 2.5 })] },
      {
        source: "history",
        usd: 2.5,
        tokens: 1_000_000,
        why: expect.stringContaining("(history, metered)") as unknown,
      },
    ],
    [
      "earlier runs without a metered figure: the table's price of their tokens, the largest",
      { samples: [sample({}), sample({ tokens: tokens(2_000_000, 0) })] },
      { source: "history", usd: 6, tokens: 2_000_000 },
    ],
    [
      "earlier runs the table cannot price: their tokens, and the run cap in dollars",
      { samples: [sample({ billed_model: "mystery-1" })], runUsd: 1 },
      {
        source: "history",
        usd: 1,
        tokens: 1_000_000,
        why: expect.stringMatching(
          /unpriced \(mystery-1\), so the run cap \$1\.00 is held/,
        ) as unknown,
      },
    ],
    [
      "another treatment's earlier runs are not this run's evidence",
      { samples: [sample({ treatment: "B" })], runUsd: 0.25 },
      { source: "run cap", usd: 0.25, tokens: null },
    ],
    [
      "the pilot's runs of the task under another treatment",
      { samples: [sample({ from: "pilot", treatment: "B" })] },
      { source: "pilot", usd: 3 },
    ],
    [
      "a history store's run of the same task content counts",
      { samples: [sample({ same_content_only: true, task_hash: "sha256:t1", metered_usd: 2 })] },
      { source: "history", usd: 2 },
    ],
    [
      "a history store's run of a task of the same name and other content does not",
      {
        samples: [sample({ same_content_only: true, task_hash: "sha256:other", metered_usd: 2 })],
        runUsd: 0.25,
      },
      { source: "run cap", usd: 0.25 },
    ],
    [
      "nothing known and no cap: nothing held back (the agent's default figure is not evidence)",
      {},
      { source: "none", usd: null, tokens: null },
    ],
  ])("%s", (_name, given, expected) => {
    const finished = new Map<
      string,
      { tokens: ReturnType<typeof tokens>; usd: number; unpriced: string[] }[]
    >();
    for (const [task, usd, out] of given.finished ?? [])
      finished.set(task, [
        ...(finished.get(task) ?? []),
        { tokens: tokens(0, out), usd, unpriced: [] },
      ]);
    const e = admissionEstimate({
      finished,
      runUsd: given.runUsd ?? null,
      samples: () => given.samples ?? [],
      model: null,
      pricing: TABLE,
    });
    expect(e(run)).toMatchObject(expected);
  });
});
