/**
 * The LLM judge's calls under the experiment's budget (docs/budgets.md, "The judge"): the
 * admission of each call, its spend counted apart from the run's, and a refused call leaving the
 * run's judge dimensions N/A with cause `budget` (fail closed).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBudgetLedger, judgeCallRefusal, type BudgetLeft } from "../../../src/cost/budget.js";
import { parsePricing } from "../../../src/cost/pricing.js";
import { JudgeCache } from "../../../src/judge/cache.js";
import type { ActiveJudgeConfig } from "../../../src/judge/config.js";
import { runJudge } from "../../../src/judge/run-judge.js";
import type { JudgeBudget, JudgeReply, JudgeTransport } from "../../../src/judge/types.js";
import { judgeDimensionValue } from "../../../src/report/judge-status.js";
import { createRunBudget, type JudgeSpend, type SharedSpend } from "../../../src/runner/budget.js";
import { makeJudgeBlock, makeReport } from "../report/helpers.js";

const TABLE = parsePricing(
  `version: 2026-01-01
models:
  judge-m:
    input: 1
    output: 10
    cache_read: 0.1
    cache_write: 1.25
`,
  "t.yaml",
);
const limited = (usd: number | null, tokens: number | null): BudgetLeft => ({
  usd: usd ?? 0,
  tokens: tokens ?? 0,
  usdLimited: usd !== null,
  tokensLimited: tokens !== null,
});

describe("judgeCallRefusal", () => {
  it.each([
    ["no limit", limited(null, null), { usd: 5, tokens: 5 }, null],
    ["dollars left cover the call", limited(1, null), { usd: 0.5, tokens: 0 }, null],
    ["nothing known yet, something left", limited(0.01, null), { usd: 0, tokens: 0 }, null],
    [
      "dollars left are less than the call",
      limited(0.1, null),
      { usd: 0.5, tokens: 0 },
      "the budget has $0.1000 left, the judge call is estimated at $0.5000",
    ],
    [
      "nothing left",
      limited(-0.2, null),
      { usd: 0, tokens: 0 },
      "the budget has $0.0000 left, the judge call is estimated at $0.0000",
    ],
    [
      "tokens left are less than the call",
      limited(null, 100),
      { usd: 0, tokens: 150 },
      "the budget has 100 tokens left, the judge call is estimated at 150",
    ],
    ["tokens left cover the call", limited(null, 200), { usd: 0, tokens: 150 }, null],
  ] as const)("%s", (_n, left, estimate, want) => {
    expect(judgeCallRefusal(left, estimate)).toBe(want);
  });
});

describe("BudgetLedger.left", () => {
  it("is the limit less the spend and the other runs' held estimates (not the judged run's own)", () => {
    const l = createBudgetLedger({ usd: 3, tokens: 1000, runUsd: null }, TABLE);
    expect(l.admit("a", { usd: 1, tokens: 300 })).toBeNull();
    expect(l.admit("b", { usd: 1, tokens: 300 })).toBeNull();
    l.record("a", {
      model: "judge-m",
      tokens: { input: 0, output: 20_000, cache_read: 0, cache_write: 0 },
    }); // $0.20
    const left = l.left("a");
    expect(left.usd).toBeCloseTo(3 - 0.2 - 1); // b's $1 held, a's own remainder not
    expect(left.tokens).toBe(1000 - 20_000 - 300);
    expect(left).toMatchObject({ usdLimited: true, tokensLimited: true });
  });
});

const KEY = { task: "t", treatment: "CONTROL", rep: 1 };
const judgeReply = (input: number, output: number) => ({ input, output });
/** A JSON reply body the scripted server would send, with its usage. */
const body = (input: number, output: number): string =>
  JSON.stringify({ model: "judge-m", usage: { input_tokens: input, output_tokens: output } });

describe("createRunBudget: the judge's calls", () => {
  it("counts them against the budget as the judge's own spend, never in the run's", async () => {
    const b = createRunBudget({ limits: { usd: 10, tokens: null, runUsd: null }, pricing: TABLE });
    const meter = b.open({ run_id: "r1", task: "t" }, KEY);
    const j = b.judgeFor({ run_id: "r1" }, KEY);
    expect(await j.admit()).toBeNull();
    // Not metered by the scripted server: the transport's reported tokens, priced by the table.
    j.replied("judge-m", judgeReply(100_000, 10_000)); // $0.10 + $0.10
    expect(await j.admit()).toBeNull();
    // Metered by the scripted server (role judge): counted once, the reported usage not again.
    const m = b.judgeResponseFor(KEY);
    expect(m).not.toBeNull();
    m?.push(body(100_000, 0)); // $0.10
    m?.end();
    j.replied("judge-m", judgeReply(100_000, 0));
    j.close();
    expect(b.judgeResponseFor(KEY)).toBeNull();
    expect(meter.close(true)).toMatchObject({ usd: 0 });
    expect(b.ledger.spent().usd).toBeCloseTo(0.3);
    const spend = await b.judgeSpend();
    expect(spend).toMatchObject({ calls: 2, refused: 0, tokens: 210_000, unpriced: [] });
    expect(spend.usd).toBeCloseTo(0.3);
  });

  it("refuses a call once what is left cannot cover the largest judge call so far", async () => {
    const b = createRunBudget({
      limits: { usd: 0.25, tokens: null, runUsd: null },
      pricing: TABLE,
    });
    const j = b.judgeFor({ run_id: "r1" }, KEY);
    expect(await j.admit()).toBeNull();
    j.replied("judge-m", judgeReply(0, 20_000)); // $0.20: $0.05 left
    expect(await j.admit()).toBe(
      "the budget has $0.0500 left, the judge call is estimated at $0.2000",
    );
    expect(await b.judgeSpend()).toMatchObject({ calls: 1, refused: 1 });
  });

  it("counts an unpriced judge model's tokens, not its dollars, and names it", async () => {
    const b = createRunBudget({ limits: { usd: 1, tokens: null, runUsd: null }, pricing: TABLE });
    const j = b.judgeFor({ run_id: "r1" }, KEY);
    expect(await j.admit()).toBeNull();
    j.replied("mystery", judgeReply(10, 5));
    expect(await b.judgeSpend()).toMatchObject({ usd: 0, tokens: 15, unpriced: ["mystery"] });
  });
});

describe("createRunBudget on --resume: the earlier invocations' judge spend", () => {
  // Invocation 1 spent $0.60 on its runs and $0.35 on its judge, under a budget of $1.
  const earlierRuns = [
    {
      task: "t",
      spend: {
        tokens: { input: 0, output: 60_000, cache_read: 0, cache_write: 0 },
        usd: 0.6,
        unpriced: [],
      },
    },
  ];
  const earlierJudge: JudgeSpend = {
    calls: 3,
    refused: 0,
    usd: 0.35,
    tokens: 35_000,
    unpriced: [],
  };
  it.each([
    // [case, budget, earlier judge, the next run's admission]
    ["the runs and the judge spent it: refused", 1, earlierJudge, /has \$0\.0500 left/],
    ["the runs alone would leave room: the judge's spend is what refuses", 1, undefined, null],
    ["a larger budget: admitted", 2, earlierJudge, null],
  ] as const)("%s", async (_n, usd, judge, want) => {
    const b = createRunBudget({
      limits: { usd, tokens: null, runUsd: null },
      pricing: TABLE,
      estimate: () => ({ usd: 0.3, tokens: null, source: "run cap" as const, why: "test" }),
    });
    b.seed(earlierRuns, judge);
    const why = await b.admit({ run_id: "r2", task: "t", treatment: "CONTROL", agent: "claude" });
    if (want === null) expect(why).toBeNull();
    else expect(why).toMatch(want);
    expect(b.ledger.spent().usd).toBeCloseTo(0.6 + (judge?.usd ?? 0));
  });

  it("counts the earlier judge spend in the judge's record, and refuses a judge call it exhausted", async () => {
    const b = createRunBudget({ limits: { usd: 0.5, tokens: null, runUsd: null }, pricing: TABLE });
    b.seed([], { ...earlierJudge, unpriced: ["old-judge"] });
    const j = b.judgeFor({ run_id: "r1" }, KEY);
    expect(await j.admit()).toBeNull(); // $0.15 left
    j.replied("judge-m", judgeReply(0, 20_000)); // $0.20: over
    expect(await j.admit()).toMatch(/has \$0\.0000 left/);
    const spend = await b.judgeSpend();
    expect(spend).toMatchObject({ calls: 4, refused: 1, tokens: 55_000, unpriced: ["old-judge"] });
    expect(spend.usd).toBeCloseTo(0.55);
  });
});

/** A counter several budgets share, as the queue's Redis hash (queue/budget-counter.ts). */
function memoryCounter(start: { usd: number; tokens: number; judge: JudgeSpend }): SharedSpend {
  const c = { usd: start.usd, tokens: start.tokens, judge: { ...start.judge } };
  return {
    add: (d) => {
      c.usd += d.usd;
      c.tokens += d.tokens;
      return Promise.resolve({ usd: c.usd, tokens: c.tokens });
    },
    read: () => Promise.resolve({ usd: c.usd, tokens: c.tokens }),
    addJudge: (d) => {
      c.usd += d.usd;
      c.tokens += d.tokens;
      c.judge = {
        calls: c.judge.calls + d.calls,
        refused: c.judge.refused + d.refused,
        usd: c.judge.usd + d.usd,
        tokens: c.judge.tokens + d.tokens,
        unpriced: [...new Set([...c.judge.unpriced, ...d.unpriced])],
      };
      return Promise.resolve({ usd: c.usd, tokens: c.tokens });
    },
    readJudge: () => Promise.resolve({ ...c.judge, unpriced: [...c.judge.unpriced] }),
  };
}

describe("createRunBudget with a shared counter: the judge across queue workers", () => {
  it("adds each worker's judge spend to the shared total, seen by the other's run and judge admission, summed for the coordinator", async () => {
    // An earlier invocation left $0.10 of judge spend in the counter (the key lives two weeks).
    const leftOver: JudgeSpend = { calls: 1, refused: 0, usd: 0.1, tokens: 10_000, unpriced: [] };
    const shared = memoryCounter({ usd: 0.1, tokens: 10_000, judge: leftOver });
    const limits = { usd: 1, tokens: null, runUsd: null };
    const estimate = () => ({ usd: 0.2, tokens: null, source: "run cap" as const, why: "test" });
    const coordinator = createRunBudget({
      limits,
      pricing: TABLE,
      shared,
      sharedJudgeAtStart: await shared.readJudge(),
    });
    coordinator.seed([], leftOver);
    const w1 = createRunBudget({ limits, pricing: TABLE, estimate, shared });
    const w2 = createRunBudget({ limits, pricing: TABLE, estimate, shared });
    const j1 = w1.judgeFor({ run_id: "r1" }, KEY);
    expect(await j1.admit()).toBeNull();
    j1.replied("judge-m", judgeReply(0, 50_000)); // $0.50 on worker 1
    await w1.judgeSpend(); // its spend has reached the counter
    // Worker 2 has spent nothing itself: $0.40 left of $1 across the workers.
    const j2 = w2.judgeFor({ run_id: "r2" }, { ...KEY, rep: 2 });
    expect(await j2.admit()).toBeNull();
    j2.replied("judge-m", judgeReply(0, 30_000)); // $0.30 on worker 2: $0.10 left
    await w2.judgeSpend();
    expect(
      await w1.admit({ run_id: "r3", task: "t", treatment: "CONTROL", agent: "claude" }),
    ).toMatch(/has \$0\.1000 left, the run is estimated at \$0\.2000/);
    // Worker 1's largest call ($0.50) does not fit what is left after worker 2's.
    expect(await j1.admit()).toMatch(
      /has \$0\.1000 left, the judge call is estimated at \$0\.5000/,
    );
    // The experiment's judge spend: the earlier invocation's, and both workers' of this one.
    const total = await coordinator.judgeSpend();
    expect(total).toMatchObject({ calls: 3, refused: 1, tokens: 90_000 });
    expect(total.usd).toBeCloseTo(0.9);
  });
});

describe("the coordinator's budget.judge on --resume --queue", () => {
  const judge = (calls: number, usd: number): JudgeSpend => ({
    calls,
    refused: 0,
    usd,
    tokens: Math.round(usd * 100_000), // output tokens of judge-m, $10 a million
    unpriced: [],
  });
  it.each([
    // [case, the earlier record, the counter at the start, calls during (of $0.20), total]
    [
      "the counter as the earlier coordinator left it",
      judge(1, 0.1),
      judge(1, 0.1),
      1,
      judge(2, 0.3),
    ],
    [
      "the counter gone (two weeks): the earlier record and what is new",
      judge(1, 0.1),
      judge(0, 0),
      1,
      judge(2, 0.3),
    ],
    [
      "a job judged after the earlier coordinator stopped following: in the counter, counted",
      judge(1, 0.1),
      judge(2, 0.3),
      0,
      judge(2, 0.3),
    ],
  ] as const)("%s", async (_n, earlier, atStart, during, want) => {
    const shared = memoryCounter({ usd: atStart.usd, tokens: atStart.tokens, judge: atStart });
    const limits = { usd: 10, tokens: null, runUsd: null };
    const coordinator = createRunBudget({
      limits,
      pricing: TABLE,
      shared,
      sharedJudgeAtStart: await shared.readJudge(),
    });
    coordinator.seed([], earlier);
    const worker = createRunBudget({ limits, pricing: TABLE, shared });
    const j = worker.judgeFor({ run_id: "r1" }, KEY);
    for (let i = 0; i < during; i++) {
      expect(await j.admit()).toBeNull();
      j.replied("judge-m", judgeReply(0, 20_000)); // $0.20
    }
    await worker.judgeSpend();
    const got = await coordinator.judgeSpend();
    expect({ ...got, usd: Number(got.usd.toFixed(6)) }).toEqual(want);
  });
});

const CFG: ActiveJudgeConfig = {
  enabled: true,
  model: "judge-m",
  transport: "http",
  baseUrl: "http://unused",
  credential: { kind: "token", value: "unused-token" },
  samples: 1,
  maxTokens: 2048,
  timeoutMs: 1000,
};
const DIMS = ["task_completion", "output_quality", "instruction_adherence"];
const good = (score: number): JudgeReply => ({
  ok: true,
  text: `\`\`\`json\n${JSON.stringify({ scores: Object.fromEntries(DIMS.map((d) => [d, { score, reason: "r" }])) })}\n\`\`\``,
  tokens: { input: 10, output: 2 },
  costUsd: null,
});
const garbage: JudgeReply = { ok: true, text: "no verdict here", tokens: null, costUsd: null };

function scripted(replies: JudgeReply[]): JudgeTransport & { calls: number } {
  const send = (): Promise<JudgeReply> => {
    t.calls += 1;
    return Promise.resolve(replies[t.calls - 1] ?? { ok: false, error: "script exhausted" });
  };
  const t = Object.assign(send, { calls: 0 });
  return t;
}
/** A budget that admits `n` calls, then refuses; records what was reported. */
function budgetOf(n: number): JudgeBudget & { replies: unknown[] } {
  let left = n;
  const replies: unknown[] = [];
  return {
    replies,
    admit: () =>
      Promise.resolve(
        left-- > 0 ? null : "the budget has $0.0000 left, the judge call is estimated at $0.0100",
      ),
    replied: (model, tokens) => replies.push([model, tokens]),
  };
}

let root: string;
let ws: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-judge-budget-"));
  ws = path.join(root, "ws");
  await mkdir(ws);
  await writeFile(path.join(ws, "out.txt"), "hello\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("runJudge under a budget", () => {
  const CAUSE = "budget: the budget has $0.0000 left, the judge call is estimated at $0.0100";
  it.each([
    // [case, samples, admitted calls, replies, status, reason, calls sent, scores]
    [
      "the first call refused: not started, N/A with cause budget",
      1,
      0,
      [good(0.9)],
      "failed",
      CAUSE,
      0,
      [null],
    ],
    [
      "the repair turn refused: N/A with cause budget",
      1,
      1,
      [garbage, good(0.9)],
      "failed",
      CAUSE,
      1,
      [null],
    ],
    [
      "every call admitted: scored as without a budget",
      1,
      5,
      [good(0.9)],
      "enabled_and_successful",
      "",
      1,
      [0.9],
    ],
    [
      "the second sample refused: the first's score, the refusal noted",
      2,
      1,
      [good(0.8), good(0.4)],
      "enabled_and_successful",
      `${CAUSE} (1 of 2 samples scored)`,
      1,
      [0.8],
    ],
  ] as const)("%s", async (_n, samples, admitted, replies, status, reason, sent, scores) => {
    const t = scripted([...replies]);
    const budget = budgetOf(admitted);
    const cache = new JudgeCache(path.join(root, `cache-${String(admitted)}-${String(samples)}`));
    const b = await runJudge({
      config: { ...CFG, samples },
      profile: "generic",
      workspace: ws,
      baseline: { passed: [], failed: [] },
      rubricCriteria: [],
      transport: t,
      budget,
      cache,
    });
    expect(b?.status).toBe(status);
    expect(b?.reason).toBe(reason);
    expect(t.calls).toBe(sent);
    expect(b?.calls).toBe(sent);
    expect(b?.dimensions.map((d) => d.score)).toEqual(DIMS.map(() => scores[0]));
    if (status === "failed") expect(b?.dimensions[0]?.reason).toBe(CAUSE);
    // Each answered call's usage is handed to the budget, for the judge's model.
    expect(budget.replies.length).toBe(sent);
    // A refused verdict is never cached: the next invocation, with budget left, asks again.
    const again = await runJudge({
      config: { ...CFG, samples },
      profile: "generic",
      workspace: ws,
      baseline: { passed: [], failed: [] },
      rubricCriteria: [],
      transport: scripted([good(0.5), good(0.5)]),
      cache,
    });
    expect(again?.cached).toBe(reason === "");
  });
});

describe("a gate on a judge dimension the budget left N/A", () => {
  it("fails with the cause budget, not on the remaining runs", async () => {
    const refused = await runJudge({
      config: CFG,
      profile: "generic",
      workspace: ws,
      baseline: { passed: [], failed: [] },
      rubricCriteria: [],
      transport: scripted([good(0.9)]),
      budget: budgetOf(0),
    });
    const reports = [
      { ...makeReport({ treatment: "T", rep: 1 }), judge: makeJudgeBlock({ task_completion: 1 }) },
      { ...makeReport({ treatment: "T", rep: 2 }), judge: refused },
    ];
    const v = judgeDimensionValue(reports, "T", "task_completion");
    expect(v.value).toBeNull();
    expect(v.why).toMatch(
      /N\/A on 1 of 2 run\(s\) of T \([^:]*-r2: judge failed: budget: the budget has \$0\.0000 left/,
    );
  });
});
