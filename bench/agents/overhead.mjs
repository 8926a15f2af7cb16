#!/usr/bin/env node
// Per-agent run overhead: each agent under `skillbench run` against its own bare CLI call. Not a test.
//
//   node bench/agents/overhead.mjs [--agents claude,codex,gemini,opencode] [--count 3] [--rounds 3]
//                                  [--out bench/results/agents.md]
//
// For each agent, on the one-task suite bench/fixtures/agents-overhead-suite (the scripted
// model writes one file as an agent-neutral action, then ends), alternating which goes first:
// - skillbench: the BUILT CLI (`node dist/cli/main.js run … --agent A --count N -j 1
//   --sandbox local`): start-up, suite loading, the agent's `--version`, the model server,
//   workspaces, evidence, validators, scoring and the reports. `--sandbox local`: the sandbox's
//   own cost is bench/sandbox's subject;
// - bare: N calls of the same CLI, one after the other, with the command line, environment and
//   state folder skillbench's driver gives it (src/agents), against a model server started here
//   playing the same script, each in a fresh temp folder, nothing else.
// Per-run figures are the median over --rounds rounds; CPU = user + system time of all
// waited-for child processes (/proc/self/stat), much less disturbed by other load than wall time.
// The machine's load average and busy share are recorded: figures under load are indicative.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const cliMain = path.join(root, "dist/cli/main.js");
const suiteDir = path.join(root, "bench/fixtures/agents-overhead-suite");
const scriptFile = path.join(suiteDir, "model-script.yaml");
const prompt = (
  await readFile(path.join(suiteDir, "tasks/write-file/instruction.md"), "utf8")
).trim();

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
const agents = arg("--agents", "claude,codex,gemini,opencode").split(",");
const count = positiveInt("--count", arg("--count", "3"));
const rounds = positiveInt("--rounds", arg("--rounds", "3"));
const outFile = path.resolve(root, arg("--out", "bench/results/agents.md"));

if (!existsSync(cliMain)) {
  console.error("missing dist/: build first (npm run build)");
  process.exit(2);
}
const sb = await import(pathToFileURL(path.join(root, "dist/index.js")).href);
const { agentDriver } = await import(pathToFileURL(path.join(root, "dist/agents/index.js")).href);

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
    child.on("error", (e) => resolve({ code: null, stdout: "", stderr: String(e) }));
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const CLK_TCK =
  Number(
    (await run("getconf", ["CLK_TCK"], { cwd: os.tmpdir(), env: process.env })).stdout.trim(),
  ) || 100;
async function childCpu() {
  const stat = await readFile("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[13]) + Number(f[14])) / CLK_TCK;
}
async function machine() {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    total: user + nice + system + idle + iowait + irq + softirq + (steal || 0),
    busy: user + nice + system + irq + softirq,
  };
}

const scratch = await mkdtemp(path.join(os.tmpdir(), "skillbench-bench-agents-"));
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LANG: "C.UTF-8",
  HOME: path.join(scratch, "home"),
  TMPDIR: path.join(scratch, "tmp"),
};
await mkdir(env.HOME, { recursive: true });
await mkdir(env.TMPDIR, { recursive: true });
const server = await sb.startModelServer({ script: await sb.loadModelScript(scriptFile) });

/** `count` bare calls of one agent's CLI, one after the other; wall ms and CPU s in all. */
async function bare(driver, bin) {
  const cpu0 = await childCpu();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const dir = await mkdtemp(path.join(scratch, `bare-${driver.name}-`));
    const dirs = {
      home: path.join(dir, "home"),
      config: path.join(dir, "config"),
      tmp: path.join(dir, "tmp"),
    };
    const ws = path.join(dir, "ws");
    await Promise.all([...Object.values(dirs), ws].map((d) => mkdir(d, { recursive: true })));
    const p = await driver.prepare({
      hostEnv: env,
      dirs,
      endpoint: { baseUrl: server.url, apiKey: "sk-skillbench-scripted" },
      maxRetries: 0,
    });
    const cmd = driver.command({ prompt });
    const r = await run(bin, [...p.baseArgs, ...cmd.args], { cwd: ws, env: p.env });
    const ok = r.code === 0 && existsSync(path.join(ws, "out.txt"));
    await rm(dir, { recursive: true, force: true });
    if (!ok)
      throw new Error(
        `bare ${driver.name} call failed (exit ${r.code}): ${(r.stdout + r.stderr).slice(-800)}`,
      );
  }
  return { ms: performance.now() - t0, cpu: (await childCpu()) - cpu0 };
}

/** `skillbench run` of `count` runs on one agent, -j 1. */
async function harness(agent, round) {
  const out = path.join(scratch, `run-${agent}-${round}`);
  const cpu0 = await childCpu();
  const t0 = performance.now();
  const r = await run(
    process.execPath,
    [
      cliMain,
      "run",
      suiteDir,
      "--model-script",
      scriptFile,
      "--agent",
      agent,
      "--count",
      String(count),
      "-j",
      "1",
      "--sandbox",
      "local",
      "--agent-retries",
      "0",
      "--out",
      out,
      "--no-judge",
    ],
    { cwd: root, env },
  );
  const ms = performance.now() - t0;
  const cpu = (await childCpu()) - cpu0;
  const { reports } = await sb.readReports(out);
  const passed = reports.filter((x) => x.passed).length;
  if (r.code !== 0 || passed !== count)
    throw new Error(
      `skillbench run --agent ${agent}: exit ${r.code}, ${passed}/${count} passed\n${r.stderr.slice(-800)}`,
    );
  await rm(out, { recursive: true, force: true });
  return { ms, cpu };
}

const load0 = os.loadavg();
const m0 = await machine();
const rows = [];
try {
  for (const name of agents) {
    const driver = agentDriver(name);
    if (driver === null) throw new Error(`unknown agent ${name}`);
    const bin = driver.resolveBinary({ env: process.env });
    if ("error" in bin) {
      console.error(`SKIP ${name}: ${bin.error}`);
      continue;
    }
    const version = await driver.version(bin.path, { PATH: env.PATH, HOME: os.tmpdir() }, root);
    await bare(driver, bin.path); // warm-up, untimed: the disk cache
    const b = [];
    const h = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? ["b", "h"] : ["h", "b"];
      for (const m of order) {
        const s = m === "b" ? await bare(driver, bin.path) : await harness(name, round);
        (m === "b" ? b : h).push(s);
        console.error(
          `${name} round ${round} ${m === "b" ? "bare" : "skillbench"}: ${(s.ms / 1000).toFixed(2)} s, CPU ${s.cpu.toFixed(2)} s`,
        );
      }
    }
    rows.push({ name, display: driver.displayName, version, b, h });
  }
} finally {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
const load1 = os.loadavg();
const m1 = await machine();
const busy = m1.total > m0.total ? (100 * (m1.busy - m0.busy)) / (m1.total - m0.total) : null;

const f = (x, d = 2) => x.toFixed(d);
const lines = [
  "# Per-agent run overhead",
  "",
  `Generated by \`bench/agents/overhead.mjs\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, ${os.platform()} ${os.release()}.`,
  `Workload: bench/fixtures/agents-overhead-suite (one task; the scripted model writes one file as an agent-neutral action, then ends), ${count} runs per measurement, -j 1, median of ${rounds} rounds (alternating which side goes first).`,
  `"skillbench" is the whole \`skillbench run --agent A --sandbox local\` process (start-up, suite, \`--version\`, model server, workspaces, evidence, validators, scoring, reports); "bare" is the same CLI called ${count} times with the command line, environment and state folder skillbench's driver gives it, against the same script, each in a fresh temp folder.`,
  "",
  "| agent | version | bare s/run | skillbench s/run | overhead s/run | wall ratio | bare CPU s/run | skillbench CPU s/run | CPU ratio |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const r of rows) {
  const bw = median(r.b.map((x) => x.ms)) / 1000 / count;
  const hw = median(r.h.map((x) => x.ms)) / 1000 / count;
  const bc = median(r.b.map((x) => x.cpu)) / count;
  const hc = median(r.h.map((x) => x.cpu)) / count;
  lines.push(
    `| ${r.display} | ${r.version ?? "?"} | ${f(bw)} | ${f(hw)} | ${hw - bw >= 0 ? "+" : ""}${f(hw - bw)} | ${f(hw / bw)}x | ${f(bc)} | ${f(hc)} | ${f(hc / bc)}x |`,
  );
}
lines.push(
  "",
  `Machine load: load average ${load0.map((x) => f(x)).join(" ")} at the start, ${load1.map((x) => f(x)).join(" ")} at the end; the CPUs were ${busy === null ? "?" : f(busy, 0)}% busy over the benchmark (/proc/stat).`,
  "This machine is shared (other work runs on its 2 cores at the same time), so the wall figures are indicative; CPU time is far less affected. The harness's per-run cost is spread over a run's whole life: a short run (a few seconds) shows it as a large ratio, a real agent run of minutes as a small one.",
  "",
  "Wall seconds of each round (bare / skillbench): " +
    rows
      .map(
        (r) =>
          `${r.name}: ${r.b.map((x) => f(x.ms / 1000)).join(", ")} / ${r.h.map((x) => f(x.ms / 1000)).join(", ")}`,
      )
      .join("; ") +
    ".",
  "",
);
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, lines.join("\n"));
console.log(lines.join("\n"));
