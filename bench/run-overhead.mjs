#!/usr/bin/env node
// `skillbench run` overhead benchmark. Not a test.
//
//   node bench/run-overhead.mjs [--count 20] [--concurrency 1,2] [--rounds 3]
//                               [--out bench/results/run-overhead.md] [--keep] [--verbose]
//
// Runs the one-task, one-tool-call suite in bench/fixtures/overhead-suite through the
// BUILT CLI (dist/cli/main.js; build first: npm run build, or npm run bench) at each
// concurrency, and the same number of bare `claude -p` calls against the same scripted
// model (a model server started in this process) at the same concurrency, then prints
//   mode | concurrency | runs | wall s | per-run s | overhead ratio | CPU s per run | CPU ratio
// where the ratio is harness per-run / bare per-run at the same concurrency, and writes
// it to bench/results/run-overhead.md. Target: ratio below 1.5 at -j1.
//
// Both sides start from cold processes: the harness wall time includes node start-up,
// loading the suite, `claude --version`, the model server, workspaces, evidence parsing,
// validators, scoring and the reports; the bare side only a temp dir, the claude process
// and removing the temp dir. One untimed bare call warms the disk cache first.
// Each figure is the median of --rounds rounds. CPU time (user + system of all waited-for
// child processes, from /proc/self/stat) is reported too: it is far less disturbed than
// wall time by other load on a shared machine.
// --keep keeps the results folders and temp dirs; --verbose prints every bare call's time.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const distIndex = path.join(root, "dist/index.js");
const cliMain = path.join(root, "dist/cli/main.js");
const suiteDir = path.join(here, "fixtures/overhead-suite");
const scriptFile = path.join(suiteDir, "model-script.yaml");
const TASK = "write-file";
const ARTIFACT = "out.txt";
const TARGET_J1 = 1.5;

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}

function positiveInt(name, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive whole number, got ${v}`);
    process.exit(2);
  }
  return n;
}

const count = positiveInt("--count", arg("--count", "20"));
const concurrencies = arg("--concurrency", "1,2")
  .split(",")
  .map((s) => positiveInt("--concurrency", s.trim()));
const rounds = positiveInt("--rounds", arg("--rounds", "3"));
const outFile = path.resolve(root, arg("--out", "bench/results/run-overhead.md"));
const keep = process.argv.includes("--keep");
const verbose = process.argv.includes("--verbose");

for (const f of [distIndex, cliMain]) {
  if (!existsSync(f)) {
    console.error(`missing ${path.relative(root, f)}: build first (npm run build)`);
    process.exit(2);
  }
}
const sb = await import(pathToFileURL(distIndex).href);

// ---------------------------------------------------------------- helpers

/** Run a command to completion; resolves with exit code, signal and captured output. */
function run(cmd, args, opts) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.on("error", (e) => resolve({ code: null, signal: null, stdout: "", stderr: String(e) }));
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/** A tiny promise pool: run `n` jobs with at most `limit` at once; results in job order. */
async function pool(n, limit, job) {
  const results = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next;
      next += 1;
      results[i] = await job(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return results;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Aggregate CPU jiffies from /proc/stat (Linux only; null elsewhere). */
async function cpuSnapshot() {
  try {
    const line = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = user + nice + system + idle + iowait + irq + softirq + (steal || 0);
    return Number.isFinite(total)
      ? { total, busy: user + nice + system + irq + softirq, steal: steal || 0 }
      : null;
  } catch {
    return null;
  }
}

const CLK_TCK =
  Number(
    (await run("getconf", ["CLK_TCK"], { cwd: os.tmpdir(), env: process.env })).stdout.trim(),
  ) || 100;

/**
 * CPU seconds (user + system) of this process's finished, waited-for children and
 * their waited-for descendants (cutime + cstime in /proc/self/stat). Linux only; null elsewhere.
 * Less sensitive than wall time to other load on the machine.
 */
async function childCpuSeconds() {
  try {
    const stat = await readFile("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return null;
  }
}

function tail(text, lines = 15) {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** Did the stream-json transcript end with a successful result event? */
function resultOk(stdout) {
  for (const line of stdout.split("\n").reverse()) {
    if (!line.trim()) continue;
    try {
      const ev = JSON.parse(line);
      if (ev && typeof ev === "object" && ev.type === "result") return ev.is_error === false;
    } catch {
      // not JSON: keep looking
    }
  }
  return false;
}

// ---------------------------------------------------------------- setup

const bin = sb.resolveClaudeBinary({ env: process.env });
if ("error" in bin) {
  console.error(bin.error);
  process.exit(2);
}
const suite = await sb.loadSuite(suiteDir);
const task = suite.tasks.find((t) => t.name === TASK);
if (!task) {
  console.error(`${suiteDir}: no task ${TASK}`);
  process.exit(2);
}
// The bare call gets the task's prompt exactly as written (the fixture has no placeholders).
const prompt = await readFile(path.join(suiteDir, "tasks", TASK, "instruction.md"), "utf8");
const versionRun = await run(bin.path, ["--version"], {
  cwd: os.tmpdir(),
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
});
const claudeVersion = /(\d+\.\d+\.\d+\S*)/.exec(versionRun.stdout)?.[1] ?? "unknown";
const scratch = await mkdtemp(path.join(os.tmpdir(), "skillbench-overhead-"));

// ---------------------------------------------------------------- the two modes

/** `skillbench run` of the fixture suite: `count` runs at `-j concurrency`. */
async function harness(concurrency, round) {
  const out = path.join(scratch, `harness-j${concurrency}-r${round}`);
  const cpuFile = path.join(scratch, `harness-cpu-j${concurrency}-r${round}.json`);
  const args = [
    "--import",
    pathToFileURL(path.join(here, "cpu-probe.mjs")).href,
    cliMain,
    "run",
    suiteDir,
    "--model-script",
    scriptFile,
    "--count",
    String(count),
    "-j",
    String(concurrency),
    "--out",
    out,
  ];
  const cpu0 = await childCpuSeconds();
  const t0 = performance.now();
  const r = await run(process.execPath, args, {
    cwd: root,
    env: { ...process.env, CI: "1", SKILLBENCH_BENCH_CPU_FILE: cpuFile },
  });
  const ms = performance.now() - t0;
  const cpu1 = await childCpuSeconds();
  const own = await readFile(cpuFile, "utf8")
    .then((t) => JSON.parse(t))
    .catch(() => null);
  const selfCpu = own ? (own.user_ms + own.system_ms) / 1000 : null;
  const passed = Number(/(\d+)\/\d+ runs passed/.exec(r.stdout)?.[1] ?? 0);
  if (r.code !== 0 || passed !== count) {
    throw new Error(
      `skillbench run -j${concurrency} failed (exit ${r.code}, ${passed}/${count} passed):\n${tail(r.stdout + r.stderr)}`,
    );
  }
  if (!keep) await rm(out, { recursive: true, force: true });
  return { ms, cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, selfCpu };
}

/** `n` bare `claude -p` calls at `concurrency`, each in a fresh temp dir. */
async function bare(server, n, concurrency, round, label = "BARE") {
  const one = async (i) => {
    const base = await mkdtemp(path.join(scratch, `bare-j${concurrency}-r${round}-${i + 1}-`));
    const ws = path.join(base, "workspace");
    const dirs = {
      home: path.join(base, "home"),
      config: path.join(base, "config"),
      tmp: path.join(base, "tmp"),
    };
    await Promise.all([ws, ...Object.values(dirs)].map((d) => mkdir(d, { recursive: true })));
    const env = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: dirs.home,
      CLAUDE_CONFIG_DIR: dirs.config,
      CLAUDE_CODE_TMPDIR: dirs.tmp,
      TMPDIR: dirs.tmp,
      IS_SANDBOX: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      ANTHROPIC_API_KEY: "sk-bench",
      ANTHROPIC_BASE_URL: sb.runBaseUrl(server.url, {
        task: TASK,
        treatment: label,
        rep: i + 1,
        role: "subject",
      }),
    };
    const c0 = performance.now();
    const r = await run(
      bin.path,
      [
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--dangerously-skip-permissions",
      ],
      { cwd: ws, env },
    );
    if (verbose)
      console.log(
        `  ${label} j${concurrency} call ${i + 1}: ${(performance.now() - c0).toFixed(0)} ms`,
      );
    const ok = r.code === 0 && resultOk(r.stdout) && existsSync(path.join(ws, ARTIFACT));
    if (!ok)
      console.error(`bare call ${i + 1} failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
    if (!keep) await rm(base, { recursive: true, force: true });
    return ok;
  };
  const cpu0 = await childCpuSeconds();
  const t0 = performance.now();
  const oks = await pool(n, concurrency, one);
  const ms = performance.now() - t0;
  const cpu1 = await childCpuSeconds();
  const passed = oks.filter(Boolean).length;
  if (passed !== n)
    throw new Error(
      `bare claude -p (${label}) at concurrency ${concurrency}: ${passed}/${n} calls succeeded`,
    );
  return { ms, cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

// ---------------------------------------------------------------- main

const server = await sb.startModelServer({
  script: await sb.loadModelScript(scriptFile),
  scriptFile,
});
/** samples[`${mode}${c}`] = [{ ms, cpu }] per round; mode h = harness, b = bare. */
const samples = new Map(
  concurrencies.flatMap((c) => [
    [`h${c}`, []],
    [`b${c}`, []],
  ]),
);
let failed = null;
let machine0 = null;
let machine1 = null;
try {
  console.log(
    `claude ${claudeVersion} (${bin.path}); ${count} runs per measurement, ${rounds} round(s)`,
  );
  machine0 = await cpuSnapshot();
  // Warm-up (untimed): one bare call, so that neither mode pays for a cold disk cache.
  await bare(server, 1, 1, 0, "WARMUP");
  for (let round = 1; round <= rounds; round += 1) {
    for (const c of concurrencies) {
      // Alternate which mode goes first, so that slow drift of the machine cancels out.
      for (const m of round % 2 === 1 ? ["h", "b"] : ["b", "h"]) {
        const r = m === "h" ? await harness(c, round) : await bare(server, count, c, round);
        const what = m === "h" ? `skillbench run -j${c}` : `bare claude -p -j${c}`;
        console.log(
          `round ${round}: ${what}: ${(r.ms / 1000).toFixed(2)} s wall, ${r.cpu === null ? "?" : r.cpu.toFixed(2)} s CPU for ${count} runs`,
        );
        samples.get(`${m}${c}`).push(r);
      }
    }
  }
  machine1 = await cpuSnapshot();
} catch (e) {
  failed = e;
} finally {
  await server.close();
  if (!keep) await rm(scratch, { recursive: true, force: true });
  else console.log(`kept ${scratch}`);
}
if (failed) {
  console.error(String(failed instanceof Error ? failed.message : failed));
  process.exit(1);
}

// ---------------------------------------------------------------- report

const fmt = (x, d = 2) => x.toFixed(d);
const summarise = (list) => ({
  ms: median(list.map((s) => s.ms)),
  cpu: list.every((s) => s.cpu !== null) ? median(list.map((s) => s.cpu)) : null,
  all: list.map((s) => s.ms),
  selfCpu: list.every((s) => typeof s.selfCpu === "number")
    ? median(list.map((s) => s.selfCpu))
    : null,
});
const rows = concurrencies.flatMap((c) => {
  const b = summarise(samples.get(`b${c}`));
  const h = summarise(samples.get(`h${c}`));
  return [
    { mode: "bare claude -p", c, ...b, base: b },
    { mode: "skillbench run", c, ...h, base: b },
  ];
});
const table = [
  "| mode | concurrency | runs | wall s | per-run s | overhead ratio | CPU s per run | CPU ratio | harness process CPU ms per run |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => {
    const cpuPer = r.cpu === null ? "n/a" : fmt(r.cpu / count, 3);
    const cpuRatio = r.cpu === null || !r.base.cpu ? "n/a" : `${fmt(r.cpu / r.base.cpu)}x`;
    const own =
      r.selfCpu === null || r.selfCpu === undefined ? "—" : fmt((r.selfCpu / count) * 1000, 0);
    return `| ${r.mode} | ${r.c} | ${count} | ${fmt(r.ms / 1000)} | ${fmt(r.ms / 1000 / count, 3)} | ${fmt(r.ms / r.base.ms)}x | ${cpuPer} | ${cpuRatio} | ${own} |`;
  }),
];
const j1 = rows.find((r) => r.mode === "skillbench run" && r.c === 1);
const verdict = j1
  ? `Target: harness per-run wall time below ${TARGET_J1}x the bare call at -j1: **${j1.ms / j1.base.ms < TARGET_J1 ? "met" : "NOT met"}** ` +
    `(${fmt(j1.ms / j1.base.ms)}x, ${fmt((j1.ms - j1.base.ms) / count, 0)} ms of harness time per run` +
    (j1.cpu !== null && j1.base.cpu !== null
      ? `, ${fmt(((j1.cpu - j1.base.cpu) / count) * 1000, 0)} ms of harness CPU per run).`
      : ").")
  : `Target (harness per-run below ${TARGET_J1}x the bare call at -j1): not measured (no -j1 row).`;
const cpus = os.cpus();
const perRound = rows
  .map((r) => `${r.mode} -j${r.c}: ${r.all.map((ms) => fmt(ms / 1000)).join(", ")}`)
  .join("; ");
const machineLine =
  machine0 && machine1 && machine1.total > machine0.total
    ? `Whole machine during the benchmark: CPU ${fmt((100 * (machine1.busy - machine0.busy)) / (machine1.total - machine0.total), 0)}% busy, ` +
      `${fmt((100 * (machine1.steal - machine0.steal)) / (machine1.total - machine0.total), 1)}% stolen by the hypervisor (/proc/stat); ` +
      "other load on the machine shows up in wall time, much less in CPU time."
    : "";
const md = [
  "# `skillbench run` overhead benchmark",
  "",
  `Generated by \`bench/run-overhead.mjs\` on ${new Date().toISOString().slice(0, 10)}: ${cpus.length} CPUs (${cpus[0]?.model ?? "unknown"}), ` +
    `node ${process.version}, ${os.platform()} ${os.release()}, claude ${claudeVersion}.`,
  `Workload: bench/fixtures/overhead-suite (one task; the scripted model makes one Write call, then ends), ${count} runs per row` +
    (rounds > 1
      ? `; each figure is the median of ${rounds} rounds (modes alternate which goes first).`
      : "."),
  '"skillbench run" is the whole CLI process (`node dist/cli/main.js run ... -j N`: start-up, suite loading, `claude --version`,',
  'model server, workspaces, evidence, validators, scoring, reports); "bare claude -p" is the same number of `claude -p` calls',
  "against the same scripted model, N at a time, each in a fresh temp dir, no harness.",
  "Overhead ratio = harness per-run / bare per-run at the same concurrency. CPU = user + system time of all child processes.",
  "Harness process CPU = the `skillbench run` node process's own user + system time (process.cpuUsage, via bench/cpu-probe.mjs), without the agents and validators it ran, divided by the runs.",
  `Load average (1 min) at the end: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs; figures taken under load are indicative.`,
  "",
  ...table,
  "",
  verdict,
  "",
  `Wall seconds of each round: ${perRound}.`,
  ...(machineLine ? [machineLine] : []),
  "",
].join("\n");
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, md);
console.log(`\n${md}\nwritten to ${path.relative(root, outFile)}`);
