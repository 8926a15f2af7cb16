import type { Redis } from "ioredis";
import type { Queue } from "bullmq";
import { agentNames } from "../agents/index.js";
import {
  bounded,
  connectRedis,
  explainRedisError,
  openQueue,
  queueAddress,
  queueRetryMs,
  shut,
  waitForQueue,
} from "./connect.js";
import { InputError } from "../core/errors.js";
import { KEY_PREFIX, queueNameFor, WorkerPresenceSchema, type WorkerPresence } from "./job.js";

const STATES = ["waiting", "prioritized", "active", "delayed", "completed", "failed"] as const;

/** Each agent's queue (see job.ts), opened on one connection; closed by the caller. */
function agentQueues(redis: Redis): Promise<Queue[]> {
  return Promise.all(agentNames().map((a) => openQueue(redis, queueNameFor(a))));
}

/** Counts summed over the agents' queues, and the paused state of the Claude Code queue. */
async function totals(queues: Queue[]): Promise<Record<string, number>> {
  const sum: Record<string, number> = Object.fromEntries(STATES.map((s) => [s, 0]));
  for (const q of queues)
    for (const [k, v] of Object.entries(await q.getJobCounts(...STATES)))
      sum[k] = (sum[k] ?? 0) + v;
  return sum;
}

/**
 * Open every agent's queue once the server answers (a transient outage retried within the
 * bound, said through `log`), do `f` within the same bound, close without waiting on an absent
 * server. A server that never answers, or refuses: one line naming it and the cause (exit 2).
 */
async function withQueues<T>(
  url: QueueUrl,
  f: (qs: Queue[], redis: Redis) => Promise<T>,
  log?: (line: string) => void,
): Promise<T> {
  await waitForQueue(url, log ? { log } : {});
  const redis = await connectRedis(url);
  const qs = await agentQueues(redis);
  try {
    return await bounded(f(qs, redis), { ms: queueRetryMs() }).catch((e: unknown) => {
      throw new InputError(
        `cannot use the queue at ${queueAddress(url)} (${url.display}): ${explainRedisError(e).cause}`,
        { field: "--queue" },
      );
    });
  } finally {
    for (const q of qs) await shut(q);
    redis.disconnect();
  }
}
import type { QueueUrl } from "./url.js";

/** `skillbench queue status|pause|resume|drain`: an operator's view and levers mid-run. */

export interface QueueStatus {
  url: string;
  paused: boolean;
  counts: Record<string, number>;
  /** Workers seen in the last 15 seconds, with the runs they hold. */
  workers: WorkerPresence[];
}

/** Every live worker's presence record (see worker.ts). */
async function liveWorkers(redis: Redis): Promise<WorkerPresence[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${KEY_PREFIX}:worker:*`, "COUNT", 200);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  if (keys.length === 0) return [];
  const out: WorkerPresence[] = [];
  for (const v of await redis.mget(keys)) {
    if (v === null) continue;
    try {
      const p = WorkerPresenceSchema.safeParse(JSON.parse(v));
      if (p.success) out.push(p.data);
    } catch {
      /* not a presence record */
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export async function queueStatus(
  url: QueueUrl,
  log?: (line: string) => void,
): Promise<QueueStatus> {
  return withQueues(
    url,
    async (qs, redis) => ({
      url: url.display,
      paused: (await Promise.all(qs.map((q) => q.isPaused()))).every(Boolean),
      counts: await totals(qs),
      workers: await liveWorkers(redis),
    }),
    log,
  );
}

export function renderQueueStatus(s: QueueStatus): string {
  const c = s.counts;
  const lines = [
    `queue ${s.url}${s.paused ? " (PAUSED: workers take no new runs)" : ""}`,
    `  backlog ${backlog(c)} · waiting ${(c.waiting ?? 0) + (c.prioritized ?? 0)} · active ${c.active ?? 0} · retrying ${c.delayed ?? 0} · completed ${c.completed ?? 0} · failed ${c.failed ?? 0}`,
    `  workers ${s.workers.length}`,
    ...s.workers.map(
      (w) =>
        `    ${w.name} (${w.agent} on ${w.host}, pid ${w.pid}): ${w.running.length}/${w.concurrency} running${w.running.length ? `: ${w.running.join(", ")}` : ""}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/** Workers finish the runs they hold and take no new ones until `resume` (every agent's queue). */
export async function pauseQueue(url: QueueUrl, log?: (line: string) => void): Promise<void> {
  await withQueues(
    url,
    async (qs) => {
      for (const q of qs) await q.pause();
    },
    log,
  );
}

export async function resumeQueue(url: QueueUrl, log?: (line: string) => void): Promise<void> {
  await withQueues(
    url,
    async (qs) => {
      for (const q of qs) await q.resume();
    },
    log,
  );
}

/**
 * Remove every run still waiting (running ones finish and are collected). Their coordinators
 * report them as not completed; `run --resume --queue` enqueues them again.
 */
export async function drainQueue(
  url: QueueUrl,
  log?: (line: string) => void,
): Promise<{ removed: number }> {
  return withQueues(
    url,
    async (qs) => {
      let removed = 0;
      for (const q of qs) {
        const c = await q.getJobCounts("waiting", "prioritized", "delayed");
        removed += Object.values(c).reduce((a, b) => a + b, 0);
        await q.drain(true);
      }
      return { removed };
    },
    log,
  );
}

/** Runs waiting for a worker plus runs in progress: what a worker autoscaler follows. */
function backlog(counts: Record<string, number>): number {
  return (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0);
}

/**
 * `skillbench queue metrics`: the queue's counts over HTTP for an autoscaler (a KEDA
 * `metrics-api` trigger reads `backlog` from /metrics.json; Prometheus scrapes /metrics).
 * Read-only; one status read per request.
 */
export async function serveQueueMetrics(
  url: QueueUrl,
  opts: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const http = await import("node:http");
  await waitForQueue(url);
  const redis = await connectRedis(url);
  const queues = await agentQueues(redis);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || (path !== "/metrics" && path !== "/metrics.json")) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("GET /metrics or /metrics.json\n");
      return;
    }
    Promise.all([
      totals(queues),
      Promise.all(queues.map((q) => q.isPaused())).then((p) => p.every(Boolean)),
      liveWorkers(redis).then((w) => w.length),
    ]).then(
      ([counts, paused, workers]) => {
        const b = backlog(counts);
        if (path === "/metrics.json") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ backlog: b, paused, workers, counts }));
          return;
        }
        const lines = [
          "# HELP skillbench_queue_backlog Runs waiting or running.",
          "# TYPE skillbench_queue_backlog gauge",
          `skillbench_queue_backlog ${b}`,
          "# HELP skillbench_queue_jobs Runs in the queue by state.",
          "# TYPE skillbench_queue_jobs gauge",
          ...Object.entries(counts).map(([k, v]) => `skillbench_queue_jobs{state="${k}"} ${v}`),
          "# TYPE skillbench_queue_workers gauge",
          `skillbench_queue_workers ${workers}`,
          "# TYPE skillbench_queue_paused gauge",
          `skillbench_queue_paused ${paused ? 1 : 0}`,
        ];
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
        res.end(`${lines.join("\n")}\n`);
      },
      (e: unknown) => {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end(`queue unavailable: ${e instanceof Error ? e.message : String(e)}\n`);
      },
    );
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const q of queues) await q.close().catch(() => undefined);
      redis.disconnect();
    },
  };
}
