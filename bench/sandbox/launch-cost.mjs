#!/usr/bin/env node
// What one launch costs under each sandbox: the price a run pays per process it starts in one.
// Not a test.
//
//   node bench/sandbox/launch-cost.mjs [--launches 40] [--out bench/results/sandbox-launch.md]
//
// Build first (npm run build): it uses the BUILT package (dist/index.js). Needs bubblewrap
// (bash .ci/setup-sandbox.sh) and, for CPU, a writable cgroup (bench/cgroup.mjs; root here).
//
// Rows, each starting `/bin/true` (so what is measured is the launch, not the command):
//   plain                   the command as `local` starts it;
//   bubblewrap, no network  a run's bubblewrap launch (src/sandbox/bwrap-args.ts): the host root
//                           rebuilt read-only entry by entry, private /tmp and HOME, the run dirs,
//                           /workspace, its own PID, IPC, UTS and network namespaces: what the
//                           validators' launch is;
//   bubblewrap + relay      the same, with the model relay in front of the command (the Perl
//                           relay inside, the host relay of the run's socket): what the agent's
//                           launch is;
//   bubblewrap, bare        `bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid
//                           --unshare-net`: the namespaces without the layout's mounts, for
//                           reference (how much of the cost is the layout).
// Every launch goes through the same one-line `sh` that joins the row's cgroup (bench/cgroup.mjs),
// so the rows differ only by the launch. The rows take turns launch by launch (drift on the
// machine spreads over all of them). Per row: the median wall time of a launch, its CPU (the
// row's cgroup total / launches: every process of the launch, kernel time included) and both
// minus the plain row's. Also the CLI's own side: building a launch spec (`sandbox.launcher`).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { findCgroupRoot, inCgroup, newCgroupIn } from "../cgroup.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}
const launches = Number(arg("--launches", "40"));
if (!Number.isInteger(launches) || launches < 1) {
  console.error(`--launches must be a positive whole number, got ${arg("--launches", "")}`);
  process.exit(2);
}
const outFile = path.resolve(root, arg("--out", "bench/results/sandbox-launch.md"));

const sb = await import(pathToFileURL(path.join(root, "dist/index.js")).href);
const probe = await sb.probeSandboxes({ docker: "if-needed" });
if (!probe.bwrap) {
  console.error("bubblewrap cannot start a sandbox here (bash .ci/setup-sandbox.sh)");
  process.exit(2);
}
const cgRoot = await findCgroupRoot("launch");

/** Start `cmd args` and wait for it; resolves with its exit code and wall milliseconds. */
function launch(cmd, args, opts) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: "ignore" });
    child.on("error", () => resolve({ code: null, ms: performance.now() - t0 }));
    child.on("close", (code) => resolve({ code, ms: performance.now() - t0 }));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const scratch = await mkdtemp(path.join(os.tmpdir(), "skillbench-launch-cost-"));
const server = await sb.startModelServer({
  script: await sb.loadModelScript(
    path.join(root, "bench/fixtures/overhead-suite/model-script.yaml"),
  ),
});
const sandboxes = [];
/** The measurement's cgroups, removed at the end whatever happens. */
const cgroups = [];
try {
  /** A run's dirs and a started bubblewrap sandbox with the given network policy. */
  const sandboxFor = async (name, network) => {
    const runRoot = path.join(scratch, name);
    const runDirs = {
      root: runRoot,
      workspace: path.join(runRoot, "workspace"),
      home: path.join(runRoot, "home"),
      config: path.join(runRoot, "config"),
      tmp: path.join(runRoot, "tmp"),
    };
    for (const d of Object.values(runDirs)) await mkdir(d, { recursive: true });
    const s = await sb.createSandbox("bwrap", {
      runDirs,
      task: { environmentDir: null },
      agentBin: "/bin/true",
      resultsDir: path.join(scratch, "results"),
      modelEndpoint: server.url,
      network,
    });
    await s.start();
    sandboxes.push(s);
    return { s, runDirs };
  };
  const none = await sandboxFor("none", "none");
  const relayed = await sandboxFor("relay", "model-only");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: none.runDirs.home };
  const base = { cmd: "/bin/true", args: [], cwd: none.runDirs.workspace, env };
  const agentLike = {
    cmd: "/bin/true",
    args: [],
    cwd: relayed.runDirs.workspace,
    env: { PATH: env.PATH, HOME: relayed.runDirs.home, ANTHROPIC_BASE_URL: server.url },
  };
  const withRelay = relayed.s.launcher(agentLike);
  if (!withRelay.args.some((a) => a.includes("skillbench relay")))
    throw new Error("the relayed launch has no model relay in front of the command");
  const rows = [
    { name: "plain (`local`)", spec: base },
    { name: "bubblewrap, no network (validators)", spec: none.s.launcher(base) },
    { name: "bubblewrap + model relay (agent)", spec: withRelay },
    {
      name: "bubblewrap, bare namespaces (reference)",
      spec: {
        ...base,
        cmd: "bwrap",
        args: [
          ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
          ...["--unshare-pid", "--unshare-net", "--", "/bin/true"],
        ],
      },
    },
  ];
  for (const r of rows) {
    r.cg = await newCgroupIn(cgRoot, `launch-${rows.indexOf(r)}`);
    if (r.cg) cgroups.push(r.cg);
    r.ms = [];
  }
  // One untimed launch each (page cache), then the rows take turns.
  for (const r of rows) await launch(r.spec.cmd, r.spec.args, r.spec);
  for (let i = 0; i < launches; i += 1) {
    for (const r of rows) {
      const c = inCgroup(r.cg, r.spec.cmd, r.spec.args);
      const res = await launch(c.cmd, c.args, r.spec);
      if (res.code !== 0) throw new Error(`${r.name}: exit ${res.code}`);
      r.ms.push(res.ms);
    }
  }
  for (const r of rows) r.cpuMs = r.cg ? ((await r.cg.cpuSeconds()) * 1000) / launches : null;
  // The CLI's side of a launch: building the spec (pure, in process).
  const specReps = 2000;
  const t0 = performance.now();
  for (let i = 0; i < specReps; i += 1) relayed.s.launcher(agentLike);
  const specUs = ((performance.now() - t0) * 1000) / specReps;

  const plain = rows[0];
  const f = (x) => (x === null ? "—" : x.toFixed(2));
  const lines = [
    "# What one sandbox launch costs",
    "",
    `Generated by \`bench/sandbox/launch-cost.mjs\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? "?"}), node ${process.version}, linux ${os.release()}.`,
    `Each row starts \`/bin/true\` ${launches} times (the rows taking turns), through the same \`sh\` that joins the row's cgroup; wall = median per launch, CPU = the cgroup's total / launches (every process of the launch, kernel time included). ${cgRoot ? `CPU meter: cgroup ${cgRoot.kind}.` : "**No writable cgroup: CPU not measured.**"}`,
    "A run under the default sandbox (bubblewrap) makes two launches: the agent's (with the model relay) and the validators' (no network); `local` makes the same two plainly.",
    "",
    "| launch | wall ms | CPU ms | wall over plain, ms | CPU over plain, ms |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => {
      const w = median(r.ms);
      const pw = median(plain.ms);
      const over = r === plain;
      return `| ${r.name} | ${f(w)} | ${f(r.cpuMs)} | ${over ? "—" : f(w - pw)} | ${over || r.cpuMs === null || plain.cpuMs === null ? "—" : f(r.cpuMs - plain.cpuMs)} |`;
    }),
    "",
    `Building one bubblewrap launch spec in the CLI (\`sandbox.launcher\`): ${specUs.toFixed(1)} µs.`,
    "",
  ];
  await writeFile(outFile, lines.join("\n"));
  console.log(lines.join("\n"));
  console.log(`written to ${path.relative(process.cwd(), outFile)}`);
} finally {
  for (const cg of cgroups) await cg.remove();
  for (const s of sandboxes) await s.stop();
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}
