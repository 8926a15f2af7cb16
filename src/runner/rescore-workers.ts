/**
 * `rescore` on worker threads: reading and parsing a run's seven files is nearly all of a
 * rescore's time (bench/results/scale.md), and it is the same work for every run, so runs are
 * handed to `workers` threads (rescore-worker.ts) a batch at a time. The main thread keeps what
 * must be one: the run index, the digests, the progress lines and the experiment reports after.
 * A run is rescored by exactly the code a single-threaded rescore runs (rescore-run.ts), so the
 * files written are the same bytes whatever the number of threads.
 */
import { Worker } from "node:worker_threads";
import type { RescoredRun } from "./rescore-run.js";
import {
  deserializeError,
  FromWorkerSchema,
  type RescoreWorkerSettings,
  type ToWorker,
} from "./rescore-messages.js";

/** Runs per message to a worker at most (fewer when there are few runs: every thread gets some). */
const MAX_BATCH = 32;
/** Batches a worker holds at once: it starts the next while the main thread takes the last. */
const IN_FLIGHT = 2;

/**
 * The worker's module. The same relative path from this module (dist/runner/) and from the
 * bundled CLI (dist/cli/main.js, scripts/build-cli.mjs): both are two folders below the
 * package root, and the worker runs the library's module of dist/runner/.
 */
const WORKER_URL = new URL("../runner/rescore-worker.js", import.meta.url);

/**
 * Rescore the runs `ids` on `workers` threads; `take(i, run)` is called on the main thread with
 * each result (in the order they arrive; null: an incomplete run) and may wait (e.g. for the run
 * index to drain: the next batch is sent when it returns). The first error of a run is thrown
 * after the batches in flight have finished (their runs are taken; no run is cut short).
 */
export async function rescoreOnWorkers(
  settings: RescoreWorkerSettings,
  ids: readonly string[],
  workers: number,
  take: (i: number, run: RescoredRun | null) => Promise<void>,
): Promise<void> {
  const batchSize = Math.max(1, Math.min(MAX_BATCH, Math.ceil(ids.length / (workers * 4))));
  let next = 0;
  /** the first error of a run (set in the workers' callbacks) */
  const failure: { error: Error | null } = { error: null };
  const nextBatch = (): ToWorker | null => {
    if (failure.error !== null || next >= ids.length) return null;
    const runs: Array<[number, string]> = [];
    for (; next < ids.length && runs.length < batchSize; next++) runs.push([next, ids[next] ?? ""]);
    return { kind: "runs", runs };
  };
  const one = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, { workerData: settings });
      let inFlight = 0;
      let settled = false;
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        failure.error ??= e;
        void worker.terminate();
        reject(e);
      };
      const send = (): void => {
        while (inFlight < IN_FLIGHT) {
          const batch = nextBatch();
          if (batch === null) break;
          inFlight++;
          worker.postMessage(batch);
        }
        if (inFlight === 0) worker.postMessage({ kind: "stop" } satisfies ToWorker);
      };
      // Results are taken one message after the other (take may wait).
      let taking: Promise<void> = Promise.resolve();
      worker.on("message", (raw: unknown) => {
        taking = taking.then(async () => {
          if (settled) return;
          const msg = FromWorkerSchema.parse(raw);
          for (const r of msg.results) await take(r.i, r.run);
          inFlight--;
          if (msg.kind === "error") {
            failure.error ??= deserializeError(msg.error);
            // The other batches this worker holds are skipped by it; finish cleanly.
            inFlight = 0;
          }
          send();
        });
        taking.catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
      });
      worker.on("error", (e) => fail(e));
      worker.on("exit", (code) => {
        // After the results it sent are taken (a failed taking has settled this already).
        void taking.then(
          () => {
            if (settled) return;
            settled = true;
            if (code !== 0) reject(new Error(`rescore: a worker thread exited with code ${code}`));
            else resolve();
          },
          () => undefined,
        );
      });
      send();
    });
  const results = await Promise.allSettled(Array.from({ length: workers }, one));
  if (failure.error !== null) throw failure.error;
  for (const r of results) if (r.status === "rejected") throw r.reason;
}
