// Benchmark (not a test): skillbench's report commands at the scale distributed runs bring.
//
//   node bench/scale/scale-bench.mjs [--runs 1000,10000,100000] [--source DIR] [--keep]
//                                    [--commands index,report-noindex,report-html-noindex,report,report-html,report-html-heap128,report-html-heap48,compare,rescore,rescore-j1]
//                                    [--work DIR] [--rescore-up-to 20000] [--reps N]
//
// It needs a real results folder to copy from (--source; by default it runs the demo suite once,
// offline, into a temporary folder). It then generates N synthetic runs from it: every run folder
// is one of the source's, with report.json's ids, task, repetition and outcome changed (task i of
// 100, rep r), the other files hard-linked. For each N it measures, in the same run:
//   floor:        read and JSON.parse every runs/*/report.json (16 at a time, with fs/promises: the
//                 floor issues 19 and 41 set the targets against)
//   sync floor:   the same, one file at a time with readFileSync (as readStoredRuns reads today):
//                 shown beside it, for what reading alone can cost (no target is set against it)
//   index:        the indexing pass alone: readStoredRuns (dist/store/read.js) in a fresh node
//                 process on the folder without its run index (reads every report.json, writes
//                 the index); the modules it loads included
//   report-noindex: skillbench report DIR --no-html, the index deleted first
//   report-html-noindex: skillbench report DIR --junit FILE (HTML and JUnit), the index deleted first
//   report:       skillbench report DIR --no-html
//   report-html:  skillbench report DIR --junit FILE (HTML and JUnit included)
//   report-html-heap128: the same in node --max-old-space-size=128 (the memory it needs live)
//   report-html-heap48:  the same at 48 MB
//   compare:      skillbench compare DIR --no-html
//   rescore:      skillbench rescore DIR --no-html (no agent; its worker threads, one per CPU), only at sizes up to --rescore-up-to
//   rescore-j1:   the same on one thread (-j 1)
//                 (default 20,000): it re-reads every run's transcript and files and writes each
//                 run's report again, so its own floor is far above reading report.json: measured
//                 beside it are its reading floor (the files it reads, read and parsed) and its
//                 scoring floor (rescore-floor.mjs: the scoring step only, on as many threads as
//                 the rescore row, nothing written); the rescore rows give their ratio to the latter
// each as wall seconds, the ratio to the floor, CPU seconds, and peak RSS (/usr/bin/time); and
// the memory the run digests of the reports hold per run (heap and typed arrays, after a full GC).
// --work DIR generates each size into DIR/runs-N and keeps it; a later call with the same --work
// reuses a folder whose metadata.json lists N runs (100,000 runs take a while to generate).
// --reps N (default 1) measures every row N times, in rounds (each round: the floors, then every
// command, in order), and keeps each row's repetition with the least CPU: the machine's noise
// only ever adds time.
// Writes the table into bench/results/scale.md (between its markers). Targets (issue 41,
// bench/README.md): the index pass ≤ the floor's CPU; report with HTML and JUnit ≤ 2× the floor's CPU
// at 10,000 and 100,000 runs, with and without the index, under 500 MB.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import {
  copyFile,
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = path.join(ROOT, "dist", "cli", "main.js");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const SIZES = arg("--runs", "1000,10000").split(",").map(Number);
const COMMANDS = arg(
  "--commands",
  "index,report-noindex,report-html-noindex,report,report-html,report-html-heap128,report-html-heap48,compare,rescore,rescore-j1",
)
  .split(",")
  .filter((c) => c !== "");
const TASKS = 100;
const RESCORE_UP_TO = Number(arg("--rescore-up-to", "20000"));
const REPS = Math.max(1, Number(arg("--reps", "1")));

function sh(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...opts });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

async function sourceFolder() {
  const given = arg("--source", null);
  if (given) return given;
  const out = await mkdtemp(path.join(tmpdir(), "skillbench-scale-src-"));
  const suite = path.join(ROOT, "examples", "demo-suite");
  const r = await sh(process.execPath, [
    CLI,
    "run",
    suite,
    "--model-script",
    path.join(suite, "model-script.yaml"),
    "--count",
    "3",
    "--out",
    path.join(out, "r"),
    "--exit-zero",
    "--no-html",
    "--sandbox",
    "local",
  ]);
  if (r.code !== 0) throw new Error(`demo run failed: ${r.err}`);
  return path.join(out, "r");
}

async function linkTree(from, to) {
  await mkdir(to, { recursive: true });
  for (const e of await readdir(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) await linkTree(a, b);
    else if (e.isFile()) await link(a, b);
  }
}

/** A session id of the form an agent gives (a UUID), one per synthetic run. */
function sessionId(i) {
  const h = i.toString(16).padStart(12, "0");
  return `5e551000-0000-4000-8000-${h}`;
}

/** N synthetic runs from the source's run folders; metadata's matrix lists them all. */
async function generate(src, n) {
  const work = arg("--work", null);
  let dir;
  if (work) {
    dir = path.join(work, `runs-${n}`);
    // Written last by a complete generation: a folder cut short is generated again.
    const done = await readFile(path.join(dir, ".generated"), "utf8").catch(() => null);
    if (done !== null) return { dir, runs: Number(done), reused: true };
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  } else dir = await mkdtemp(path.join(tmpdir(), `skillbench-scale-${n}-`));
  const runIds = (await readdir(path.join(src, "runs"))).sort();
  const protos = [];
  for (const id of runIds)
    protos.push({
      id,
      report: JSON.parse(await readFile(path.join(src, "runs", id, "report.json"), "utf8")),
    });
  const treatments = [...new Set(protos.map((p) => p.report.treatment))].sort();
  const perTaskTreatment = Math.max(1, Math.floor(n / (TASKS * treatments.length)));
  const matrix = [];
  let i = 0;
  outer: for (let t = 0; t < TASKS; t++)
    for (const tr of treatments)
      for (let rep = 1; rep <= perTaskTreatment; rep++) {
        if (i >= n) break outer;
        const candidates = protos.filter((p) => p.report.treatment === tr);
        const proto = candidates[i % candidates.length];
        const task = `task-${String(t).padStart(3, "0")}`;
        const runId = `${task}-${tr}-r${rep}`;
        const runDir = path.join(dir, "runs", runId);
        await linkTree(path.join(src, "runs", proto.id), runDir);
        await rm(path.join(runDir, "report.json"));
        // The outcome varies with a fixed pattern so that tasks differ and the statistics work.
        const passed = (t * 7 + rep * 3 + (tr === treatments[0] ? 0 : 5)) % 10 < 6;
        const report = {
          ...proto.report,
          run_id: runId,
          task,
          rep,
          passed,
          status: passed ? "passed" : "failed",
          checks_passed: passed ? ["check_a", "check_b"] : ["check_a"],
          checks_failed: passed ? [] : ["check_b: wrong"],
          // What differs in every real run besides: its own model endpoint (in the sandbox's
          // network policy) and its agent's session id.
          ...(proto.report.sandbox
            ? {
                sandbox: {
                  ...proto.report.sandbox,
                  network_policy: proto.report.sandbox.network_policy.replace(
                    /\/runs\/[^ )]*/,
                    `/runs/${task}/${encodeURIComponent(tr)}/${rep}/subject`,
                  ),
                },
              }
            : {}),
          ...(proto.report.interaction
            ? {
                interaction: {
                  ...proto.report.interaction,
                  role_sessions: { subject: [sessionId(i)], simulator: [] },
                },
              }
            : {}),
        };
        await writeFile(path.join(runDir, "report.json"), JSON.stringify(report, null, 2));
        matrix.push({ run_id: runId, task, treatment: tr, rep });
        i++;
      }
  for (const f of ["suite.json", "model-requests.jsonl"]) {
    if (existsSync(path.join(src, f))) await link(path.join(src, f), path.join(dir, f));
  }
  if (existsSync(path.join(src, "profiles")))
    await linkTree(path.join(src, "profiles"), path.join(dir, "profiles"));
  const meta = JSON.parse(await readFile(path.join(src, "metadata.json"), "utf8"));
  meta.matrix = matrix;
  meta.tasks = [...new Set(matrix.map((m) => m.task))];
  meta.count = perTaskTreatment;
  meta.total_runs = matrix.length;
  await writeFile(path.join(dir, "metadata.json"), JSON.stringify(meta, null, 2));
  if (work) await writeFile(path.join(dir, ".generated"), String(matrix.length));
  return { dir, runs: matrix.length, reused: false };
}

/** The floor: read and parse every report.json, 16 at a time, in a fresh node process. */
const FLOOR = `
const fs=require("fs/promises"),path=require("path");
(async()=>{const dir=process.argv[1];const ids=(await fs.readdir(path.join(dir,"runs"))).sort();
let i=0,n=0;async function w(){while(i<ids.length){const id=ids[i++];JSON.parse(await fs.readFile(path.join(dir,"runs",id,"report.json"),"utf8"));n++;}}
await Promise.all(Array.from({length:16},w));if(n!==ids.length)process.exit(1);})();`;

/** The floor read one file at a time, synchronously (as readStoredRuns reads report.json files). */
const SYNC_FLOOR = `
const fs=require("fs"),path=require("path");
const dir=process.argv[1];const ids=fs.readdirSync(path.join(dir,"runs")).sort();let n=0;
for(const id of ids){JSON.parse(fs.readFileSync(path.join(dir,"runs",id,"report.json"),"utf8"));n++;}
if(n!==ids.length)process.exit(1);`;

// What `rescore` must read of each run, read and parsed the same way: its JSON files, and the
// agent's stream line by line (and stderr.txt, for its tail).
const RESCORE_FLOOR = `
const fs=require("fs/promises"),path=require("path");
const J=["report.json","plan.json","baseline-files.json","validation.json","workspace-manifest.json","events.json"];
(async()=>{const dir=process.argv[1];const ids=(await fs.readdir(path.join(dir,"runs"))).sort();
let i=0,n=0;async function w(){while(i<ids.length){const d=path.join(dir,"runs",ids[i++]);
for(const f of J){const t=await fs.readFile(path.join(d,f),"utf8").catch(()=>null);if(t!==null)JSON.parse(t);}
for(const l of (await fs.readFile(path.join(d,"stdout.jsonl"),"utf8")).split("\\n"))if(l)try{JSON.parse(l)}catch{}
await fs.readFile(path.join(d,"stderr.txt"),"utf8").catch(()=>null);n++;}}
await Promise.all(Array.from({length:16},w));if(n!==ids.length)process.exit(1);})();`;

/** rescore's own floor, the scoring step only, on N threads (argv: DIR --threads N). */
const RESCORE_SCORING_FLOOR = path.join(ROOT, "bench", "scale", "rescore-floor.mjs");
/** The threads `rescore` uses by default on `runs` runs (util/threads.ts defaultThreads, from 500 runs). */
const rescoreThreads = (runs) => (runs >= 500 ? Math.min(os.availableParallelism(), 8) : 1);

/** The heap and ArrayBuffer bytes readStoredRuns' result holds (argv: folder, the CLI's path). */
const DIGEST_HEAP = `
const path=require("path");
(async()=>{const [dir,cli]=process.argv.slice(1);
const {readStoredRuns}=await import(path.join(path.dirname(cli),"..","store","read.js"));
const m=()=>{gc();gc();return process.memoryUsage();};
const a=m();const runs=await readStoredRuns(dir);const b=m();
if(runs.digests.length===0)process.exit(1);
console.log(JSON.stringify({heap:b.heapUsed-a.heapUsed,buffers:b.arrayBuffers-a.arrayBuffers}));})();`;

/**
 * The V8 flags the bin's launcher sets before it loads the CLI (scripts/cli-launcher.mjs), read from
 * it: the index pass runs its code as the CLI does.
 */
const LAUNCHER_V8_FLAGS = [
  ...(existsSync(CLI) ? readFileSync(CLI, "utf8") : "").matchAll(
    /v8\.setFlagsFromString\("([^"]+)"\)/g,
  ),
].map((m) => m[1]);

/** The indexing pass alone (argv: folder, the CLI's path): readStoredRuns on a folder without its index. */
const INDEX_PASS = `
const path=require("path");
for (const f of ${JSON.stringify(LAUNCHER_V8_FLAGS)}) require("v8").setFlagsFromString(f);
(async()=>{const [dir,cli]=process.argv.slice(1);
const {readStoredRuns}=await import(path.join(path.dirname(cli),"..","store","read.js"));
const runs=await readStoredRuns(dir);if(runs.digests.length===0)process.exit(1);})();`;

/** A table row that only says something (no timings): figures measured beside the commands. */
function noteRow(n, cmd) {
  return { n, cmd, s: NaN, cpu: NaN, mb: NaN, ratio: NaN, cpuRatio: NaN, load: NaN };
}

async function timed(args) {
  const t0 = process.hrtime.bigint();
  const r = await sh("/usr/bin/time", ["-f", "%M %U %S", ...args]);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const [rssKb, user, sys] = (r.err.trim().split("\n").pop() ?? "").split(" ").map(Number);
  if (r.code !== 0) throw new Error(`${args.join(" ")} exited ${r.code}: ${r.err.slice(-2000)}`);
  return { s, cpu: (user ?? NaN) + (sys ?? NaN), mb: (rssKb ?? NaN) / 1024, load: os.loadavg()[0] };
}

/** Where `--junit` writes (beside the folder, not in it). */
const junitOf = (d) => `${d}.junit.xml`;
const COMMAND_ARGS = {
  // The first report of a folder without its run index (.run-index.jsonl) reads every
  // report.json and writes the index; the end of `run` does the same.
  "report-noindex": (d) => ["report", d, "--no-html"],
  "report-html-noindex": (d) => ["report", d, "--junit", junitOf(d)],
  report: (d) => ["report", d, "--no-html"],
  "report-html": (d) => ["report", d, "--junit", junitOf(d)],
  compare: (d) => ["compare", d, "--no-html"],
  rescore: (d) => ["rescore", d, "--no-html"],
  "rescore-j1": (d) => ["rescore", d, "--no-html", "-j", "1"],
  // The same with V8's old space capped at 128 MB: what the command needs live, not the heap V8
  // lets grow between collections when nothing caps it.
  "report-html-heap128": (d) => ["report", d],
  // ... and at 48 MB: the live memory of the packed digests and the reports being written.
  "report-html-heap48": (d) => ["report", d],
  // Not a CLI command: the indexing pass in a node process of its own (INDEX_PASS).
  index: (d) => ["-e", INDEX_PASS, d, CLI],
};
/** Rows that delete the run index first (a folder copied without it). */
const NO_INDEX = new Set(["index", "report-noindex", "report-html-noindex"]);
/** Node flags of a command (before the CLI's path). */
const NODE_FLAGS = {
  "report-html-heap128": ["--max-old-space-size=128"],
  "report-html-heap48": ["--max-old-space-size=48"],
};

for (const c of COMMANDS)
  if (!COMMAND_ARGS[c]) {
    console.error(`unknown command ${c} (one of ${Object.keys(COMMAND_ARGS).join(", ")})`);
    process.exit(2);
  }
const rows = [];
const src = await sourceFolder();
console.error(`source: ${src}`);
for (const n of SIZES) {
  const { dir, runs, reused } = await generate(src, n);
  console.error(`${reused ? "reusing" : "generated"} ${runs} runs in ${dir}`);
  // Warm the page cache once, untimed.
  await sh(process.execPath, ["-e", FLOOR, dir]);
  // Each row's repetition with the least CPU (in rounds: load that drifts touches every row alike).
  const least = (a, b) => (a === undefined || b.cpu < a.cpu ? b : a);
  let floor;
  let syncFloor;
  let rescoreFloor;
  const scoringFloors = new Map();
  const measured = new Map();
  for (let round = 0; round < REPS; round++) {
    floor = least(floor, await timed([process.execPath, "-e", FLOOR, dir]));
    syncFloor = least(syncFloor, await timed([process.execPath, "-e", SYNC_FLOOR, dir]));
    // rescore reads seven files of each run, not one: its own floor, measured the same way.
    if (COMMANDS.some((c) => c.startsWith("rescore")) && runs <= RESCORE_UP_TO)
      rescoreFloor = least(rescoreFloor, await timed([process.execPath, "-e", RESCORE_FLOOR, dir]));
    // rescore's own floor (issue 41): the scoring step only, on as many threads as the rescore
    // row it is compared with (rescore-floor.mjs); rescore's ratio to it is its own overhead.
    for (const c of ["rescore", "rescore-j1"]) {
      if (!COMMANDS.includes(c) || runs > RESCORE_UP_TO) continue;
      const threads = c === "rescore-j1" ? 1 : rescoreThreads(runs);
      const m = await timed([
        process.execPath,
        RESCORE_SCORING_FLOOR,
        dir,
        "--threads",
        String(threads),
      ]);
      scoringFloors.set(c, { ...least(scoringFloors.get(c), m), threads });
    }
    for (const c of COMMANDS) {
      const rescore = c.startsWith("rescore");
      if (rescore && runs > RESCORE_UP_TO) continue;
      if (NO_INDEX.has(c)) await rm(path.join(dir, ".run-index.jsonl"), { force: true });
      // rescore rewrites every run's files: it works on a hard-linked copy (its atomic writes
      // replace the copy's links), so the generated folder keeps its synthetic outcomes.
      const target = rescore ? `${dir}-rescore` : dir;
      if (rescore) {
        await rm(target, { recursive: true, force: true });
        const cp = await sh("cp", ["-al", dir, target]);
        if (cp.code !== 0) throw new Error(`cp -al ${dir}: ${cp.err}`);
        // rescore writes a new run index and renames it into place; the copy gets its own index
        // anyway (rescore appended to it, through the link, before it wrote it anew).
        const index = path.join(target, ".run-index.jsonl");
        if (existsSync(index)) {
          await rm(index);
          await copyFile(path.join(dir, ".run-index.jsonl"), index);
        }
      }
      const m = await timed([
        process.execPath,
        ...(NODE_FLAGS[c] ?? []),
        ...(c === "index" ? [] : [CLI]),
        ...COMMAND_ARGS[c](target),
      ]);
      if (rescore) await rm(target, { recursive: true, force: true });
      measured.set(c, least(measured.get(c), m));
      console.error(
        `${runs} ${c} (round ${round + 1} of ${REPS}): ${m.cpu.toFixed(2)} CPU s (${(m.cpu / floor.cpu).toFixed(2)}× the least floor so far), ${m.mb.toFixed(0)} MB`,
      );
    }
  }
  const repsNote = REPS > 1 ? `, least of ${REPS}` : "";
  /** A row of the table: a measurement and its ratios to the floor. */
  const row = (cmd, m) => ({
    n: runs,
    cmd,
    ...m,
    ratio: m.s / floor.s,
    cpuRatio: m.cpu / floor.cpu,
  });
  rows.push(row(`floor (read + parse report.json, 16 at a time${repsNote})`, floor));
  rows.push(
    row(
      "sync floor (the same, one file at a time with readFileSync, as readStoredRuns reads; no target is set against it)",
      syncFloor,
    ),
  );
  if (rescoreFloor)
    rows.push(
      row(
        "rescore's reading floor (read + parse the files rescore reads: 6 JSON files, stdout.jsonl line by line, stderr.txt)",
        rescoreFloor,
      ),
    );
  for (const m of scoringFloors.values())
    rows.push(
      row(
        `rescore's floor: the scoring step only (each run read, decoded, scored, its report derived; nothing written), ${m.threads} thread${m.threads === 1 ? "" : "s"}`,
        m,
      ),
    );
  for (const c of COMMANDS) {
    const m = measured.get(c);
    if (!m) continue;
    const rescore = c.startsWith("rescore");
    rows.push(
      row(
        `${c === "index" ? "index pass: readStoredRuns(DIR) in a node process of its own (no run index yet: reads every report.json, writes the index; its modules loaded, V8 set as the bin sets it)" : `${NODE_FLAGS[c] ? `node ${NODE_FLAGS[c].join(" ")} ` : ""}skillbench ${COMMAND_ARGS[c]("DIR").join(" ").replace(junitOf("DIR"), "FILE")}`}${c === "report-noindex" || c === "report-html-noindex" ? " (no run index yet: reads every report.json, writes the index)" : ""}${rescore && scoringFloors.has(c) ? ` (${(m.s / scoringFloors.get(c).s).toFixed(1)}× its scoring floor, CPU ${(m.cpu / scoringFloors.get(c).cpu).toFixed(1)}×; every run's report.json rewritten)` : ""}`,
        m,
      ),
    );
  }
  // What the reports hold per run: the heap and typed arrays of readStoredRuns' digests, after a
  // full collection, over what the process held before reading.
  const heap = await sh(process.execPath, ["--expose-gc", "-e", DIGEST_HEAP, dir, CLI]);
  if (heap.code === 0) {
    const h = JSON.parse(heap.out);
    rows.push(
      noteRow(
        runs,
        `digests held (readStoredRuns, after a full GC): ${(h.heap / runs).toFixed(0)} bytes of heap + ${(h.buffers / runs).toFixed(0)} bytes of typed arrays per run (${((h.heap + h.buffers) / 1e6).toFixed(1)} MB)`,
      ),
    );
  } else console.error(`digest heap: ${heap.err.slice(-2000)}`);
  const summary = await stat(path.join(dir, "summary.md")).catch(() => null);
  const html = await stat(path.join(dir, "summary.html")).catch(() => null);
  rows.push(
    noteRow(
      runs,
      `sizes: summary.md ${summary ? (summary.size / 1e6).toFixed(1) : "-"} MB, summary.html ${html ? (html.size / 1e6).toFixed(1) : "-"} MB`,
    ),
  );
  if (process.argv.includes("--keep") || arg("--work", null)) console.error(`kept: ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}

const fmt = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : "");
const table = [
  "| runs | command | wall s | × floor | CPU s | CPU × floor | peak RSS MB | load avg |",
  "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.n} | ${r.cmd} | ${fmt(r.s, 2)} | ${fmt(r.ratio, 1)} | ${fmt(r.cpu, 2)} | ${fmt(r.cpuRatio, 1)} | ${fmt(r.mb, 0)} | ${fmt(r.load, 1)} |`,
  ),
].join("\n");
const generated = `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${(await readFile("/proc/cpuinfo", "utf8")).match(/model name\s*:\s*(.*)/)?.[1] ?? "?"}, node ${process.version}).
Synthetic runs: copies of a real demo results folder (${TASKS} tasks × treatments × reps), report.json ids, outcomes, model endpoint (sandbox network policy) and session id changed per run, other files hard-linked.
Targets (issue 41): the index pass ≤ the floor's CPU; report (HTML and JUnit included) ≤ 2× the floor's CPU at 10,000 and 100,000 runs, with and without the run index, under 500 MB peak RSS.
CPU s is user + system time of the process (and its children): on a machine shared with other work, the wall
times stretch with the load (last column: 1-minute load average on 2 CPUs when the command ended) and the CPU
ratio is the steadier figure. Figures taken under load are indicative.${REPS > 1 ? ` Every row is the least CPU of ${REPS} repetitions, taken in rounds.` : ""}

${table}
`;
// The table goes between the markers of bench/results/scale.md, the notes around it are kept.
const START = "<!-- scale-bench: start -->";
const END = "<!-- scale-bench: end -->";
const file = path.join(ROOT, "bench", "results", "scale.md");
const old = await readFile(file, "utf8").catch(() => "");
const [a, b] = [old.indexOf(START), old.indexOf(END)];
const md =
  a >= 0 && b > a
    ? `${old.slice(0, a + START.length)}\n${generated}${old.slice(b)}`
    : `# Reports at scale (bench/scale/scale-bench.mjs)\n\n${START}\n${generated}${END}\n`;
await writeFile(file, md);
console.log(generated);
