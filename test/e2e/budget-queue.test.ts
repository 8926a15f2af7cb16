/**
 * A budget shared by the workers of a queued experiment (docs/budgets.md, docs/distributed.md):
 * a real redis-server, two `skillbench worker` processes and `run --queue` as the coordinator,
 * through the built CLI with the real claude binary against the budget suite's scripted model.
 * Each worker meters its runs (its sandbox relay in front of its model tap) and adds their spend
 * to one Redis counter, which every worker reads before it starts a run and after each reply.
 *
 * Six runs of 2,200 tokens each (two replies of 1,100) under a budget of 5,000: a worker alone
 * would see only its own spend and run all six (13,200 tokens). Shared, no run starts once the
 * experiment's spend reaches the budget, and a run under way that crosses it is stopped; so at
 * most the two runs under way at once go past it (2 × 2,200). Every wait is on an observable
 * event. Up to 6 claude spawns.
 *
 * A judge across the workers: two runs, each judged on the worker that ran it, the judge's
 * spend added to the same Redis counter, read back by the coordinator for metadata.json
 * `budget.judge`; then a `--resume` with nothing left to run keeps that total. 2 claude spawns.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fixtureSuite,
  makeSandbox,
  readRunReport,
  reportedRunIds,
  runCli,
  startCli,
  waitUntil,
  type Sandbox,
  type StartedCli,
} from "../helpers/cli.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

const SUITE = fixtureSuite("budget");
const KEYED = { SKILLBENCH_QUEUE_KEY: "budget-key-5c2e9a7b1d3f4068" };

let redis: TestRedis;
let box: Sandbox;
const workers: Array<{ box: Sandbox; cli: StartedCli }> = [];

beforeAll(async () => {
  redis = await startRedis({});
  box = await makeSandbox("budget-queue");
  for (const name of ["b1", "b2"]) {
    const wbox = await makeSandbox(`budget-queue-${name}`);
    const cli = startCli(
      [
        "worker",
        "--queue",
        redis.url(1),
        "-j",
        "1",
        "--cache-dir",
        wbox.dir("cache"),
        "--work-dir",
        wbox.dir("work"),
        "--name",
        name,
      ],
      { env: wbox.env(KEYED), detached: true },
    );
    await waitUntil(async () => /ready: /.test(cli.stderrSoFar()), cli.done, `${name} ready`);
    workers.push({ box: wbox, cli });
  }
}, 60_000);

afterAll(async () => {
  for (const w of workers) {
    if (w.cli.child.exitCode === null && w.cli.child.signalCode === null)
      w.cli.child.kill("SIGKILL");
    await w.cli.done.catch(() => undefined);
    await w.box.remove();
  }
  await box?.remove();
  await redis?.stop();
});

describe("a budget across two queue workers", () => {
  it("holds: no run starts once the shared spend reaches it, the rest are left unrun, none failed", async () => {
    const out = box.dir("queued");
    const cli = await runCli(
      [
        "run",
        SUITE,
        "--model-script",
        path.join(SUITE, "model-script.yaml"),
        "--out",
        out,
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
        "--no-html",
        "--task",
        "cheap",
        "-n",
        "6",
        "--budget-tokens",
        "5000",
        "--queue",
        redis.url(1),
      ],
      { env: box.env(KEYED) },
    );
    expect(cli.code, cli.stderr).toBe(1);
    const ids = await reportedRunIds(out);
    const reports = await Promise.all(ids.map((id) => readRunReport(out, id)));
    // Some ran, not all: the workers shared what was spent.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.length).toBeLessThan(6);
    for (const r of reports) {
      expect(["completed", "budget"]).toContain(r.outcome);
      expect(r.status).not.toBe("failed");
      expect(r.metered).toBeDefined();
    }
    const spent = reports.reduce((n, r) => n + (r.metered?.total_tokens ?? 0), 0);
    expect(spent).toBeGreaterThanOrEqual(4400);
    expect(spent).toBeLessThanOrEqual(5000 + 2 * 2200);
    const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
      budget: { unrun: string[]; spent_tokens: number; refused: string | null };
    };
    expect(meta.budget.unrun).toHaveLength(6 - reports.length);
    expect(meta.budget.spent_tokens).toBe(spent);
    expect(cli.stderr).toMatch(/unrun \(budget\)/);
  }, 240_000);

  it("counts every worker's judge calls in the shared counter: metadata.json budget.judge is their sum, and a --resume keeps it (not doubled)", async () => {
    const out = box.dir("judged");
    const judged = (...extra: string[]): string[] => [
      "run",
      SUITE,
      "--model-script",
      path.join(SUITE, "model-script-judge.yaml"),
      "--out",
      out,
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      "--no-html",
      "--task",
      "cheap",
      "-n",
      "2",
      "--judge",
      "--judge-model",
      "scripted-judge",
      // A budget none of it reaches: the judge's calls are metered apart, on each worker.
      "--budget-tokens",
      "1000000",
      "--queue",
      redis.url(1),
      ...extra,
    ];
    type Meta = {
      budget: {
        spent_tokens: number;
        judge?: { calls: number; refused: number; tokens: number; unpriced: string[] };
      };
    };
    const readMeta = async (): Promise<Meta> =>
      JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as Meta;
    const cli = await runCli(judged(), { env: box.env(KEYED) });
    expect(cli.code, cli.stderr).toBe(0);
    const reports = await Promise.all(
      (await reportedRunIds(out)).map((id) => readRunReport(out, id)),
    );
    expect(reports).toHaveLength(2);
    // Each run judged on the worker that ran it (which one is the queue's choice): the
    // coordinator itself asks no judge, so what it records is what the workers added to Redis.
    let judgeTokens = 0;
    for (const r of reports) {
      expect(r.queue?.worker).toMatch(/^b[12]$/);
      expect(r.judge?.status).toBe("enabled_and_successful");
      expect(r.judge?.calls).toBe(1);
      judgeTokens += (r.judge?.tokens?.input ?? 0) + (r.judge?.tokens?.output ?? 0);
    }
    expect(judgeTokens).toBe(2 * 320);
    const first = await readMeta();
    expect(first.budget.judge).toEqual({
      calls: 2,
      refused: 0,
      usd: 0,
      tokens: judgeTokens,
      // The judge model is not in the pricing table: its tokens count, not its dollars.
      unpriced: ["scripted-judge"],
    });
    expect(first.budget.spent_tokens).toBe(
      reports.reduce((n, r) => n + (r.metered?.total_tokens ?? 0), 0),
    );
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toContain(
      `The LLM judge spent $0.0000, ${judgeTokens} tokens apart from the runs (2 call(s); unpriced, tokens only: scripted-judge;`,
    );
    // Resumed with nothing left to run: the judge's spend is still the experiment's total, the
    // earlier invocation's (metadata.json) and none again from the counter it left in Redis.
    const resumed = await runCli(judged("--resume"), { env: box.env(KEYED) });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await readMeta()).budget.judge).toEqual(first.budget.judge);
  }, 240_000);
});
