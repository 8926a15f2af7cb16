/**
 * A worker thread of `rescore` (rescore-workers.ts starts it): it builds the rescore's context
 * from the results folder as the main thread does (rescore-context.ts) and rescores the runs it
 * is sent, a batch at a time, answering with each run's result (or the first error, after
 * which it takes no more). The run files it writes are the run's own; the run index and the
 * experiment reports stay with the main thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readSuiteSnapshot } from "../store/suite-snapshot.js";
import { rescoreContext } from "./rescore-context.js";
import { rescoreRun, type RescoreContext } from "./rescore-run.js";
import {
  RescoreWorkerSettingsSchema,
  serializeError,
  ToWorkerSchema,
  type FromWorker,
} from "./rescore-messages.js";

const port = parentPort;
if (port === null) throw new Error("rescore-worker.ts runs as a worker thread only");
const settings = RescoreWorkerSettingsSchema.parse(workerData);

let context: Promise<RescoreContext> | null = null;
const contextOnce = (): Promise<RescoreContext> =>
  (context ??= readSuiteSnapshot(settings.outDir).then((snapshot) =>
    // No judge in a worker: the main thread keeps runs that are judged again to itself.
    rescoreContext(
      settings.outDir,
      snapshot,
      { profile: settings.profile, judgeFlags: { judge: false } },
      settings.hostEnv,
      {
        url: null,
        scriptHasJudge: false,
        scriptId: "",
      },
    ),
  ));

let failed = false;
// Batches are taken one after the other (the main thread keeps two in flight per worker).
let queue: Promise<void> = Promise.resolve();
port.on("message", (raw: unknown) => {
  const msg = ToWorkerSchema.parse(raw);
  if (msg.kind === "stop") {
    queue = queue.then(() => port.close());
    return;
  }
  queue = queue.then(async () => {
    if (failed) return;
    const answer: FromWorker = { kind: "results", results: [] };
    try {
      const ctx = await contextOnce();
      for (const [i, id] of msg.runs) answer.results.push({ i, run: await rescoreRun(ctx, id) });
    } catch (e) {
      failed = true;
      // The runs done before the error are answered with it: their files are written.
      port.postMessage({
        kind: "error",
        results: answer.results,
        error: serializeError(e),
      } satisfies FromWorker);
      return;
    }
    port.postMessage(answer);
  });
});
