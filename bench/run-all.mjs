#!/usr/bin/env node
// Runs every benchmark in bench/, one after the other, against the BUILT package (dist/).
// `npm run bench` builds first and then runs this.
//
//   node bench/run-all.mjs [--full] [--only parser,parser-hostile,run-overhead,sandbox,sandbox-launch,queue,html]
//
// --full  the benchmarks' own (larger) defaults: a 100 MB transcript for the parser bench.
// --only  a comma-separated subset, by name.
// Benchmarks are not tests: no target failure changes the exit code. The exit code is 1
// only when a benchmark could not run (a crash, or runs that did not pass).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const full = process.argv.includes("--full");
const onlyIdx = process.argv.indexOf("--only");
const only = onlyIdx >= 0 ? (process.argv[onlyIdx + 1] ?? "").split(",").filter(Boolean) : null;

const BENCHES = [
  {
    name: "parser",
    script: "bench/parser/parser-bench.mjs",
    // Small by default so that `npm run bench` stays a few minutes; --full for the 100 MB figure.
    args: full ? [] : ["--mb", "20", "--reps", "2"],
    result: "bench/results/parser.md",
  },
  {
    name: "parser-hostile",
    // Peak RSS on a 20 MB JSONL line, 200 MB of tool output and a 20 MB model script (budget 300 MB).
    script: "bench/parser/hostile-bench.mjs",
    args: [],
    result: "bench/results/parser-hostile.md",
  },
  {
    name: "run-overhead",
    script: "bench/run-overhead.mjs",
    args: [],
    result: "bench/results/run-overhead.md",
  },
  {
    name: "sandbox",
    // TypeScript, run through tsx; needs bubblewrap and Docker (bash .ci/setup-sandbox.sh).
    script: "node_modules/tsx/dist/cli.mjs",
    args: ["bench/sandbox/sandbox-overhead.ts", full ? "5" : "3"],
    result: "bench/results/sandbox.md",
    needs: () =>
      existsSync("/usr/bin/bwrap")
        ? null
        : "bubblewrap is not installed (bash .ci/setup-sandbox.sh)",
  },
  {
    name: "sandbox-launch",
    // What one launch costs under bubblewrap (the agent's with the model relay, the validators').
    script: "bench/sandbox/launch-cost.mjs",
    args: ["--launches", full ? "100" : "40"],
    result: "bench/results/sandbox-launch.md",
    needs: () =>
      existsSync("/usr/bin/bwrap")
        ? null
        : "bubblewrap is not installed (bash .ci/setup-sandbox.sh)",
  },
  {
    name: "queue",
    // A redis-server started by the benchmark; 1, 2 and 4 workers (docs/distributed.md).
    script: "bench/queue.mjs",
    args: full ? ["--count", "20", "--rounds", "3"] : ["--count", "10"],
    result: "bench/results/queue.md",
    needs: () =>
      existsSync("/usr/bin/redis-server") ? null : "no redis-server (apt-get install redis-server)",
  },
  {
    name: "html",
    // 1,000 runs and 50 MB of transcripts in Chromium; needs /usr/bin/chromium.
    script: "bench/html/run.mjs",
    args: [],
    result: "bench/results/html.md",
    needs: () =>
      existsSync("/usr/bin/chromium") ? null : "no /usr/bin/chromium (apt-get install chromium)",
  },
];

const unknown = (only ?? []).filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) {
  console.error(
    `--only: unknown benchmark(s) ${unknown.join(", ")}; known: ${BENCHES.map((b) => b.name).join(", ")}`,
  );
  process.exit(2);
}
if (!existsSync(path.join(root, "dist/index.js"))) {
  console.error("missing dist/: build first (npm run build), or use npm run bench");
  process.exit(2);
}

function runScript(script, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, script), ...args], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", (e) => resolve({ code: null, error: e.message }));
    child.on("close", (code, signal) =>
      resolve({ code, error: signal ? `killed by ${signal}` : null }),
    );
  });
}

const done = [];
for (const b of BENCHES.filter((x) => !only || only.includes(x.name))) {
  const missing = b.needs?.() ?? null;
  if (missing) {
    console.log(`\n=== ${b.name}: not run: ${missing}`);
    done.push({ ...b, ok: true, detail: "", s: 0, skipped: missing });
    continue;
  }
  console.log(`\n=== ${b.name}: node ${[b.script, ...b.args].join(" ")}`);
  const t0 = performance.now();
  const r = await runScript(b.script, b.args);
  const s = (performance.now() - t0) / 1000;
  done.push({
    ...b,
    ok: r.code === 0,
    detail: r.code === 0 ? "" : (r.error ?? `exit ${r.code}`),
    s,
  });
}

console.log("\n=== benchmark results");
for (const b of done) {
  const word = b.skipped ? "SKIP  " : b.ok ? "ok    " : "FAILED";
  console.log(
    `${word} ${b.name.padEnd(13)} ${b.s.toFixed(0).padStart(4)} s  ${b.skipped ?? (b.ok ? b.result : b.detail)}`,
  );
}
console.log("What each one measures and the targets: bench/README.md");
process.exit(done.every((b) => b.ok) ? 0 : 1);
