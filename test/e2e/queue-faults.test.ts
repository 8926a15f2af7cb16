/**
 * The queue's faults, each with a bound (issue 40; docs/distributed.md "Failure semantics" and
 * "Security"): a real redis-server on a loopback port (killed and restarted where the scenario
 * needs it), `skillbench worker` processes in their own folders and `skillbench run --queue` as
 * the coordinator, through the built CLI with the real claude binary against a scripted model.
 * Every wait is on something a process printed or Redis holds, never a fixed sleep.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fixtureSuite,
  makeSandbox,
  readRunReport,
  reportedRunIds,
  runCli,
  startCli,
  waitUntil,
  type CliResult,
  type Sandbox,
  type StartedCli,
} from "../helpers/cli.js";
import { startRedis, unusedPort, type TestRedis } from "../helpers/redis.js";
import { startHoldingProxy, type HoldingProxy } from "../helpers/redis-hold-proxy.js";
import { packRunRecord, writeRunRecord } from "../../src/queue/transfer.js";
import { rescoreContext } from "../../src/runner/rescore-context.js";
import { rescoreRun } from "../../src/runner/rescore-run.js";
import { readSuiteSnapshot } from "../../src/store/suite-snapshot.js";

const SUITE = fixtureSuite("e2e-queue");
const PASSWORD = "faults-pass-Q19c";
const KEY = "faults-key-0c5e8a1f93b7d246";

/**
 * The e2e-queue suite's `hold` task with a first reply 3 s late for every rep: a run stays in
 * flight long enough to lose its coordinator or its Redis mid-run, and a rerun against a new
 * coordinator's model behaves the same (no once-per-server fault).
 */
const SCRIPT = `version: 1
defaults:
  model: claude-e2e-mock
  usage: {input_tokens: 100, output_tokens: 10}
rules:
  - name: hold-slow
    when: {task: hold}
    steps:
      - tool_use: {name: Write, input: {file_path: held.txt, content: "held\\n"}}
        delay_ms: 3000
      - text: "Wrote held.txt."
  - name: tone-control
    when: {task: tone}
    steps:
      - tool_use: {name: Write, input: {file_path: greeting.txt, content: "hi\\n"}}
      - text: "Wrote greeting.txt."
`;

let box: Sandbox;
let script: string;
const started: Array<{ box: Sandbox; cli: StartedCli }> = [];

const env = (extra: Record<string, string> = {}) =>
  box.env({ SKILLBENCH_QUEUE_KEY: KEY, ...extra });

function runArgs(out: string, url: string, ...extra: string[]): string[] {
  return [
    "run",
    SUITE,
    "--model-script",
    script,
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--no-html",
    "--queue",
    url,
    ...extra,
  ];
}

async function startWorker(name: string, url: string, ...extra: string[]) {
  const wbox = await makeSandbox(`faults-${name}`);
  const cli = startCli(
    [
      "worker",
      "--queue",
      url,
      "--cache-dir",
      wbox.dir("cache"),
      "--work-dir",
      wbox.dir("work"),
      "--name",
      name,
      ...extra,
    ],
    { env: wbox.env({ SKILLBENCH_QUEUE_KEY: KEY }), detached: true },
  );
  started.push({ box: wbox, cli });
  await waitUntil(async () => /ready: /.test(cli.stderrSoFar()), cli.done, `${name} ready`);
  return cli;
}

async function stop(cli: StartedCli, signal: NodeJS.Signals = "SIGTERM"): Promise<CliResult> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill(signal);
  return cli.done;
}

/** Every key of a Redis database, for "nothing was left". */
async function keysOf(url: string): Promise<string[]> {
  const r = new Redis(url);
  try {
    return (await r.keys("*")).sort();
  } finally {
    r.disconnect();
  }
}

/** No stack trace, no "internal error", no raw ioredis dump. */
function clean(stderr: string): void {
  expect(stderr).not.toMatch(/internal error|\n\s+at |ECONNREFUSED|Connection is closed/);
}

beforeAll(async () => {
  box = await makeSandbox("faults");
  script = box.dir("model-script.yaml");
  await writeFile(script, SCRIPT);
});

afterAll(async () => {
  for (const s of started) {
    await stop(s.cli, "SIGKILL").catch(() => undefined);
    await s.box.remove();
  }
  await box?.remove();
});

describe("an unreachable, refusing or full queue", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
  });
  afterAll(async () => redis?.stop());

  it("a closed port: retried with backoff within the bound, then one line naming host, port and cause, exit 2", async () => {
    const port = await unusedPort();
    const url = `redis://127.0.0.1:${port}/0`;
    for (const args of [
      ["queue", "status", "--queue", url],
      ["worker", "--queue", url],
    ]) {
      const res = await runCli(args, { env: env({ SKILLBENCH_QUEUE_RETRY_SEC: "2" }) });
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr).toMatch(
        new RegExp(`cannot use the queue at 127\\.0\\.0\\.1:${port} .*connection refused`),
      );
      expect(res.stderr).toMatch(/trying again in 1 s/);
      expect(res.stderr).toMatch(/gave up after \d+ s/);
      clean(res.stderr);
    }
  });

  it("a wrong password: exit 2 at once, for status, worker and run --queue", async () => {
    const url = `redis://:wrong-password@127.0.0.1:${redis.port}/0`;
    for (const args of [
      ["queue", "status", "--queue", url],
      ["worker", "--queue", url],
      runArgs(box.dir("wrong-pass"), url, "--task", "tone"),
    ]) {
      const res = await runCli(args, { env: env() });
      expect(res.code, args[0]).toBe(2);
      expect(res.stderr).toMatch(
        new RegExp(`cannot use the queue at 127\\.0\\.0\\.1:${redis.port} .*refused the password`),
      );
      expect(res.stderr).not.toContain("wrong-password");
      expect(res.stderr).not.toMatch(/trying again/);
      clean(res.stderr);
    }
  });

  it("a transient outage: status says what it waits for and answers once Redis is there", async () => {
    const port = await unusedPort();
    const status = startCli(["queue", "status", "--queue", `redis://127.0.0.1:${port}/0`], {
      env: env({ SKILLBENCH_QUEUE_RETRY_SEC: "60" }),
    });
    await waitUntil(
      async () => /trying again in/.test(status.stderrSoFar()),
      status.done,
      "a retry",
    );
    const late = await startRedis({ port });
    try {
      const res = await status.done;
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/backlog 0/);
      expect(res.stderr).toMatch(/the queue at 127\.0\.0\.1:\d+ answers/);
    } finally {
      await late.stop();
    }
  });

  it("run --queue refuses an endpoint override, --env values never in clear in Redis, no key no run", async () => {
    const url = redis.url(5);
    const override = await runCli(
      runArgs(
        box.dir("override"),
        url,
        "--task",
        "tone",
        "--env",
        "ANTHROPIC_BASE_URL=http://elsewhere.invalid",
      ),
      { env: env() },
    );
    expect(override.code).toBe(2);
    expect(override.stderr).toMatch(
      /--env ANTHROPIC_BASE_URL: a queued run may not set a model endpoint/,
    );
    expect(await keysOf(url)).toEqual([]);
    // The judge's endpoint too: the judge runs on the worker, with the worker's credential.
    const judge = await runCli(
      runArgs(
        box.dir("judge-url"),
        url,
        "--task",
        "tone",
        "--judge-base-url",
        "http://elsewhere.invalid",
      ),
      { env: env() },
    );
    expect(judge.code).toBe(2);
    expect(judge.stderr).toMatch(
      /--judge-base-url: a queued run may not name the judge's endpoint/,
    );
    expect(await keysOf(url)).toEqual([]);

    const nokey = await runCli(runArgs(box.dir("nokey"), url, "--task", "tone"), {
      env: box.env(),
    });
    expect(nokey.code).toBe(2);
    expect(nokey.stderr).toMatch(/SKILLBENCH_QUEUE_KEY is not set/);

    // A declared value travels sealed: not in the job, not in any key.
    await runCli(["queue", "pause", "--queue", url], { env: env() });
    const coord = startCli(
      runArgs(
        box.dir("sealed"),
        url,
        "--task",
        "tone",
        "--treatment",
        "CONTROL",
        "--env",
        "SOME_SETTING=plain-value-7781",
      ),
      { env: env() },
    );
    const r = new Redis(url);
    try {
      await waitUntil(
        async () => (await r.keys("skillbench:experiment:*")).length === 1,
        coord.done,
        "enqueued",
      );
      let dump = "";
      for (const k of await r.keys("*"))
        if ((await r.type(k)) === "hash") dump += JSON.stringify(await r.hgetall(k));
      expect(dump).toContain("env_sealed");
      expect(dump).not.toContain("plain-value-7781");
      // Retention is bounded: finished jobs go after 14 days or beyond the 20,000 newest.
      for (const opt of ["removeOnComplete", "removeOnFail"])
        expect(dump).toContain(`\\"${opt}\\":{\\"age\\":1209600,\\"count\\":20000}`);
    } finally {
      r.disconnect();
    }
    await runCli(["queue", "drain", "--queue", url], { env: env() });
    await runCli(["queue", "resume", "--queue", url], { env: env() });
    expect((await coord.done).stderr).toMatch(/removed from the queue \(drained\)/);
  });

  it("a --sandbox local worker is refused without --allow-local-worker, and warned with it", async () => {
    const url = redis.url(6);
    const refused = await runCli(["worker", "--queue", url, "--sandbox", "local"], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--sandbox local on a worker .* --allow-local-worker/);
    const allowed = await startWorker(
      "local-ok",
      url,
      "--sandbox",
      "local",
      "--allow-local-worker",
    );
    expect(allowed.stderrSoFar()).toMatch(/warning: --sandbox local on a worker/);
    expect((await stop(allowed)).code).toBe(0);
  });

  it("Redis at maxmemory at enqueue: one clear line, exit 2, nothing of the experiment left", async () => {
    const full = await startRedis();
    try {
      const url = full.url(0);
      const r = new Redis(url);
      const used = Number(/used_memory:(\d+)/.exec(await r.info("memory"))?.[1]);
      // Room for the suite bundle and some jobs, not for 40: it fills half-way through the jobs.
      await r.config("SET", "maxmemory", String(used + 384 * 1024));
      await r.config("SET", "maxmemory-policy", "noeviction");
      r.disconnect();
      const res = await runCli(
        runArgs(box.dir("full"), url, "--task", "tone,needs-skill", "-n", "10"),
        { env: env({ SKILLBENCH_QUEUE_RETRY_SEC: "5" }) },
      );
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/suite bundle [0-9a-f]{12} .* uploaded/);
      expect(res.stderr).toMatch(
        /the queue at 127\.0\.0\.1:\d+ did not take the experiment: Redis is out of memory .*; nothing of it was left in the queue/,
      );
      clean(res.stderr);
      // No job, no bundle, no marker: only BullMQ's own bookkeeping may stay.
      const left = (await keysOf(url)).filter((k) => !/:(meta|id|pc|events|marker)$/.test(k));
      expect(left).toEqual([]);
    } finally {
      await full.stop();
    }
  });
});

describe("a queue or a coordinator lost mid-experiment", () => {
  it("Redis stopped mid-experiment: the coordinator exits on SIGINT within seconds; --resume finishes after Redis returns", async () => {
    const redis = await startRedis({ password: PASSWORD });
    try {
      const url = redis.url(0);
      const w = await startWorker("outage", url, "-j", "2");
      const out = box.dir("outage");
      const coord = startCli(
        runArgs(out, url, "--task", "hold", "--treatment", "CONTROL", "-n", "2"),
        {
          env: env(),
          detached: true,
        },
      );
      await waitUntil(
        async () => /started hold-CONTROL-r1/.test(w.stderrSoFar()),
        coord.done,
        "a run in flight",
      );
      await redis.kill();
      await waitUntil(
        async () => /lost the queue at 127\.0\.0\.1:\d+/.test(coord.stderrSoFar()),
        coord.done,
        "the outage said",
      );
      const t0 = Date.now();
      coord.child.kill("SIGINT");
      const res = await coord.done;
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(res.code).not.toBe(3);
      expect(res.code).not.toBe(0);
      clean(res.stderr);
      await redis.restart();
      await waitUntil(
        async () => /the queue at .* answers again/.test(w.stderrSoFar()),
        w.done,
        "the worker back",
      );
      // Redis came back empty: --resume enqueues what is missing and collects every run.
      const again = await runCli(
        runArgs(out, url, "--task", "hold", "--treatment", "CONTROL", "-n", "2", "--resume"),
        {
          env: env(),
        },
      );
      expect(again.code).toBe(0);
      clean(again.stderr);
      expect(await reportedRunIds(out)).toEqual(["hold-CONTROL-r1", "hold-CONTROL-r2"]);
      for (const id of await reportedRunIds(out)) {
        const r = await readRunReport(out, id);
        expect(r.status, id).toBe("passed");
        expect(r.sample_quality.include_in_analysis, id).toBe(true);
      }
      expect((await stop(w)).code).toBe(0);
    } finally {
      await redis.stop();
    }
  });

  it("Redis restarted empty under a following coordinator: its runs are called lost, not drained", async () => {
    const redis = await startRedis();
    try {
      const url = redis.url(0);
      const coord = startCli(runArgs(box.dir("emptied"), url, "--task", "tone"), { env: env() });
      // No worker: the runs stay queued until Redis loses them.
      const r = new Redis(url);
      await waitUntil(
        async () => (await r.keys("skillbench:experiment:*")).length === 1,
        coord.done,
        "enqueued",
      );
      r.disconnect();
      await redis.kill();
      await redis.restart();
      const res = await coord.done;
      expect(res.stderr).toMatch(
        /tone-CONTROL-r1: lost from the queue \(its Redis server lost its data/,
      );
      expect(res.stderr).not.toMatch(/drained/);
      expect(res.stdout).toMatch(/2 not completed \(rerun with --resume/);
      clean(res.stderr);
    } finally {
      await redis.stop();
    }
  });

  it("a scripted coordinator killed -9 mid-run and resumed: every run completes, none excluded as noise", async () => {
    const redis = await startRedis({ password: PASSWORD });
    try {
      const url = redis.url(0);
      const w = await startWorker("orphan", url, "-j", "2");
      const out = box.dir("orphan");
      const args = runArgs(out, url, "--task", "hold", "--treatment", "CONTROL", "-n", "2");
      const first = startCli(args, { env: env(), detached: true });
      await waitUntil(
        async () =>
          /started hold-CONTROL-r1/.test(w.stderrSoFar()) &&
          /started hold-CONTROL-r2/.test(w.stderrSoFar()),
        first.done,
        "both runs in flight",
      );
      first.child.kill("SIGKILL");
      await first.done;
      // Both runs lose their model mid-request; the worker keeps them waiting, not failed.
      await waitUntil(
        async () =>
          (w.stderrSoFar().match(/its coordinator's scripted model at .* does not answer/g) ?? [])
            .length >= 2,
        w.done,
        "the runs waiting for a coordinator",
      );
      const res = await runCli([...args, "--resume"], { env: env() });
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(/re-attached to 2 run\(s\) already in the queue/);
      for (const id of ["hold-CONTROL-r1", "hold-CONTROL-r2"]) {
        const r = await readRunReport(out, id);
        expect(r.status, id).toBe("passed");
        expect(r.sample_quality.include_in_analysis, id).toBe(true);
        // The attempt against the dead model is history, not the result.
        expect(r.queue?.lost_attempts[0]?.reason, id).toMatch(/scripted model stopped answering/);
      }
      expect((await stop(w)).code).toBe(0);
    } finally {
      await redis.stop();
    }
  });
});

describe("two coordinators on one results folder", () => {
  it("the second is refused with the holder named (exit 2); the first runs each run once", async () => {
    const redis = await startRedis({ password: PASSWORD });
    try {
      const url = redis.url(0);
      const w = await startWorker("two-coordinators", url);
      const out = box.dir("two-coordinators");
      const args = runArgs(out, url, "--task", "hold", "--treatment", "CONTROL", "-n", "1");
      const first = startCli(args, { env: env(), detached: true });
      // The first coordinator holds the folder while its run is in flight on the worker.
      await waitUntil(
        async () => /started hold-CONTROL-r1/.test(w.stderrSoFar()),
        first.done,
        "the first coordinator's run in flight",
      );
      const second = await runCli([...args, "--resume"], { env: env() });
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(/is being written by another skillbench \(pid \d+/);
      expect(second.stderr).not.toMatch(/internal error|\n\s+at /);
      const res = await first.done;
      expect(res.code, res.stderr).toBe(0);
      expect(await reportedRunIds(out)).toEqual(["hold-CONTROL-r1"]);
      // Each run was taken once: one attempt, by the first coordinator's job.
      expect((await readRunReport(out, "hold-CONTROL-r1")).queue?.attempts).toBe(1);
      expect(existsSync(path.join(out, ".skillbench.lock"))).toBe(false);
      expect((await stop(w)).code).toBe(0);
    } finally {
      await redis.stop();
    }
  });
});

describe("signed work: what was changed in Redis is refused and named", () => {
  let redis: TestRedis;
  let url: string;
  let worker: StartedCli;
  // The first worker reaches Redis through a proxy that can hold its replies (the tampered
  // record below); the proxy is transparent until armed.
  let proxy: HoldingProxy;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
    url = redis.url(0);
    proxy = await startHoldingProxy(redis.port);
    worker = await startWorker("signed", proxy.url(url));
  }, 60_000);
  afterAll(async () => {
    await stop(worker);
    await proxy?.close();
    await redis?.stop();
  });

  const tone = (out: string, ...extra: string[]) =>
    runArgs(out, url, "--task", "tone", "--treatment", "CONTROL", ...extra);

  it("a job pointed at a substituted bundle: the worker refuses it, the coordinator names it", async () => {
    await runCli(["queue", "pause", "--queue", url], { env: env() });
    const out = box.dir("substituted");
    const coord = startCli(tone(out), { env: env() });
    const r = new Redis(url);
    try {
      await waitUntil(
        async () => (await r.keys("skillbench:experiment:*")).length === 1,
        coord.done,
        "enqueued",
      );
      const [jobKey] = await r.keys("skillbench:skillbench-runs:*/tone-CONTROL-r1");
      expect(jobKey).toBeDefined();
      const data = JSON.parse((await r.hget(jobKey ?? "", "data")) ?? "{}") as { bundle: string };
      // Someone with write access stores another suite and points the job at it by its hash.
      const evil = Buffer.from("another suite altogether");
      const evilHash = createHash("sha256").update(evil).digest("hex");
      await r.set(`skillbench:artifact:bundle/${evilHash}`, evil);
      await r.hset(jobKey ?? "", "data", JSON.stringify({ ...data, bundle: evilHash }));
    } finally {
      r.disconnect();
    }
    await runCli(["queue", "resume", "--queue", url], { env: env() });
    const res = await coord.done;
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /tone-CONTROL-r1: failed on the queue after \d+ attempt\(s\): refused by worker signed: its signature does not match/,
    );
    expect(worker.stderrSoFar()).toMatch(
      /refused \S+\/tone-CONTROL-r1: its signature does not match/,
    );
    expect(worker.stderrSoFar()).not.toMatch(/started tone-CONTROL-r1/);
    expect(await reportedRunIds(out)).toEqual([]);
  });

  it("a record changed in the store on its way back: refused and named; --resume runs it again", async () => {
    const out = box.dir("tampered");
    const admin = new Redis(url);
    const RESULTS = "skillbench:artifact:result/";
    try {
      const before = new Set(await admin.keys(`${RESULTS}*`));
      // The worker's write of its run record reaches Redis; the reply to it (and so the
      // worker's report that the job is done, after which the coordinator reads the record)
      // waits until the test has overwritten the record: an ordering, not a race.
      const held = proxy.holdRepliesAfter(RESULTS);
      const run = runCli(tone(out), { env: env() });
      const release = await Promise.race([
        held,
        run.then((r) => {
          throw new Error(`the run ended before its worker stored a record:\n${r.stderr}`);
        }),
      ]);
      let key = "";
      await waitUntil(
        async () => {
          key = (await admin.keys(`${RESULTS}*`)).find((k) => !before.has(k)) ?? "";
          return key !== "";
        },
        run,
        "the record stored",
      );
      await admin.set(key, Buffer.from("a record that says passed"), "KEEPTTL");
      release();
      const res = await run;
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /tone-CONTROL-r1: its record from worker signed was changed in the queue's store .*: refused; --resume runs it again/,
      );
      expect(await reportedRunIds(out)).toEqual([]);
    } finally {
      admin.disconnect();
    }
    const again = await runCli(tone(out, "--resume"), { env: env() });
    expect(again.stderr).not.toMatch(/re-attached/);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1"]);
    expect((await readRunReport(out, "tone-CONTROL-r1")).queue?.worker).toBe("signed");
  });

  it("a stored bundle that does not match its hash is replaced from the coordinator's copy", async () => {
    const r = new Redis(url);
    const keys = await r.keys("skillbench:artifact:bundle/*");
    const [real] = keys.filter(
      (k) => !k.endsWith(createHash("sha256").update("another suite altogether").digest("hex")),
    );
    expect(real).toBeDefined();
    await r.set(real ?? "", Buffer.from("corrupted bytes"));
    r.disconnect();
    // A worker with an empty cache must fetch it.
    const fresh = await startWorker("fresh-cache", url);
    await stop(worker);
    worker = fresh;
    const out = box.dir("replaced");
    const res = await runCli(tone(out), { env: env() });
    expect(res.stderr).toMatch(
      /suite bundle [0-9a-f]{12} .* replaced: the stored copy did not match its hash/,
    );
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1"]);
    expect((await readRunReport(out, "tone-CONTROL-r1")).queue?.worker).toBe("fresh-cache");
    // Nothing of the staging is left in the results folder.
    expect(existsSync(path.join(out, ".incoming"))).toBe(false);
    // rescore keeps a queued report's queue block.
    const rescored = await runCli(["rescore", out], { env: env() });
    expect(rescored.code).toBe(0);
    expect((await readRunReport(out, "tone-CONTROL-r1")).queue?.worker).toBe("fresh-cache");
  });

  it("a signed record whose report contradicts its evidence counts as its evidence says", async () => {
    // The record a lying worker (one that holds the key) would send: the run's own folder with
    // its report turned to passed. The coordinator's collection step: unpack, recompute, commit.
    const from = box.dir("replaced");
    const id = "tone-CONTROL-r1";
    const lie = box.dir("lie");
    await cp(path.join(from, "runs", id), lie, { recursive: true });
    const reportFile = path.join(lie, "report.json");
    const honest = JSON.parse(await readFile(reportFile, "utf8")) as Record<string, unknown>;
    expect(honest.status).toBe("failed");
    await writeFile(reportFile, JSON.stringify({ ...honest, status: "passed", passed: true }));
    const { compressed } = await packRunRecord(lie, id, 32 * 1024 * 1024);
    const ctx = await rescoreContext(
      from,
      await readSuiteSnapshot(from),
      {},
      {},
      {
        url: null,
        scriptHasJudge: false,
        scriptId: "",
      },
    );
    const out = box.dir("lied");
    const { report, claimed } = await writeRunRecord({
      outDir: out,
      runId: id,
      compressed,
      queue: { job_id: `x/${id}`, worker: "liar", attempts: 1, lost_attempts: [] },
      redact: (t) => t,
      skillPaths: new Map(),
      recheck: (root) => rescoreRun({ ...ctx, outDir: root }, id),
    });
    expect(claimed).toBe("passed");
    expect(report.status).toBe("failed");
    expect(report.passed).toBe(false);
    const stored = await readRunReport(out, id);
    expect(stored.status).toBe("failed");
    expect(stored.queue?.worker).toBe("liar");
  });
});
