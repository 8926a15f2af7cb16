import { Redis } from "ioredis";
import { Queue } from "bullmq";
import { KEY_PREFIX, QUEUE_NAME } from "./job.js";
import type { QueueUrl } from "./url.js";

/** A Redis connection as BullMQ wants it (commands wait for a reconnect instead of failing). */
export function connectRedis(url: QueueUrl): Redis {
  const r = new Redis(url.href, { maxRetriesPerRequest: null, lazyConnect: false });
  // Errors surface through the commands that fail; the connection retries on its own.
  r.on("error", () => undefined);
  return r;
}

export function openQueue(redis: Redis, name: string = QUEUE_NAME): Queue {
  return new Queue(name, { connection: redis, prefix: KEY_PREFIX });
}

/** Fail fast with a clear message when the server is not there. */
export async function checkReachable(url: QueueUrl): Promise<void> {
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
    throw new Error(
      `cannot reach the queue at ${url.display}: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    r.disconnect();
  }
}
