import { runSuite, type RunOptions, type RunSummary } from "../runner/run-suite.js";
import { checkQueuedEnv, queueDispatcher, type QueueRunSettings } from "./coordinator.js";
import type { Redis } from "ioredis";
import { redisSpend } from "./budget-counter.js";
import { connectRedis, waitForQueue } from "./connect.js";
import { requireQueueKey } from "./sign.js";
import { DiskFullError, errorPath, isDiskFull } from "../core/errors.js";

export { parseQueueUrl, redactQueueUrl, type QueueUrl } from "./url.js";
export { parseRateLimit, type RateLimit } from "./job.js";
export { startWorker, type WorkerOptions, type RunningWorker } from "./worker.js";
export {
  queueStatus,
  renderQueueStatus,
  pauseQueue,
  resumeQueue,
  drainQueue,
  serveQueueMetrics,
} from "./admin.js";
export type { ArtifactStore } from "./artifacts.js";
export type { QueueRunSettings } from "./coordinator.js";

/**
 * `run --queue`: plan and write the results folder as a local run does, with the runs
 * executed by workers (src/queue/worker.ts) instead of this process.
 */
export async function runSuiteOnQueue(
  opts: RunOptions,
  q: Omit<QueueRunSettings, "key">,
): Promise<RunSummary> {
  const key = requireQueueKey(opts.hostEnv ?? process.env);
  checkQueuedEnv(opts.env, opts.judgeFlags?.judgeBaseUrl);
  await waitForQueue(q.url, {
    log: (message) => opts.onProgress?.({ type: "note", message }),
    ...(opts.stopSignal ? { signal: opts.stopSignal } : {}),
  });
  // The results folder, once planned: a full disk is then reported with it, not a placeholder.
  const planned: { outDir: string | null } = { outDir: null };
  // The experiment's shared spend (budget-counter.ts), on a connection opened only when a budget
  // asks for it: the pairwise judge's calls made here count in it, and the judge's spend of
  // every worker is read back from it for metadata.json `budget.judge`.
  // (An object: the closure sets it, which narrowing of a plain `let` would not see.)
  const budgetConn: { redis: Promise<Redis> | null } = { redis: null };
  try {
    return await runSuite({
      ...opts,
      onProgress: (e) => {
        if (e.type === "plan") planned.outDir = e.outDir;
        opts.onProgress?.(e);
      },
      queue: {
        ...opts.queue,
        dispatch: queueDispatcher(opts, { ...q, key }),
        sharedSpend: (id) => redisSpend((budgetConn.redis ??= connectRedis(q.url)), id),
        secrets: [...(opts.queue?.secrets ?? []), ...(q.url.password ? [q.url.password] : [])],
      },
    });
  } catch (e) {
    const outDir = planned.outDir;
    if (outDir !== null && !(e instanceof DiskFullError) && isDiskFull(e))
      throw new DiskFullError(errorPath(e) ?? outDir, outDir);
    throw e;
  } finally {
    // Never wait on a server that is gone: a stopped coordinator exits (as coordinator.ts does).
    if (budgetConn.redis !== null) (await budgetConn.redis).disconnect();
  }
}
