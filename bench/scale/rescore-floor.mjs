// Benchmark helper (not a test): `rescore`'s own floor, the scoring step only (issue 41 item 3).
//
//   node bench/scale/rescore-floor.mjs DIR [--threads N] [--dist DIR]
//
// For every run of the results folder DIR, on N worker threads (default: as `rescore` picks
// them, one per CPU up to 8 from 500 runs on), it does what scoring a stored run needs and
// nothing else: the run's files read (report.json, plan.json, baseline-files.json, events.json,
// stdout.jsonl, validation.json, workspace-manifest.json, the tails of stdout and stderr), its
// evidence decoded, the profile's checks and rubric scored and its report derived again — by
// `rescoreRun` in its read-only mode (dist/runner/rescore-run.js, the mode `run --baseline-from`
// uses), so exactly the code and the reads a rescore runs. Nothing is written: no report.json,
// no events.json, no run index, no experiment reports; and the threads send nothing back but a
// count (each takes the next run from a shared counter), so no plumbing beyond starting them.
// What `rescore` costs above this is its own overhead: writing the files, the run index, the
// summary, and its threads' messages. bench/scale/scale-bench.mjs runs it as its
// `rescore-floor` row.
import { availableParallelism } from "node:os";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const HERE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(HERE), "..", "..");

/** The CLI's `rescore` defaults: one thread per CPU (at most 8) from this many runs on. */
const THREADS_FROM = 500;
const MAX_THREADS = 8;

if (isMainThread) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : dflt;
  };
  const dir = process.argv[2];
  if (!dir || dir.startsWith("--")) {
    console.error("usage: node bench/scale/rescore-floor.mjs DIR [--threads N] [--dist DIR]");
    process.exit(2);
  }
  const dist = path.resolve(arg("--dist", path.join(ROOT, "dist")));
  const ids = (await readdir(path.join(dir, "runs"))).sort();
  const threads = Number(
    arg(
      "--threads",
      String(ids.length >= THREADS_FROM ? Math.min(availableParallelism(), MAX_THREADS) : 1),
    ),
  );
  // The next run to score, shared by the threads (Atomics.add): no messages per run.
  const next = new Int32Array(new SharedArrayBuffer(4));
  const counts = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve, reject) => {
          const w = new Worker(HERE, { workerData: { dir, dist, ids, next } });
          w.once("message", resolve);
          w.once("error", reject);
          w.once("exit", (code) => code !== 0 && reject(new Error(`thread exited ${code}`)));
        }),
    ),
  );
  const scored = counts.reduce((a, b) => a + b.scored, 0);
  const incomplete = counts.reduce((a, b) => a + b.incomplete, 0);
  if (scored + incomplete !== ids.length || scored === 0) {
    console.error(`scored ${scored} of ${ids.length} runs`);
    process.exit(1);
  }
  console.log(JSON.stringify({ runs: ids.length, scored, incomplete, threads }));
} else {
  const { dir, dist, ids, next } = workerData;
  const mod = (p) => import(pathToFileURL(path.join(dist, p)).href);
  const [{ readSuiteSnapshot }, { rescoreContext }, { rescoreRun }] = await Promise.all([
    mod("store/suite-snapshot.js"),
    mod("runner/rescore-context.js"),
    mod("runner/rescore-run.js"),
  ]);
  // The context a rescore thread builds (rescore-worker.ts), read-only: derive, never write.
  const ctx = {
    ...(await rescoreContext(
      dir,
      await readSuiteSnapshot(dir),
      { judgeFlags: { judge: false } },
      process.env,
      { url: null, scriptHasJudge: false, scriptId: "" },
    )),
    readOnly: true,
  };
  let scored = 0;
  let incomplete = 0;
  for (let i = Atomics.add(next, 0, 1); i < ids.length; i = Atomics.add(next, 0, 1)) {
    if ((await rescoreRun(ctx, ids[i])) === null) incomplete++;
    else scored++;
  }
  parentPort.postMessage({ scored, incomplete });
}
