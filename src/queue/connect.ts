import type { Redis } from "ioredis";
import type { Queue } from "bullmq";
import { setTimeout as delay } from "node:timers/promises";
import { InputError } from "../core/errors.js";
import { KEY_PREFIX, QUEUE_NAME } from "./job.js";
import type { QueueUrl } from "./url.js";

interface QueueLibs {
  Redis: typeof import("ioredis").Redis;
  Queue: typeof import("bullmq").Queue;
  QueueEvents: typeof import("bullmq").QueueEvents;
  Worker: typeof import("bullmq").Worker;
  UnrecoverableError: typeof import("bullmq").UnrecoverableError;
  DelayedError: typeof import("bullmq").DelayedError;
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
    UnrecoverableError: bullmq.UnrecoverableError,
    DelayedError: bullmq.DelayedError,
  }));
  return libs;
}

/** A Redis connection as BullMQ wants it (commands wait for a reconnect instead of failing). */
export async function connectRedis(url: QueueUrl): Promise<Redis> {
  const { Redis } = await queueLibs();
  const r = new Redis(url.href, { maxRetriesPerRequest: null, lazyConnect: false });
  // Errors surface through the commands that fail (each raced with a deadline or the stop
  // signal, `bounded`); the connection retries on its own.
  r.on("error", () => undefined);
  return r;
}

export async function openQueue(redis: Redis, name: string = QUEUE_NAME): Promise<Queue> {
  const { Queue } = await queueLibs();
  const q = new Queue(name, { connection: redis, prefix: KEY_PREFIX });
  // Without a listener BullMQ prints every connection error whole (console.error); an outage
  // is said once by the command that waits for it.
  q.on("error", () => undefined);
  return q;
}

/** `host:port` of the queue, for messages (never the password). */
export function queueAddress(url: QueueUrl): string {
  try {
    const u = new URL(url.href);
    return `${u.hostname}:${u.port || "6379"}`;
  } catch {
    return url.display;
  }
}

/**
 * What went wrong connecting, in words, and whether waiting can help: a refused password or a
 * host that does not exist will not mend itself (exit 2 at once); a refused or silent port may be
 * a server restarting (retried, within a bound).
 */
export function explainRedisError(e: unknown): { cause: string; lasting: boolean } {
  const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "";
  const msg = e instanceof Error ? e.message : String(e);
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(msg))
    return { cause: "the server refused the password (check the URL's password)", lasting: true };
  if (/NOPERM/i.test(msg)) return { cause: `the user may not do this: ${msg}`, lasting: true };
  if (/DB index is out of range|invalid DB index/i.test(msg))
    return { cause: "no such database on the server (the number after the port)", lasting: true };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return { cause: "no such host (check the URL)", lasting: code === "ENOTFOUND" };
  if (code === "ECONNREFUSED" || /ECONNREFUSED/.test(msg))
    return { cause: "connection refused (is redis-server running there?)", lasting: false };
  if (code === "ETIMEDOUT" || /timed? ?out/i.test(msg))
    return { cause: "no answer (a firewall, or the server is down)", lasting: false };
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH")
    return { cause: "host unreachable", lasting: false };
  if (/OOM command not allowed/.test(msg))
    return {
      cause: "Redis is out of memory (maxmemory reached): free memory or raise maxmemory",
      lasting: true,
    };
  return { cause: msg.split("\n")[0] ?? msg, lasting: false };
}

/** How long a command waits for an unreachable queue before giving up (SKILLBENCH_QUEUE_RETRY_SEC). */
export function queueRetryMs(env: Record<string, string | undefined> = process.env): number {
  const v = Number(env.SKILLBENCH_QUEUE_RETRY_SEC);
  return Number.isFinite(v) && v >= 0 ? v * 1000 : 60_000;
}

/** A stop asked for while a Redis call was pending: the caller stops where it is. */
export class QueueStopped extends Error {
  constructor() {
    super("stopped while waiting for the queue");
    this.name = "QueueStopped";
  }
}

/**
 * A Redis call raced with the stop signal and, when given, a deadline: BullMQ's connections
 * wait for a reconnect without limit, so no call of a command that must answer a signal is
 * awaited bare.
 */
export function bounded<T>(
  p: Promise<T>,
  o: { signal?: AbortSignal | undefined; ms?: number; what?: string },
): Promise<T> {
  if (o.signal?.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new QueueStopped());
  }
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      if (timer) clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      done();
      reject(new QueueStopped());
    };
    const timer =
      o.ms === undefined
        ? null
        : setTimeout(() => {
            done();
            reject(
              new Error(
                `no answer from the queue within ${Math.round((o.ms ?? 0) / 1000)} s${o.what ? ` (${o.what})` : ""}`,
              ),
            );
          }, o.ms);
    timer?.unref();
    o.signal?.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        done();
        resolve(v);
      },
      (e: unknown) => {
        done();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Close a BullMQ object, but never wait more than `ms` for an absent server. */
async function closeWithin(close: () => Promise<unknown>, ms = 2000): Promise<void> {
  await bounded(close(), { ms }).catch(() => undefined);
}

/**
 * Close a BullMQ queue, worker or event stream within a second, then cut its connections (its
 * own duplicates included): with the server gone, a graceful close waits for ever and the
 * connections' reconnect timers would keep the process alive.
 */
export async function shut(o: {
  close(): Promise<unknown>;
  disconnect(): Promise<unknown>;
}): Promise<void> {
  await closeWithin(() => o.close(), 1000);
  await closeWithin(() => o.disconnect(), 1000);
}

/**
 * Wait until the queue answers a PING, retrying a transient failure (refused, no answer) with
 * backoff (1, 2, 4 … 10 s) for at most `retryMs`, saying each time what it waits for. A refused
 * password, an unknown host or database, or a server still absent at the bound: an InputError
 * (exit 2) with one line naming the host, the port and the cause.
 */
export async function waitForQueue(
  url: QueueUrl,
  o: { log?: (line: string) => void; signal?: AbortSignal; retryMs?: number } = {},
): Promise<void> {
  const { Redis } = await queueLibs();
  const retryMs = o.retryMs ?? queueRetryMs();
  const started = Date.now();
  const where = queueAddress(url);
  for (let attempt = 1; ; attempt++) {
    const r = new Redis(url.href, {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
      connectTimeout: 5000,
      enableOfflineQueue: false,
    });
    // connect() rejects with "Connection is closed" when the socket failed: the cause is the
    // last error the client emitted.
    let last: unknown = null;
    r.on("error", (e: unknown) => (last = e));
    try {
      await r.connect();
      await r.ping();
      if (attempt > 1) o.log?.(`the queue at ${where} answers`);
      return;
    } catch (e) {
      const { cause, lasting } = explainRedisError(
        last !== null && /Connection is closed/.test(String(e)) ? last : e,
      );
      const line = `cannot use the queue at ${where} (${url.display}): ${cause}`;
      const wait = Math.min(10_000, 1000 * 2 ** (attempt - 1));
      if (lasting || Date.now() - started + wait > retryMs)
        throw new InputError(
          lasting ? line : `${line}; gave up after ${Math.round((Date.now() - started) / 1000)} s`,
          { field: "--queue" },
        );
      o.log?.(
        `${line}; trying again in ${wait / 1000} s (gives up ${Math.round(retryMs / 1000)} s after the first try)`,
      );
      await delay(wait, undefined, o.signal ? { signal: o.signal } : {}).catch(() => {
        throw new InputError(`stopped while waiting for the queue at ${where}`, {
          field: "--queue",
        });
      });
    } finally {
      r.disconnect();
    }
  }
}
