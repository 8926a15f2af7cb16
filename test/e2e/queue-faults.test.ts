/**
 * The queue's faults, each with a bound (issue 40; docs/distributed.md "Failure semantics" and
 * "Security"): a real redis-server on a loopback port (killed and restarted where the scenario
 * needs it), `skillbench worker` processes in their own folders and `skillbench run --queue` as
 * the coordinator, through the built CLI with the real claude binary against a scripted model.
 * Every wait is on something a process printed or Redis holds, never a fixed sleep.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
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
