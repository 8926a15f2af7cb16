/**
 * The run index is always there (docs/ARCHITECTURE.md, "Run digests and the run index"): a run
 * collected from a queue worker is committed to `.run-index.jsonl` as it arrives
 * (queue/transfer.ts), before any report of the experiment is written, not rebuilt by the first
 * reading. Also: `--shard` over the queue runs the shard's slice.
 *
 * A real redis-server (test/helpers/redis.ts), one worker at -j 1, the coordinator with the
 * e2e-queue suite's scripted model. Waits are on observable files, never sleeps; the worker
 * reaches Redis through a proxy that can hold its replies (the second run, below).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fixtureSuite,
  makeSandbox,
  reportedRunIds,
  startCli,
  waitUntil,
  type Sandbox,
  type StartedCli,
} from "../helpers/cli.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { startHoldingProxy, type HoldingProxy } from "../helpers/redis-hold-proxy.js";

const SUITE = fixtureSuite("e2e-queue");
const KEYED = { SKILLBENCH_QUEUE_KEY: "queue-index-key-4b7e1d9a" };

let redis: TestRedis;
let box: Sandbox;
let wbox: Sandbox;
let proxy: HoldingProxy;
let worker: StartedCli;

beforeAll(async () => {
  redis = await startRedis();
  box = await makeSandbox("queue-index");
  wbox = await makeSandbox("queue-index-worker");
  proxy = await startHoldingProxy(redis.port);
  worker = startCli(
    ["worker", "--queue", proxy.url(redis.url(1)), "-j", "1"].concat([
      "--cache-dir",
      wbox.dir("cache"),
      "--work-dir",
      wbox.dir("work"),
    ]),
    { env: wbox.env(KEYED), detached: true },
  );
  await waitUntil(async () => /ready: /.test(worker.stderrSoFar()), worker.done, "worker ready");
}, 120_000);

afterAll(async () => {
  if (worker.child.exitCode === null && worker.child.signalCode === null)
    worker.child.kill("SIGKILL");
  await worker.done.catch(() => undefined);
  await wbox.remove();
  await proxy.close();
  await box.remove();
  await redis.stop();
});

/** The run lines of an index file (header and shared values left out), split on tabs. */
async function runLines(file: string): Promise<string[][]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .split("\n")
    .slice(1)
    .filter((l) => l !== "" && !l.startsWith("\t"))
    .map((l) => l.split("\t"));
}

describe("the run index of a queue run", () => {
  it("holds a collected run before any report is written", async () => {
    const out = box.dir("queued");
    const index = path.join(out, ".run-index.jsonl");
    const coordinator = startCli(
      [
        "run",
        SUITE,
        "--model-script",
        path.join(SUITE, "model-script.yaml"),
        "--out",
        out,
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
        "--task",
        "tone,needs-skill",
        "--shard",
        "1/2",
        "--exit-zero",
        "--queue",
        redis.url(1),
      ],
      { env: box.env(KEYED), detached: true },
    );
    // The worker runs one run at a time. Each run record it stores has the reply held until
    // the test lets it go: the first is let go once the second hold is armed; the second
    // once the first run is in the index. So the second run cannot end (and be collected)
    // before the index is read, whatever the load (polling alone raced the second run's end).
    const RESULTS = "skillbench:artifact:result/";
    const stored = (held: Promise<() => void>) =>
      Promise.race([
        held,
        coordinator.done.then((r) => {
          throw new Error(`the run ended before its worker stored a record:\n${r.stderr}`);
        }),
      ]);
    const releaseFirst = await stored(proxy.holdRepliesAfter(RESULTS));
    const secondHeld = proxy.holdRepliesAfter(RESULTS);
    releaseFirst();
    const releaseSecond = await stored(secondHeld);
    try {
      await waitUntil(
        async () => (await runLines(index)).length > 0,
        coordinator.done,
        "a run in the index",
      );
      expect(existsSync(path.join(out, "summary.md"))).toBe(false);
      const first = await runLines(index);
      expect(first).toHaveLength(1);
      // Appended at commit: a line naming no shared values (an index rebuilt by a reading would).
      expect(first[0]?.[2]).toBe("");
    } finally {
      releaseSecond();
    }
    const res = await coordinator.done;
    expect(res.code, res.stderr).toBe(0);
    // The shard's slice: the needs-skill pair (tone is shard 2/2).
    expect(await reportedRunIds(out)).toEqual([
      "needs-skill-CONTROL-r1",
      "needs-skill-WITH_SKILL-r1",
    ]);
    // Both lines appended as the runs arrived; the end of the run found them current.
    const all = await runLines(index);
    expect(all.map((l) => l[0]).sort()).toEqual(await reportedRunIds(out));
    for (const l of all) expect(l[2]).toBe("");
  });
});
