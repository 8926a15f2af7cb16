import type { Redis } from "ioredis";
import type { Queue } from "bullmq";
import { KEY_PREFIX, QUEUE_NAME } from "./job.js";
import type { QueueUrl } from "./url.js";

interface QueueLibs {
  Redis: typeof import("ioredis").Redis;
  Queue: typeof import("bullmq").Queue;
  QueueEvents: typeof import("bullmq").QueueEvents;
  Worker: typeof import("bullmq").Worker;
}
let libs: Promise<QueueLibs> | null = null;

/**
 * BullMQ and ioredis, loaded on first use: most commands never touch a queue, and loading
 * them costs every CLI start about a third of a second of CPU (bench/README.md).
 */
export function queueLibs(): Promise<QueueLibs> {
  libs ??= Promise.all([import("bullmq"), import("ioredis")]).then(([bullmq, ioredis]) => ({
    Redis: ioredis.Redis,
    Queue: bullmq.Queue,
    QueueEvents: bullmq.QueueEvents,
    Worker: bullmq.Worker,
  }));
  return libs;
}

/** A Redis connection as BullMQ wants it (commands wait for a reconnect instead of failing). */
export async function connectRedis(url: QueueUrl): Promise<Redis> {
  const { Redis } = await queueLibs();
  const r = new Redis(url.href, { maxRetriesPerRequest: null, lazyConnect: false });
  // Errors surface through the commands that fail; the connection retries on its own.
  r.on("error", () => undefined);
  return r;
}

export async function openQueue(redis: Redis, name: string = QUEUE_NAME): Promise<Queue> {
  const { Queue } = await queueLibs();
  return new Queue(name, { connection: redis, prefix: KEY_PREFIX });
}

/** Fail fast with a clear message when the server is not there. */
export async function checkReachable(url: QueueUrl): Promise<void> {
  const { Redis } = await queueLibs();
  const r = new Redis(url.href, {
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    retryStrategy: () => null,
    connectTimeout: 5000,
  });
  r.on("error", () => undefined);
  try {
    await r.connect();
    await r.ping();
  } catch (e) {
    // eslint-disable-next-line preserve-caught-error
    throw new Error(
      `cannot reach the queue at ${url.display}: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    r.disconnect();
  }
}
