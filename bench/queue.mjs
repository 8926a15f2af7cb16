#!/usr/bin/env node
// Queue benchmark (docs/distributed.md). Not a test.
//
//   node bench/queue.mjs [--count 20] [--workers 1,2,4] [--rounds 1]
//                        [--out bench/results/queue.md]
//
// Against a redis-server started here (127.0.0.1, a free port, no persistence), with the
// one-task suite of bench/fixtures/overhead-suite and its scripted model, through the BUILT
// CLI (npm run build first):
//   1. local:  `skillbench run SUITE --count N -j 1`;
//   2. queued: the same with `--queue URL`, executed by W `skillbench worker -j 1` processes
//      (each in its own temp folder, started and ready before the clock starts), for each W.
// Per-run queue overhead = (queued wall with 1 worker − local wall) / N: what the queue adds
// to each run (job hand-over, suite bundle lookup, the worker's per-run set-up, packing and
// sending the record, the coordinator writing it). Target: ≤ 50 ms per run.
// Throughput = runs per minute with 1, 2 and 4 workers. On a 2-core machine the agent
// process (about 0.8 CPU-seconds per run) saturates the cores at 2 workers: beyond that,
// more workers cannot help; on more hosts they would.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const cli = path.join(root, "dist/cli/main.js");
const suite = path.join(here, "fixtures/overhead-suite");
const script = path.join(suite, "model-script.yaml");
const TARGET_MS = 50;

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}
const count = Number(arg("--count", "20"));
const workerCounts = arg("--workers", "1,2,4").split(",").map(Number);
const rounds = Number(arg("--rounds", "1"));
const outFile = path.resolve(root, arg("--out", "bench/results/queue.md"));
if (!existsSync(cli)) {
  console.error("missing dist/cli/main.js: build first (npm run build)");
  process.exit(2);
}

const scratch = await mkdtemp(path.join(os.tmpdir(), "skillbench-bench-queue-"));
const env = (home) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LANG: "C.UTF-8",
  HOME: home,
  TMPDIR: home,
  CI: "1",
  // The queue's shared key (docs/distributed.md): jobs and records are signed with it.
  SKILLBENCH_QUEUE_KEY: "bench-queue-key-0123456789abcdef",
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const dir = path.join(scratch, `redis-${port}`);
    await mkdir(dir, { recursive: true });
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    const ok = await new Promise((resolve) => {
      let out = "";
      child.stdout.on("data", (c) => {
        out += c;
        if (/Ready to accept connections/.test(out)) resolve(true);
      });
      child.on("exit", () => resolve(false));
    });
    if (ok) return { port, child };
  }
  throw new Error("redis-server did not start");
}

function runCli(args, home) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: env(home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) =>
      resolve({ code, stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
    );
  });
}

async function startWorker(url, name) {
  const home = path.join(scratch, `worker-${name}`);
  await mkdir(home, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      cli,
      "worker",
      "--queue",
      url,
      "-j",
      "1",
      "--name",
      name,
      "--cache-dir",
      path.join(home, "cache"),
    ],
    { cwd: root, env: env(home), stdio: ["ignore", "ignore", "pipe"] },
  );
  await new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (c) => {
      err += c;
      if (/ready: /.test(err)) resolve();
    });
    child.on("exit", () => reject(new Error(`worker ${name} exited: ${err}`)));
  });
  return child;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await gone;
}

async function oneRun(label, extra) {
  const home = path.join(scratch, `${label}-${Date.now()}`);
  await mkdir(home, { recursive: true });
  const out = path.join(home, "out");
  const r = await runCli(
    [
      "run",
      suite,
      "--model-script",
      script,
      "--count",
      String(count),
      "-j",
      "1",
      "--out",
      out,
      "--no-html",
      ...extra,
    ],
    home,
  );
  if (r.code !== 0) throw new Error(`${label}: exit ${r.code}\n${r.stderr}`);
  const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8"));
  if (meta.total_passed !== count)
    throw new Error(`${label}: ${meta.total_passed}/${count} passed`);
  return r.ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const redis = await startRedis();
const rows = [];
try {
  const local = [];
  const queued = new Map(workerCounts.map((w) => [w, []]));
  let db = 0;
  for (let round = 0; round < rounds; round++) {
    local.push(await oneRun("local", []));
    console.error(`round ${round + 1}: local ${(local.at(-1) / 1000).toFixed(2)} s`);
    for (const w of workerCounts) {
      const url = `redis://127.0.0.1:${redis.port}/${db++ % 16}`;
      const workers = [];
      for (let i = 0; i < w; i++) workers.push(await startWorker(url, `b${w}-${i}`));
      try {
        queued.get(w).push(await oneRun(`queue-${w}`, ["--queue", url]));
      } finally {
        for (const c of workers) await stop(c);
      }
      console.error(
        `round ${round + 1}: ${w} worker(s) ${(queued.get(w).at(-1) / 1000).toFixed(2)} s`,
      );
    }
  }
  const localMs = median(local);
  rows.push(["local -j 1", "—", localMs, null]);
  for (const w of workerCounts)
    rows.push([`queue, ${w} worker(s) -j 1`, w, median(queued.get(w)), w]);
  const q1 = median(queued.get(1) ?? [localMs]);
  const overhead = (q1 - localMs) / count;
  const cpus = os.cpus();
  const lines = [
    "# Queue benchmark",
    "",
    `${new Date().toISOString().slice(0, 10)}, ${cpus.length} CPUs (${cpus[0]?.model ?? "?"}), node ${process.version}, ` +
      `${count} runs of bench/fixtures/overhead-suite per measurement, median of ${rounds} round(s); redis-server on loopback.`,
    "",
    "| mode | workers | wall s | per-run s | runs/min | vs local |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      ([mode, w, ms]) =>
        `| ${mode} | ${w} | ${(ms / 1000).toFixed(2)} | ${(ms / 1000 / count).toFixed(3)} | ${((count / ms) * 60000).toFixed(1)} | ${(ms / localMs).toFixed(2)}x |`,
    ),
    "",
    `Per-run queue overhead (1 worker vs local, both -j 1): **${overhead.toFixed(0)} ms** (target ≤ ${TARGET_MS} ms: ${overhead <= TARGET_MS ? "met" : "not met"}).`,
    "",
  ];
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, lines.join("\n"));
  process.stdout.write(lines.join("\n"));
} finally {
  await stop(redis.child);
  await rm(scratch, { recursive: true, force: true });
}
