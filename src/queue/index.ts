import { runSuite, type RunOptions, type RunSummary } from "../runner/run-suite.js";
import { queueDispatcher, type QueueRunSettings } from "./coordinator.js";
import { checkReachable } from "./connect.js";

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
  type QueueStatus,
} from "./admin.js";
export type { ArtifactStore } from "./artifacts.js";
export type { QueueRunSettings } from "./coordinator.js";

/**
 * `run --queue`: plan and write the results folder as a local run does, with the runs
 * executed by workers (src/queue/worker.ts) instead of this process.
 */
export async function runSuiteOnQueue(opts: RunOptions, q: QueueRunSettings): Promise<RunSummary> {
  await checkReachable(q.url);
  return runSuite({
    ...opts,
    queue: {
      ...opts.queue,
      dispatch: queueDispatcher(opts, q),
      secrets: [...(opts.queue?.secrets ?? []), ...(q.url.password ? [q.url.password] : [])],
    },
  });
}
