/**
 * The one worker-thread pool: the same work over many items (a run's files read and parsed),
 * handed to `threads` worker threads a batch at a time, each result taken on the main thread.
 * Used where reading and parsing stored runs is nearly all of a command's time (`rescore`:
 * bench/results/scale.md). A worker's module calls
 * `serveItems` with its handler; the main thread calls `runOnThreads` with that module's URL.
 * Messages are parsed with zod on arrival, both ways.
 */
import { parentPort, Worker, workerData } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { z } from "zod";

/** Items per message at most (fewer when there are few items: every thread gets some). */
const MAX_BATCH = 32;
/** Batches a thread holds at once: it starts the next while the main thread takes the last. */
const IN_FLIGHT = 2;
/** Threads by default at most. */
const MAX_DEFAULT_THREADS = 8;

/** Threads to use by default for `items` items: one per CPU (at most 8) from `from` items on, else 1. */
export function defaultThreads(items: number, from: number): number {
  return items >= from ? Math.min(availableParallelism(), MAX_DEFAULT_THREADS) : 1;
}

const ToWorkerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("items"), items: z.array(z.tuple([z.number().int(), z.unknown()])) }),
  z.object({ kind: z.literal("stop") }),
]);
type ToWorker = z.infer<typeof ToWorkerSchema>;

const ResultsSchema = z.array(z.tuple([z.number().int(), z.unknown()]));
const FromWorkerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("results"), results: ResultsSchema }),
  // the error as the thread's sendError made it: the caller's reviveError reads it
  z.object({ kind: z.literal("error"), results: ResultsSchema, error: z.unknown() }),
]);
type FromWorker = z.infer<typeof FromWorkerSchema>;

/**
 * In a worker thread's module: its settings (workerData, parsed with `settings`), then each item
 * sent, parsed with `item` and handed to `handle` (made once by `setup` from the settings), one
 * batch after the other. After the first error, the thread answers with it (and the results of
 * its batch so far) and takes no more items.
 */
export function serveItems<S, I, R>(
  settings: z.ZodType<S>,
  item: z.ZodType<I>,
  setup: (settings: S) => Promise<(item: I) => Promise<R> | R>,
  /** the error as it is sent (a structured clone keeps no class): core/errors.ts errorToSend */
  sendError: (e: unknown) => unknown,
): void {
  const port = parentPort;
  if (port === null) throw new Error("serveItems: not in a worker thread");
  let handler: Promise<(item: I) => Promise<R> | R> | null = null;
  const handlerOnce = () => (handler ??= setup(settings.parse(workerData)));
  let failed = false;
  let queue: Promise<void> = Promise.resolve();
  port.on("message", (raw: unknown) => {
    const msg = ToWorkerSchema.parse(raw);
    if (msg.kind === "stop") {
      queue = queue.then(() => port.close());
      return;
    }
    queue = queue.then(async () => {
      if (failed) return;
      const results: Array<[number, R]> = [];
      try {
        const handle = await handlerOnce();
        for (const [i, raw] of msg.items) results.push([i, await handle(item.parse(raw))]);
      } catch (e) {
        failed = true;
        port.postMessage({ kind: "error", results, error: sendError(e) } satisfies FromWorker);
        return;
      }
      port.postMessage({ kind: "results", results } satisfies FromWorker);
    });
  });
}

/**
 * On the main thread: `items` handled on `threads` worker threads running `module` (which calls
 * serveItems) with `settings` as its workerData. `take(i, result)` is called with each result
 * (parsed with `result`; in the order they arrive) and may wait (the thread's next batch is
 * sent when it returns). The first error is thrown after the batches in flight have been
 * taken: no item is cut short.
 */
export async function runOnThreads<R>(opts: {
  module: URL;
  settings: unknown;
  items: readonly unknown[];
  threads: number;
  result: z.ZodType<R>;
  take: (i: number, result: R) => Promise<void> | void;
  /** the error a thread sent, as it is thrown here: core/errors.ts errorFromSent */
  reviveError: (e: unknown) => Error;
}): Promise<void> {
  const { items, threads } = opts;
  const batchSize = Math.max(1, Math.min(MAX_BATCH, Math.ceil(items.length / (threads * 4))));
  let next = 0;
  /** the first error (set in the threads' callbacks) */
  const failure: { error: Error | null } = { error: null };
  const nextBatch = (): ToWorker | null => {
    if (failure.error !== null || next >= items.length) return null;
    const batch: Array<[number, unknown]> = [];
    for (; next < items.length && batch.length < batchSize; next++) batch.push([next, items[next]]);
    return { kind: "items", items: batch };
  };
  const one = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(opts.module, { workerData: opts.settings });
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
          for (const [i, r] of msg.results) await opts.take(i, opts.result.parse(r));
          inFlight--;
          if (msg.kind === "error") {
            failure.error ??= opts.reviveError(msg.error);
            // The batches this thread still holds it skips; it stops cleanly.
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
            if (code !== 0) reject(new Error(`a worker thread exited with code ${code}`));
            else resolve();
          },
          () => undefined,
        );
      });
      send();
    });
  const results = await Promise.allSettled(Array.from({ length: threads }, one));
  if (failure.error !== null) throw failure.error;
  for (const r of results) if (r.status === "rejected") throw r.reason;
}
