/**
 * Distributed runs end to end (docs/distributed.md): a real redis-server on a loopback port,
 * three `skillbench worker` processes each in its own temporary folder (HOME, TMPDIR, suite
 * cache, scratch: no shared filesystem with the coordinator but the model script's server),
 * and `skillbench run --queue` as the coordinator, all through the built CLI with the real
 * claude binary against the e2e-queue suite's scripted model.
 *
 * Every wait is on an observable event (a line a process printed, a model request in the log,
 * a queue count), never a fixed sleep. Each scenario uses its own Redis database.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import {
  fixtureSuite,
  killStrays,
  makeSandbox,
  readJsonLines,
  readRunReport,
  reportedRunIds,
  resultsSection,
  runCli,
  startCli,
  waitUntil,
  type CliResult,
  type Sandbox,
  type StartedCli,
} from "../helpers/cli.js";
import { Redis } from "ioredis";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { startHoldingProxy } from "../helpers/redis-hold-proxy.js";
import { queueStatus } from "../../src/queue/admin.js";
import { parseQueueUrl } from "../../src/queue/url.js";

const SUITE = fixtureSuite("e2e-queue");
const SCRIPT = path.join(SUITE, "model-script.yaml");
const PASSWORD = "queue-pass-Zq81x";
/** The shared key of the coordinator and its workers (SKILLBENCH_QUEUE_KEY). */
const KEY = "queue-key-7f3a9c1e5b2d4680";
const KEYED = { SKILLBENCH_QUEUE_KEY: KEY };

let redis: TestRedis;
let box: Sandbox;
const workers: Array<{ name: string; box: Sandbox; cli: StartedCli }> = [];

function runArgs(out: string, url: string, ...extra: string[]): string[] {
  return [
    "run",
    SUITE,
    "--model-script",
    SCRIPT,
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--no-html",
    ...(url ? ["--queue", url] : []),
    ...extra,
  ];
}

function startWorker(name: string, db: number, ...extra: string[]) {
  return startWorkerAt(name, redis.url(db), ...extra);
}

/** A worker on the queue at `url` (a proxy in front of the test's Redis, say). */
async function startWorkerAt(name: string, url: string, ...extra: string[]) {
  const wbox = await makeSandbox(`queue-${name}`);
  const cli = startCli(
    [
      "worker",
      "--queue",
      url,
      "-j",
      "1",
      "--cache-dir",
      wbox.dir("cache"),
      "--work-dir",
      wbox.dir("work"),
      "--name",
      name,
      ...extra,
    ],
    { env: wbox.env(KEYED), detached: true },
  );
  await waitUntil(async () => /ready: /.test(cli.stderrSoFar()), cli.done, `${name} ready`);
  const w = { name, box: wbox, cli };
  workers.push(w);
  return w;
}

async function stopWorker(w: { box: Sandbox; cli: StartedCli }): Promise<CliResult> {
  if (w.cli.child.exitCode === null && w.cli.child.signalCode === null) w.cli.child.kill("SIGTERM");
  return w.cli.done;
}

/** A report without what legitimately differs between two executions of the same run. */
function normalise(r: RunReport): unknown {
  const drop = new Set(["timing", "timestamp", "experiment_id", "run_uuid", "queue"]);
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === "string")
      return v
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
        .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
        .replace(/dur=[\d.]+s/g, "dur=<s>");
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === "object")
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !drop.has(k) && !/duration|_ms$|session/.test(k))
          .map(([k, x]) => [k, walk(x, k)]),
      );
    return v;
  };
  return walk(r, "");
}

function startedLines(w: { cli: StartedCli }, experiment: string): string[] {
  return w.cli
    .stderrSoFar()
    .split("\n")
    .filter((l) => l.includes("started ") && l.includes(experiment));
}

async function experimentId(out: string): Promise<string> {
  const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
    experiment_id: string;
  };
  return meta.experiment_id;
}

/** The queue's counts, read in this process (polling through the CLI would cost a node start each time). */
async function queueCounts(db: number): Promise<Record<string, number>> {
  return (await queueStatus(parseQueueUrl(redis.url(db)))).counts;
}

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  box = await makeSandbox("queue");
});

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

describe("run --queue with three workers", () => {
  const DB = 1;
  let local: string;
  let queued: string;
  let queuedRes: CliResult;

  beforeAll(async () => {
    for (const n of ["w1", "w2", "w3"]) await startWorker(n, DB, "--lock-duration", "2");
    local = box.dir("local");
    queued = box.dir("queued");
    const sel = ["--task", "tone,needs-skill"];
    const [l, q] = await Promise.all([
      runCli(runArgs(local, "", ...sel, "-j", "2"), { env: box.env(KEYED) }),
      runCli(runArgs(queued, redis.url(DB), ...sel), { env: box.env(KEYED) }),
    ]);
    expect(l.code).toBe(1);
    queuedRes = q;
  }, 300_000);

  it("writes the same results folder as a local run", async () => {
    expect(queuedRes.code).toBe(1); // as locally: the CONTROL runs fail
    const ids = await reportedRunIds(queued);
    expect(ids).toEqual(await reportedRunIds(local));
    expect(ids).toHaveLength(4);
    for (const id of ids) {
      const q = await readRunReport(queued, id);
      const l = await readRunReport(local, id);
      expect(normalise(q)).toEqual(normalise(l));
      expect(q.queue?.attempts).toBe(1);
      expect(q.queue?.lost_attempts).toEqual([]);
      expect(["w1", "w2", "w3"]).toContain(q.queue?.worker);
      // The run folder travelled whole: transcript, evidence, validation, saved workspace.
      const files = await readdir(path.join(queued, "runs", id));
      expect(files.sort()).toEqual((await readdir(path.join(local, "runs", id))).sort());
    }
    // summary.md's results table: equal but for the mean duration column.
    const results = async (dir: string) =>
      resultsSection(await readFile(path.join(dir, "summary.md"), "utf8")).replace(
        /\| [\d.]+s \|/g,
        "| <s> |",
      );
    expect(await results(queued)).toEqual(await results(local));
    // The coordinator's scripted model served the workers: one log, the same requests.
    const key = (l: Record<string, unknown>) => JSON.stringify([l.run, l.rule, l.step, l.outcome]);
    const reqs = async (dir: string) =>
      (await readJsonLines(path.join(dir, "model-requests.jsonl"))).map(key).sort();
    expect(await reqs(queued)).toEqual(await reqs(local));
  });

  it("each received run is committed to the run index as it arrives, as a local run is", async () => {
    const lines = (await readFile(path.join(queued, ".run-index.jsonl"), "utf8"))
      .split("\n")
      .slice(1)
      .filter((l) => l !== "");
    const ids = await reportedRunIds(queued);
    expect(lines.map((l) => l.split("\t")[0]).sort()).toEqual([...ids].sort());
    // Lines appended at commit name no shared values (a rebuilt index would); the end of the
    // run and `report` found them current and kept them.
    for (const l of lines) expect(l.split("\t")[2]).toBe("");
  });

  it("moves the suite by content hash: uploaded once, cached by each worker that ran", async () => {
    expect(queuedRes.stderr).toMatch(/suite bundle [0-9a-f]{12} .* uploaded/);
    const used = workers.filter((w) => startedLines(w, "").length > 0);
    expect(used.length).toBeGreaterThanOrEqual(1);
    for (const w of used) {
      const cached = (await readdir(w.box.dir("cache"))).filter((f) => !f.startsWith("."));
      expect(cached).toHaveLength(1);
      expect(cached[0]).toMatch(/^[0-9a-f]{64}$/);
    }
    // A second experiment on the same suite finds it stored.
    const again = await runCli(
      runArgs(box.dir("again"), redis.url(DB), "--task", "tone", "--treatment", "CONTROL"),
      { env: box.env(KEYED) },
    );
    expect(again.stderr).toMatch(/suite bundle [0-9a-f]{12} .* already stored/);
  });

  it("never shows or saves the queue password", async () => {
    expect(queuedRes.stderr).toContain("redis://:***@127.0.0.1");
    for (const w of workers) expect(w.cli.stderrSoFar()).not.toContain(PASSWORD);
    expect(queuedRes.stderr + queuedRes.stdout).not.toContain(PASSWORD);
    const { filesUnder } = await import("../helpers/cli.js");
    for (const f of await filesUnder(queued)) {
      const text = await readFile(path.join(queued, f), "utf8").catch(() => "");
      expect(text, f).not.toContain(PASSWORD);
    }
  });

  it("a worker killed mid-run: another takes the run after its lock expires; the lost attempt is noise, not a failure", async () => {
    const out = box.dir("killed");
    const coord = startCli(
      runArgs(out, redis.url(DB), "--task", "hold", "--treatment", "CONTROL", "-n", "2"),
      {
        env: box.env(KEYED),
        detached: true,
      },
    );
    // hold r1's first request hangs in the coordinator's scripted model: the run is in flight.
    const log = path.join(out, "model-requests.jsonl");
    await waitUntil(
      async () =>
        (await readJsonLines(log).catch(() => [])).some(
          (l) => (l.rule as { name?: string } | null)?.name === "hold-hang-once",
        ),
      coord.done,
      "the hanging request",
    );
    const exp = await experimentId(out);
    const holder = workers.find((w) =>
      startedLines(w, exp).some((l) => l.includes("hold-CONTROL-r1")),
    );
    expect(holder).toBeDefined();
    if (!holder) return;
    // Lose the host: the worker and its agent, without a word to the queue.
    holder.cli.child.kill("SIGKILL");
    await holder.cli.done;
    await killStrays(holder.box.root);
    const res = await coord.done;
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(
      /hold-CONTROL-r1: its worker was lost; the run goes back to the queue/,
    );
    const r1 = await readRunReport(out, "hold-CONTROL-r1");
    expect(r1.status).toBe("passed");
    expect(r1.queue?.attempts).toBe(2);
    expect(r1.queue?.lost_attempts).toHaveLength(1);
    expect(r1.queue?.lost_attempts[0]?.worker).toBe(holder.name);
    expect(r1.queue?.worker).not.toBe(holder.name);
    // r2's first reply takes 4 s under a 2 s lock: renewed, never taken from its worker.
    const r2 = await readRunReport(out, "hold-CONTROL-r2");
    expect(r2.status).toBe("passed");
    expect(r2.queue?.attempts).toBe(1);
    expect(r2.queue?.lost_attempts).toEqual([]);
    expect(r2.timing.wall_ms).toBeGreaterThan(4000);
    // A replacement for the lost worker.
    await startWorker(`${holder.name}b`, DB, "--lock-duration", "2");
  });

  it("SIGTERM drains a worker: its running run finishes and it takes no other", async () => {
    // The worker reaches Redis through a proxy that holds its replies once it has stored its
    // first run's record: that run cannot end (nor the worker take the next) before the test's
    // SIGTERM was handled. Without the hold, a run that ended between the test seeing "started"
    // and the signal let the worker start the second run under load.
    const proxy = await startHoldingProxy(redis.port);
    try {
      const w = await startWorkerAt("w-term", proxy.url(redis.url(2)), "--lock-duration", "2");
      const out = box.dir("term");
      const held = proxy.holdRepliesAfter("skillbench:artifact:result/");
      const coord = startCli(runArgs(out, redis.url(2), "--task", "tone"), {
        env: box.env(KEYED),
        detached: true,
      });
      const release = await Promise.race([
        held,
        coord.done.then((r) => {
          throw new Error(`the run ended before its worker stored a record:\n${r.stderr}`);
        }),
      ]);
      w.cli.child.kill("SIGTERM");
      await waitUntil(
        async () => /SIGTERM: draining/.test(w.cli.stderrSoFar()),
        w.cli.done,
        "the drain begun",
      );
      release();
      const wres = await w.cli.done;
      expect(wres.code).toBe(0);
      expect(wres.stderr).toMatch(/SIGTERM: draining/);
      const started = wres.stderr.split("\n").filter((l) => /started tone-/.test(l));
      const finished = wres.stderr.split("\n").filter((l) => /finished tone-/.test(l));
      expect(started).toHaveLength(1);
      expect(finished).toHaveLength(1);
      // The other run waits for a worker; one more completes the experiment.
      const w2 = await startWorker("w-term2", 2, "--lock-duration", "2");
      const res = await coord.done;
      expect(res.code).toBe(1); // tone-CONTROL fails, as locally
      const ids = await reportedRunIds(out);
      expect(ids).toEqual(["tone-CONTROL-r1", "tone-WITH_SKILL-r1"]);
      const by = await Promise.all(ids.map(async (id) => (await readRunReport(out, id)).queue));
      expect(by.map((q) => q?.worker).sort()).toEqual(["w-term", "w-term2"]);
      expect(by.every((q) => q?.lost_attempts.length === 0)).toBe(true);
      await stopWorker(w2);
    } finally {
      await proxy.close();
    }
  });
});

describe("the coordinator, the operator and the rate limit", () => {
  const DB = 3;

  beforeAll(async () => {
    for (const n of ["c1", "c2", "c3"]) await startWorker(n, DB);
  }, 120_000);

  it("a coordinator killed and resumed loses nothing; enqueueing again is a no-op", async () => {
    const url = redis.url(DB);
    expect((await runCli(["queue", "pause", "--queue", url], { env: box.env(KEYED) })).code).toBe(
      0,
    );
    const out = box.dir("resumed");
    const first = startCli(runArgs(out, url, "--task", "tone"), {
      env: box.env(KEYED),
      detached: true,
    });
    await waitUntil(async () => (await queueCounts(DB)).prioritized === 2, first.done, "2 queued");
    first.child.kill("SIGKILL");
    await first.done;
    // While no coordinator is there, the workers take the runs, find its scripted model gone and
    // leave them waiting (no attempt spent) rather than run them against a dead server.
    expect((await runCli(["queue", "resume", "--queue", url], { env: box.env(KEYED) })).code).toBe(
      0,
    );
    const waitingFor = (id: string): boolean =>
      workers.some((w) =>
        w.cli.stderrSoFar().includes(`/${id}: its coordinator's scripted model at`),
      );
    await waitUntil(
      async () => waitingFor("tone-CONTROL-r1") && waitingFor("tone-WITH_SKILL-r1"),
      new Promise(() => {}),
      "2 runs waiting for their coordinator",
    );
    const res = await runCli(runArgs(out, url, "--task", "tone", "--resume"), {
      env: box.env(KEYED),
    });
    expect(res.stderr).toMatch(/re-attached to 2 run\(s\) already in the queue/);
    // Both ran against the resumed coordinator's model, none excluded as noise.
    for (const id of await reportedRunIds(out))
      expect((await readRunReport(out, id)).sample_quality.include_in_analysis, id).toBe(true);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1", "tone-WITH_SKILL-r1"]);
    // Each run ran once: one start line per run over all workers, one job per run.
    const exp = await experimentId(out);
    const starts = workers.flatMap((w) => startedLines(w, exp));
    expect(starts).toHaveLength(2);
    expect((await queueCounts(DB)).completed).toBe(2);
    expect(res.code).toBe(1);
    // A third coordinator on the complete folder has nothing to do.
    const again = await runCli(runArgs(out, url, "--task", "tone", "--resume"), {
      env: box.env(KEYED),
    });
    expect(again.stderr).toMatch(/0 to run, 2 already complete/);
  });

  it("--rate-limit holds across all workers, as the gate's slots in Redis and the model's request log show", async () => {
    const out = box.dir("limited");
    // Each slot the gate admits is a ZADD of the Redis server's time (its sliding window,
    // queue/model-tap.ts), seen here through MONITOR in the order Redis ran them. Measured on the
    // model's log alone, the spacing also held each request's hop from gate to model, which a
    // loaded machine can stretch past any slack: the window is checked where it is kept.
    const watcher = new Redis(redis.url(DB));
    const monitor = await watcher.monitor();
    const admitted: number[] = [];
    const END = `rate-limit-test-end-${process.pid}`;
    let ended = false;
    monitor.on("monitor", (_time: string, args: unknown[]) => {
      const [cmd, key, score] = args.map(String);
      if (cmd?.toUpperCase() === "ZADD" && key?.startsWith("skillbench:rate:"))
        admitted.push(Number(score));
      if (cmd?.toUpperCase() === "ECHO" && key === END) ended = true;
    });
    let res: CliResult;
    try {
      res = await runCli(
        runArgs(out, redis.url(DB), "--task", "tone,needs-skill", "--rate-limit", "2/s"),
        { env: box.env(KEYED) },
      );
      // MONITOR lists commands in the order Redis ran them: once this one is seen, so is
      // every slot the experiment took.
      const admin = new Redis(redis.url(DB));
      await admin.echo(END);
      admin.disconnect();
      await waitUntil(async () => ended, new Promise(() => undefined), "the monitor caught up");
    } finally {
      monitor.disconnect();
      watcher.disconnect();
    }
    expect(res.code).toBe(1);
    expect(await reportedRunIds(out)).toHaveLength(4);
    const times = (await readJsonLines(path.join(out, "model-requests.jsonl")))
      .filter((l) => /\/v1\/messages(\?|$)/.test(String(l.path)))
      .map((l) => Date.parse(String(l.time)))
      .sort((a, b) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(8);
    // Every request that reached the model took a slot first: one slot each, and the i-th
    // arrival no earlier than the i-th slot (one machine, one clock).
    admitted.sort((a, b) => a - b);
    expect(admitted).toHaveLength(times.length);
    for (let i = 0; i < times.length; i++)
      expect(times[i] ?? 0).toBeGreaterThanOrEqual(admitted[i] ?? Infinity);
    // No third slot within a second of the one two before it (Redis's own clock, no slack).
    // Unlimited, these requests come in bursts.
    for (let i = 2; i < admitted.length; i++)
      expect((admitted[i] ?? 0) - (admitted[i - 2] ?? 0)).toBeGreaterThanOrEqual(1000);
    const span = (admitted.at(-1) ?? 0) - (admitted[0] ?? 0);
    expect(span).toBeGreaterThanOrEqual((Math.ceil(admitted.length / 2) - 1) * 1000);
  });

  it("queue drain removes the waiting runs; the coordinator reports them not completed", async () => {
    const url = redis.url(DB);
    await runCli(["queue", "pause", "--queue", url], { env: box.env(KEYED) });
    const out = box.dir("drained");
    const coord = startCli(runArgs(out, url, "--task", "tone"), { env: box.env(KEYED) });
    await waitUntil(async () => (await queueCounts(DB)).prioritized === 2, coord.done, "queued");
    const status = await runCli(["queue", "status", "--queue", url], { env: box.env(KEYED) });
    expect(status.stdout).toMatch(/PAUSED/);
    expect(status.stdout).toMatch(/workers 3/);
    const drained = await runCli(["queue", "drain", "--queue", url], { env: box.env(KEYED) });
    expect(drained.stdout).toMatch(/2 waiting run\(s\) removed/);
    const res = await coord.done;
    expect(res.stderr).toMatch(/removed from the queue \(drained\)/);
    expect(res.stdout).toMatch(/2 not completed \(rerun with --resume/);
    expect(await reportedRunIds(out)).toEqual([]);
    await runCli(["queue", "resume", "--queue", url], { env: box.env(KEYED) });
  });

  it("--priority: a more urgent experiment's runs go first", async () => {
    const db = 4;
    const url = redis.url(db);
    await runCli(["queue", "pause", "--queue", url], { env: box.env(KEYED) });
    const low = startCli(runArgs(box.dir("low"), url, "--task", "tone", "--priority", "50"), {
      env: box.env(KEYED),
    });
    await waitUntil(async () => (await queueCounts(db)).prioritized === 2, low.done, "low queued");
    const high = startCli(
      runArgs(box.dir("high"), url, "--task", "needs-skill", "--priority", "1"),
      { env: box.env(KEYED) },
    );
    await waitUntil(async () => (await queueCounts(db)).prioritized === 4, high.done, "4 queued");
    const w = await startWorker("prio", db);
    await runCli(["queue", "resume", "--queue", url], { env: box.env(KEYED) });
    await Promise.all([low.done, high.done]);
    const order = startedLines(w, "").map((l) => /started (\S+)/.exec(l)?.[1]);
    expect(order).toHaveLength(4);
    expect(order.slice(0, 2).every((id) => id?.startsWith("needs-skill-"))).toBe(true);
    expect(order.slice(2).every((id) => id?.startsWith("tone-"))).toBe(true);
    await stopWorker(w);
  });
});
