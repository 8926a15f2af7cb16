#!/usr/bin/env node
// `skillbench run` overhead benchmark. Not a test.
//
//   node bench/run-overhead.mjs [--count 20] [--concurrency 1,2] [--rounds 5]
//                               [--sandboxes auto,local] [--out bench/results/run-overhead.md]
//                               [--keep] [--verbose]
//
// Runs the one-task, one-tool-call suite in bench/fixtures/overhead-suite through the BUILT CLI
// (dist/cli/main.js; build first: npm run build, or npm run bench) at each concurrency, once per
// sandbox in --sandboxes (`auto` is the default a user gets: bubblewrap where it works; `local` is
// no isolation, like the bare call), and the same number of bare `claude -p` calls against the same
// scripted model (a model server started in this process) at the same concurrency, then prints
//   mode | sandbox | concurrency | runs | wall s | per-run s | wall ratio | paired wall ratio |
//   CPU ms per run | CPU ratio | paired CPU ratio | harness CPU ms per run | CLI process CPU ms per run
// where a ratio is harness / bare at the same concurrency, and writes it to
// bench/results/run-overhead.md. Target (docs issue #19): wall ratio <= 1.05 at -j1 and -j2.
//
// The verdict. The machine's noise (other work on its 2 cores) moves whole rounds by 15-25 %, more
// than the overhead measured, so the ratio of two medians taken from different rounds (the "wall
// ratio" column) can pair a quiet bare round with a busy harness round. The verdict is therefore
// computed from paired ratios: in each round, harness / bare measured back to back (the modes of a
// round run one after the other, their order rotating from round to round), one ratio per round;
// the verdict is the median of those ratios over the rounds, printed with their range, and the
// same is done for CPU (the steadier figure) beside it.
//
// Both sides start from cold processes: the harness includes node start-up, loading the suite,
// `claude --version`, the model server, workspaces, the sandbox, evidence parsing, validators,
// scoring and the reports; the bare side only a temp dir, the claude process and removing the temp
// dir. One untimed bare call warms the disk cache first. Each figure is the median of --rounds
// rounds (5 by default: a median of 5 paired ratios is robust to one or two disturbed rounds);
// within a round the modes take turns going first.
//
// CPU accounting. Every process a measurement starts (the CLI, or each bare claude call) is put
// into a cgroup of its own measurement (cgroup v1 cpuacct, else v2 cpu.stat) through a one-line
// `sh` wrapper that joins the cgroup and execs the command (both sides pay the same wrapper). The
// cgroup counts every descendant's CPU, also processes that are never waited for by their
// parent: bubblewrap's outer process exits without reaping the sandbox's pid 1, so the older
// method (cutime + cstime of /proc/self/stat) lost the sandboxed agent's CPU. The bare side's
// CPU adds this process's own CPU during the batch (process.cpuUsage: the scripted model server
// and the spawning), because the harness does the same two jobs inside its CLI process.
//   harness CPU ms per run = (harness CPU - bare CPU) / runs: what the harness costs on top of
//   the agent calls, all of it (node start-up, sandbox, relay, validators, reports), per run.
//   CLI process CPU ms per run = the CLI's own node process only (process.cpuUsage at exit,
//   written by bench/cpu-probe.mjs loaded with node --import), divided by the runs.
// Without a writable cgroup hierarchy (not root, or no cgroup fs) CPU falls back to cutime, and
// the file says so.
// The bare call in the same sandbox. Where bubblewrap works and a measured sandbox is bubblewrap
// (`auto` resolving to it, or `bwrap`), each round also makes the bare calls inside a bubblewrap
// sandbox built by the same code as a run's (src/sandbox: the same layout, the loopback-only
// network, the Perl relay inside and the host relay handing connections to this process's model
// server), one sandbox per call as a run has. Against it, a bubblewrap row's ratio is the
// harness's own overhead under that sandbox (the second group of verdicts); against the bare call
// without a sandbox, it is the harness and the isolation together (the first group), and the
// bare-in-bubblewrap row's own ratio is what the isolation alone costs. --no-bare-sandboxed skips it.
// What one more run costs: per round, the harness's wall time less that round's fixed cost of one
// invocation (the one-run invocation less the one bare call), over the bare calls' wall time; the
// median over the rounds is printed below the verdicts (not a verdict: the marginal cost per run
// that an experiment of thousands of runs pays, its fixed cost spread thin).
// --keep keeps the results folders and temp dirs; --verbose prints every bare call's time.
// A "## History" section at the end of the output file (kept by hand: what changed between
// measurements, earlier figures) is carried over when the file is written anew.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { findCgroupRoot, inCgroup, newCgroupIn } from "./cgroup.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const distIndex = path.join(root, "dist/index.js");
const cliMain = path.join(root, "dist/cli/main.js");
const suiteDir = path.join(here, "fixtures/overhead-suite");
const scriptFile = path.join(suiteDir, "model-script.yaml");
const TASK = "write-file";
const ARTIFACT = "out.txt";
const TARGET = 1.05;
/** Above this median share of the machine used by other processes, a verdict is not conclusive. */
const BUSY_LIMIT = 0.1;

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
const rounds = positiveInt("--rounds", arg("--rounds", "5"));
const sandboxes = arg("--sandboxes", "auto,local")
  .split(",")
  .map((s) => s.trim());
for (const s of sandboxes) {
  if (!["auto", "local", "bwrap", "docker"].includes(s)) {
    console.error(`--sandboxes: unknown sandbox ${s} (auto, local, bwrap or docker)`);
    process.exit(2);
  }
}
const outFile = path.resolve(root, arg("--out", "bench/results/run-overhead.md"));
const keep = process.argv.includes("--keep");
const bareSandboxedAsked = !process.argv.includes("--no-bare-sandboxed");
const verbose = process.argv.includes("--verbose");

for (const f of [distIndex, cliMain]) {
  if (!existsSync(f)) {
    console.error(`missing ${path.relative(root, f)}: build first (npm run build)`);
    process.exit(2);
  }
}
const sb = await import(pathToFileURL(distIndex).href);
/** Whether the bare calls are also made inside bubblewrap (see the header). */
const bareSandboxed =
  bareSandboxedAsked &&
  sandboxes.some((s) => s === "auto" || s === "bwrap") &&
  Boolean((await sb.probeSandboxes({ docker: "never" })).bwrap);

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

/**
 * A 90 % percentile-bootstrap interval for the median of `xs` (the rounds resampled with
 * replacement, 10,000 times, from a fixed seed so the same figures give the same interval): how
 * far the verdict's median could move with other rounds of the same machine. Null under 3 rounds.
 */
function medianInterval(xs) {
  if (xs.length < 3) return null;
  let seed = 0x5eed;
  const rand = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const meds = [];
  for (let b = 0; b < 10_000; b += 1)
    meds.push(median(xs.map(() => xs[Math.floor(rand() * xs.length)])));
  meds.sort((a, b) => a - b);
  return { lo: meds[Math.floor(0.05 * meds.length)], hi: meds[Math.ceil(0.95 * meds.length) - 1] };
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

/**
 * The share of the machine's CPUs that processes other than the measurement's used while it ran:
 * (machine busy time − the measurement's own CPU) / (wall time × CPUs), from /proc/stat. The
 * noise a paired ratio cannot cancel; printed per measurement. Null when unknown.
 */
function othersShare(m0, m1, ownCpu, ms) {
  if (!m0 || !m1 || ownCpu === null || !(ms > 0)) return null;
  const busy = (m1.busy - m0.busy) / CLK_TCK;
  return Math.max(0, busy - ownCpu) / ((ms / 1000) * os.cpus().length);
}

const CLK_TCK =
  Number(
    (await run("getconf", ["CLK_TCK"], { cwd: os.tmpdir(), env: process.env })).stdout.trim(),
  ) || 100;

/** cutime + cstime of this process (waited-for descendants only): the fallback CPU meter. */
async function childCpuSeconds() {
  try {
    const stat = await readFile("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return null;
  }
}

const cgroupRoot = await findCgroupRoot("overhead");
const newCgroup = (label) => newCgroupIn(cgroupRoot, `overhead-${label}`);

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
/** The sandbox kind each --sandboxes entry resolved to in the runs' records (auto -> bwrap...). */
const sandboxSeen = new Map();

// ---------------------------------------------------------------- the two modes

/** `skillbench run` of the fixture suite: `count` runs at `-j concurrency` under `sandbox`. */
async function harness(concurrency, round, sandbox, runs = count) {
  const tag = `${sandbox}-j${concurrency}-r${round}-n${runs}`;
  const out = path.join(scratch, `harness-${tag}`);
  const cpuFile = path.join(scratch, `harness-cpu-${tag}.json`);
  const args = [
    "--import",
    pathToFileURL(path.join(here, "cpu-probe.mjs")).href,
    cliMain,
    "run",
    suiteDir,
    "--model-script",
    scriptFile,
    "--count",
    String(runs),
    "-j",
    String(concurrency),
    "--out",
    out,
    ...(sandbox === "auto" ? [] : ["--sandbox", sandbox]),
  ];
  const cg = await newCgroup(`harness-${tag}`);
  const cpu0 = cg ? 0 : await childCpuSeconds();
  const m0 = await cpuSnapshot();
  const t0 = performance.now();
  const c = inCgroup(cg, process.execPath, args);
  const r = await run(c.cmd, c.args, {
    cwd: root,
    env: { ...process.env, CI: "1", SKILLBENCH_BENCH_CPU_FILE: cpuFile },
  });
  const ms = performance.now() - t0;
  const m1 = await cpuSnapshot();
  const cpu1 = cg ? await cg.cpuSeconds() : await childCpuSeconds();
  await cg?.remove();
  const own = await readFile(cpuFile, "utf8")
    .then((t) => JSON.parse(t))
    .catch(() => null);
  const selfCpu = own ? (own.user_ms + own.system_ms) / 1000 : null;
  const passed = Number(/(\d+)\/\d+ runs passed/.exec(r.stdout)?.[1] ?? 0);
  if (r.code !== 0 || passed !== runs) {
    throw new Error(
      `skillbench run -j${concurrency} --sandbox ${sandbox} failed (exit ${r.code}, ${passed}/${runs} passed):\n${tail(r.stdout + r.stderr)}`,
    );
  }
  if (!sandboxSeen.has(sandbox)) {
    const report = await readFile(
      path.join(out, "runs", `${TASK}-CONTROL-r1`, "report.json"),
      "utf8",
    ).catch(() => "");
    sandboxSeen.set(sandbox, /"kind":\s*"(\w+)"/.exec(report)?.[1] ?? "?");
  }
  if (!keep) await rm(out, { recursive: true, force: true });
  const cpu = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
  return { ms, cpu, selfCpu, others: othersShare(m0, m1, cpu, ms) };
}

/**
 * `n` bare `claude -p` calls at `concurrency`, each in a fresh temp dir; with `sandboxed`, each
 * inside a bubblewrap sandbox of its own, made as a run's is (src/sandbox).
 */
async function bare(server, n, concurrency, round, label = "BARE", sandboxed = false) {
  const cg = await newCgroup(`bare${sandboxed ? "-bwrap" : ""}-j${concurrency}-r${round}`);
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
    const call = {
      cmd: bin.path,
      args: [
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--dangerously-skip-permissions",
      ],
      cwd: ws,
      env,
    };
    let sandbox = null;
    let spec = call;
    if (sandboxed) {
      sandbox = await sb.createSandbox("bwrap", {
        runDirs: { root: base, workspace: ws, ...dirs },
        task: { environmentDir: null },
        agentBin: bin.path,
        resultsDir: path.join(scratch, "results"),
        modelEndpoint: env.ANTHROPIC_BASE_URL,
        localModelServer: server,
        agentVersion: claudeVersion,
      });
      await sandbox.start();
      spec = sandbox.launcher(call);
    }
    const c = inCgroup(cg, spec.cmd, spec.args);
    const r = await run(c.cmd, c.args, { cwd: spec.cwd, env: spec.env }).finally(() =>
      sandbox?.stop(),
    );
    if (verbose)
      console.log(
        `  ${label} j${concurrency} call ${i + 1}: ${(performance.now() - c0).toFixed(0)} ms`,
      );
    const ok = r.code === 0 && resultOk(r.stdout) && existsSync(path.join(ws, ARTIFACT));
    if (!ok)
      console.error(
        `bare call ${i + 1}${sandboxed ? " in bubblewrap" : ""} failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`,
      );
    if (!keep) await rm(base, { recursive: true, force: true });
    return ok;
  };
  const cpu0 = cg ? 0 : await childCpuSeconds();
  const self0 = process.cpuUsage();
  const m0 = await cpuSnapshot();
  const t0 = performance.now();
  const oks = await pool(n, concurrency, one);
  const ms = performance.now() - t0;
  const m1 = await cpuSnapshot();
  const self = process.cpuUsage(self0);
  const cpu1 = cg ? await cg.cpuSeconds() : await childCpuSeconds();
  await cg?.remove();
  const passed = oks.filter(Boolean).length;
  if (passed !== n)
    throw new Error(
      `bare claude -p (${label}${sandboxed ? ", in bubblewrap" : ""}) at concurrency ${concurrency}: ${passed}/${n} calls succeeded`,
    );
  // The model server and the spawning ran in this process: counted with the bare side's CPU.
  const serverCpu = (self.user + self.system) / 1e6;
  const cpu = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 + serverCpu;
  return { ms, cpu, serverCpu, others: othersShare(m0, m1, cpu, ms) };
}

// ---------------------------------------------------------------- main

const server = await sb.startModelServer({
  script: await sb.loadModelScript(scriptFile),
  scriptFile,
});
/** samples[key] = [{ ms, cpu, selfCpu? }] per round; key `b${c}` (bare) or `h${sandbox}${c}`. */
const samples = new Map();
const push = (key, r) => samples.set(key, [...(samples.get(key) ?? []), r]);
const loads = [];
let failed = null;
let machine0 = null;
let machine1 = null;
try {
  console.log(
    `claude ${claudeVersion} (${bin.path}); ${count} runs per measurement, ${rounds} round(s); ` +
      `CPU meter: ${cgroupRoot ? `cgroup ${cgroupRoot.kind} (${cgroupRoot.dir})` : "cutime (no writable cgroup)"}`,
  );
  machine0 = await cpuSnapshot();
  // Warm-up (untimed): one bare call, so that neither mode pays for a cold disk cache.
  await bare(server, 1, 1, 0, "WARMUP");
  if (bareSandboxed) await bare(server, 1, 1, 0, "WARMUP", true);
  for (let round = 1; round <= rounds; round += 1) {
    // Fixed cost of one invocation: `skillbench run --count 1` against one bare call.
    {
      const b = await bare(server, 1, 1, round, "SINGLE");
      push("fb", b);
      for (const s of sandboxes) {
        const h = await harness(1, round, s, 1);
        push(`f${s}`, h);
        console.log(
          `round ${round}: one-run skillbench run (${s}): ${(h.ms / 1000).toFixed(2)} s wall, ${h.cpu === null ? "?" : h.cpu.toFixed(2)} s CPU; one bare call ${(b.ms / 1000).toFixed(2)} s, ${b.cpu === null ? "?" : b.cpu.toFixed(2)} s CPU`,
        );
      }
    }
    for (const c of concurrencies) {
      const modes = ["b", ...(bareSandboxed ? ["s"] : []), ...sandboxes.map((s) => `h:${s}`)];
      // Rotate which mode goes first, so that slow drift of the machine cancels out.
      const order = modes.map((_, i) => modes[(i + round - 1) % modes.length]);
      for (const m of order) {
        loads.push(os.loadavg()[0]);
        if (m === "b") {
          const r = await bare(server, count, c, round);
          push(`b${c}`, r);
          console.log(
            `round ${round}: bare claude -p -j${c}: ${(r.ms / 1000).toFixed(2)} s wall, ${r.cpu === null ? "?" : r.cpu.toFixed(2)} s CPU (${r.serverCpu.toFixed(2)} s of it the model server and spawning in this process) for ${count} runs`,
          );
        } else if (m === "s") {
          const r = await bare(server, count, c, round, "BARE", true);
          push(`s${c}`, r);
          console.log(
            `round ${round}: bare claude -p -j${c} in bubblewrap: ${(r.ms / 1000).toFixed(2)} s wall, ${r.cpu === null ? "?" : r.cpu.toFixed(2)} s CPU (${r.serverCpu.toFixed(2)} s of it in this process) for ${count} runs`,
          );
        } else {
          const s = m.slice(2);
          const r = await harness(c, round, s);
          push(`h${s}${c}`, r);
          console.log(
            `round ${round}: skillbench run -j${c} (${s}): ${(r.ms / 1000).toFixed(2)} s wall, ${r.cpu === null ? "?" : r.cpu.toFixed(2)} s CPU, ${r.selfCpu === null ? "?" : r.selfCpu.toFixed(2)} s CLI process CPU for ${count} runs`,
          );
        }
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
  allCpu: list.map((s) => s.cpu),
  allOthers: list.map((s) => s.others ?? null),
  selfCpu: list.every((s) => typeof s.selfCpu === "number")
    ? median(list.map((s) => s.selfCpu))
    : null,
});
const sandboxLabel = (s) => (s === "auto" ? `default (${sandboxSeen.get(s) ?? "?"})` : `${s}`);
const BARE = "bare claude -p";
const rows = concurrencies.flatMap((c) => {
  const b = summarise(samples.get(`b${c}`));
  return [
    { mode: BARE, sandbox: "none", c, ...b, base: b },
    // Its ratios against the bare call without a sandbox: what the isolation alone costs.
    ...(bareSandboxed
      ? [{ mode: BARE, sandbox: "bwrap", c, ...summarise(samples.get(`s${c}`)), base: b }]
      : []),
    ...sandboxes.map((s) => ({
      mode: "skillbench run",
      key: s,
      sandbox: sandboxLabel(s),
      c,
      ...summarise(samples.get(`h${s}${c}`)),
      base: b,
    })),
  ];
});
/**
 * Per round, a row / its base row of that same round (samples are pushed once per round, so index
 * i is round i + 1): wall and CPU, with their medians and ranges. Null for the bare call itself.
 */
function paired(r) {
  if (r.base === r || (r.mode === BARE && r.sandbox === "none")) return null;
  const wall = r.all.map((ms, i) => ms / r.base.all[i]);
  const cpu = r.allCpu.every((x, i) => x !== null && r.base.allCpu[i])
    ? r.allCpu.map((x, i) => x / r.base.allCpu[i])
    : null;
  const span = (xs) => ({
    median: median(xs),
    min: Math.min(...xs),
    max: Math.max(...xs),
    all: xs,
  });
  return { wall: span(wall), cpu: cpu && span(cpu) };
}
const ratioCell = (p) =>
  p === null
    ? "n/a"
    : rounds > 1
      ? `${fmt(p.median)}x (${fmt(p.min)}–${fmt(p.max)})`
      : `${fmt(p.median)}x`;
const perRun = (x) => fmt((x / count) * 1000, 0);
const table = [
  "| mode | sandbox | concurrency | runs | wall s | per-run s | wall ratio | paired wall ratio | CPU ms per run | CPU ratio | paired CPU ratio | harness CPU ms per run | CLI process CPU ms per run |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => {
    const isBare = r.mode === BARE && r.sandbox === "none";
    const cpuPer = r.cpu === null ? "n/a" : perRun(r.cpu);
    const cpuRatio = r.cpu === null || !r.base.cpu ? "n/a" : `${fmt(r.cpu / r.base.cpu)}x`;
    const harnessCpu =
      isBare || r.cpu === null || r.base.cpu === null ? "—" : perRun(r.cpu - r.base.cpu);
    const own = r.selfCpu === null || r.selfCpu === undefined ? "—" : perRun(r.selfCpu);
    const p = paired(r);
    return `| ${r.mode} | ${r.sandbox} | ${r.c} | ${count} | ${fmt(r.ms / 1000)} | ${fmt(r.ms / 1000 / count, 3)} | ${fmt(r.ms / r.base.ms)}x | ${p ? ratioCell(p.wall) : "—"} | ${cpuPer} | ${cpuRatio} | ${p ? ratioCell(p.cpu) : "—"} | ${harnessCpu} | ${own} |`;
  }),
];
const fb = summarise(samples.get("fb") ?? []);
const fixedRows = sandboxes.map((s) => {
  const h = summarise(samples.get(`f${s}`) ?? []);
  const wall = h.ms - fb.ms;
  const cpu = h.cpu !== null && fb.cpu !== null ? h.cpu - fb.cpu : null;
  // What this fixed cost alone adds to the wall ratio of a `count`-run row at -jC.
  const floors = concurrencies.map((c) => {
    const b = summarise(samples.get(`b${c}`));
    return `-j${c}: +${fmt(wall / b.ms, 3)}`;
  });
  return `| ${sandboxLabel(s)} | ${fmt(h.ms / 1000)} | ${fmt(fb.ms / 1000)} | ${fmt(wall / 1000)} | ${cpu === null ? "n/a" : fmt(cpu * 1000, 0)} | ${h.selfCpu === null ? "—" : fmt(h.selfCpu * 1000, 0)} | ${floors.join(", ")} |`;
});
const fixedTable = [
  `| sandbox | one-run skillbench run wall s | one bare call wall s | fixed + one run's overhead, wall s | same, CPU ms | CLI process CPU ms | added to the ${count}-run wall ratio |`,
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...fixedRows,
];
/** A harness row measured under bubblewrap, against the bare call in bubblewrap of its rounds. */
const sameSandbox = bareSandboxed
  ? rows
      .filter((r) => r.mode === "skillbench run" && /bwrap/.test(r.sandbox))
      .map((r) => ({
        ...r,
        base: rows.find((x) => x.mode === BARE && x.sandbox === "bwrap" && x.c === r.c),
      }))
  : [];
const verdictLines = (list) =>
  list.map((r) => {
    const p = paired(r);
    const list = (xs) => xs.map((x) => fmt(x)).join(", ");
    // Other processes' share of the machine, median over this row's and its bare row's measurements.
    const others = [...r.allOthers, ...r.base.allOthers];
    const busy = others.every((x) => x !== null) ? median(others) : null;
    const ci = medianInterval(p.wall.all);
    const spread =
      ci === null
        ? ""
        : `; 90% bootstrap interval of the median ${fmt(ci.lo)}–${fmt(ci.hi)}x: ` +
          (ci.hi <= TARGET
            ? "below the target even at its upper end"
            : ci.lo > TARGET
              ? "above the target even at its lower end"
              : "the target lies inside it, so the rounds cannot settle the verdict either way");
    return (
      `- -j${r.c}, sandbox ${r.sandbox}: paired wall ratio ${fmt(p.wall.median)}x: **${p.wall.median <= TARGET ? "met" : "NOT met"}**${spread}` +
      ` (rounds: ${list(p.wall.all)}; CPU ${p.cpu ? `${fmt(p.cpu.median)}x, rounds: ${list(p.cpu.all)}` : "n/a"})` +
      (busy !== null && busy > BUSY_LIMIT
        ? `; other processes used ${fmt(100 * busy, 0)}% of the machine meanwhile (median): **not conclusive**, measure again on a quieter machine`
        : "")
    );
  });
const verdicts = verdictLines(rows.filter((r) => r.mode === "skillbench run"));
/**
 * The marginal cost of one more run: in each round, the harness's wall time less that round's fixed
 * cost of one invocation (its one-run invocation's wall time less the one bare call's), over the
 * bare calls' wall time of the round.
 */
const marginalLines = rows
  .filter((r) => r.mode === "skillbench run")
  .map((r) => {
    const f = samples.get(`f${r.key}`) ?? [];
    const fb = samples.get("fb") ?? [];
    if (f.length !== r.all.length || fb.length !== r.all.length) return null;
    const xs = r.all.map((ms, i) => (ms - (f[i].ms - fb[i].ms)) / r.base.all[i]);
    const ci = medianInterval(xs);
    return (
      `- -j${r.c}, sandbox ${r.sandbox}: ${fmt(median(xs))}x` +
      (ci ? ` (90% bootstrap interval of the median ${fmt(ci.lo)}–${fmt(ci.hi)}x)` : "") +
      ` (rounds: ${xs.map((x) => fmt(x)).join(", ")})`
    );
  })
  .filter((l) => l !== null);
const sameSandboxVerdicts = verdictLines(sameSandbox);
const cpus = os.cpus();
const perRound = rows
  .map(
    (r) =>
      `${r.mode} -j${r.c}${r.mode === BARE && r.sandbox === "none" ? "" : ` (${r.sandbox})`}: ${r.all.map((ms) => fmt(ms / 1000)).join(", ")} s wall` +
      (r.allCpu.every((x) => x !== null)
        ? `, ${r.allCpu.map((x) => fmt(x)).join(", ")} s CPU`
        : "") +
      (r.allOthers.every((x) => x !== null)
        ? `, other processes ${r.allOthers.map((x) => `${fmt(100 * x, 0)}%`).join(", ")}`
        : ""),
  )
  .join("; ");
const machineLine =
  machine0 && machine1 && machine1.total > machine0.total
    ? `Whole machine during the benchmark: CPU ${fmt((100 * (machine1.busy - machine0.busy)) / (machine1.total - machine0.total), 0)}% busy, ` +
      `${fmt((100 * (machine1.steal - machine0.steal)) / (machine1.total - machine0.total), 1)}% stolen by the hypervisor (/proc/stat).`
    : "";
const meter = cgroupRoot
  ? `CPU = user + system time of every process of the measurement, counted by a cgroup of its own (${cgroupRoot.kind === "v1" ? "cgroup v1 cpuacct" : "cgroup v2 cpu.stat"}), sandboxed processes included; the bare side adds the benchmark process's own CPU during the batch (the scripted model server and the spawning, which the harness does inside its CLI process).`
  : "CPU = user + system time of waited-for child processes (cutime + cstime, /proc/self/stat): no writable cgroup here, so processes a sandbox does not reap (bubblewrap's pid 1) are **not counted**; the CPU columns of sandboxed rows are too low.";
const md = [
  "# `skillbench run` overhead benchmark",
  "",
  `Generated by \`bench/run-overhead.mjs\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${cpus.length} CPUs (${cpus[0]?.model ?? "unknown"}), ` +
    `node ${process.version}, ${os.platform()} ${os.release()}, claude ${claudeVersion}.`,
  `Workload: bench/fixtures/overhead-suite (one task; the scripted model makes one Write call, then ends; a shell validator checks the file), ${count} runs per row` +
    (rounds > 1
      ? `; each figure is the median of ${rounds} rounds (the modes take turns going first).`
      : "."),
  '"skillbench run" is the whole CLI process tree (`node dist/cli/main.js run ... -j N [--sandbox S]`: start-up, suite loading, `claude --version`,',
  "model server, workspaces, the sandbox and its model relay, the agent, evidence, validators, scoring, reports);",
  '"bare claude -p" is the same number of `claude -p` calls against the same scripted model, N at a time, each in a fresh temp dir, no harness and **no sandbox**' +
    (bareSandboxed
      ? "; \"bare claude -p | bwrap\" is the same calls each inside a bubblewrap sandbox of its own, built by the same code as a run's (the layout, the loopback-only network, the model relay): its ratio is what the isolation alone costs, and its harness CPU column the isolation's CPU per run."
      : "."),
  'The "default" rows are what a user gets without --sandbox (auto: bubblewrap here, with the loopback-only network and the model relay); the "local" rows run',
  "without isolation, like the bare calls: that is the like-for-like comparison of the harness's own work.",
  "Wall ratio = harness per-run / bare per-run wall time at the same concurrency (each the median over the rounds); CPU ratio likewise for CPU.",
  "Paired wall ratio = in each round, the harness's wall time / the bare calls' wall time of that same round (run back to back); the cell is the median of those per-round ratios, with their range; paired CPU ratio likewise for CPU.",
  "**The verdict is the paired wall ratio** (the median over the rounds of the per-round ratios): the machine's noise moves whole rounds, and pairing within a round cancels what a round shares. Each verdict line gives a 90% bootstrap interval of that median (rounds resampled, fixed seed): where the target lies inside it, more rounds or a quieter machine are needed to tell.",
  meter,
  "Harness CPU ms per run = (harness CPU − bare CPU) / runs: everything the harness adds, fixed costs spread over the runs. CLI process CPU ms per run = the CLI's own node process (process.cpuUsage at exit, bench/cpu-probe.mjs) / runs.",
  `Load average (1 min): ${loads.length ? `${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} at the start of the measurements` : "n/a"}, ${fmt(os.loadavg()[0], 1)} at the end, on ${cpus.length} CPUs.`,
  "",
  ...table,
  "",
  "What one invocation costs whatever the number of runs (node start-up and module loading, suite and script loading, `claude --version`,",
  "the sandbox probe, the model server, the experiment's files and reports at the end): `skillbench run --count 1 -j 1` against one bare call, medians;",
  `the last column is that fixed wall time divided by the bare side's wall time for ${count} runs, i.e. the part of the wall ratio it accounts for by itself.`,
  "",
  ...fixedTable,
  "",
  `Target: wall ratio ≤ ${TARGET}x at each concurrency, judged on the paired wall ratio (median over ${rounds} round(s) of harness / bare in the same round):`,
  ...verdicts,
  ...(sameSandboxVerdicts.length
    ? [
        "",
        `The harness's own overhead under bubblewrap: the same rows against the bare call in the same sandbox (paired wall ratio, median over ${rounds} round(s)), i.e. with the isolation on both sides:`,
        ...sameSandboxVerdicts,
      ]
    : []),
  ...(marginalLines.length
    ? [
        "",
        `What one more run costs (not the target's measure: what an experiment of thousands of runs pays per run): in each round, the harness's wall time less that round's fixed cost of one invocation (the table above: its one-run invocation less the one bare call, which also holds one run's own overhead, so this is low by about a ${count}th of it), over the bare calls' wall time; median over ${rounds} round(s):`,
        ...marginalLines,
      ]
    : []),
  "",
  `Each round (wall, CPU, and the share of the machine's CPUs other processes used meanwhile, which pairing cannot cancel): ${perRound}.`,
  ...(machineLine ? [machineLine] : []),
  "",
].join("\n");
// The hand-kept "## History" section of the file (what changed between measurements, earlier
// figures) is carried over below the new figures.
const previous = await readFile(outFile, "utf8").catch(() => "");
const history = previous.indexOf("\n## History\n");
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, history >= 0 ? `${md}${previous.slice(history + 1)}` : md);
console.log(`\n${md}\nwritten to ${path.relative(root, outFile)}`);
