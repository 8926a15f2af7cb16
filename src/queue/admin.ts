import { connectRedis, openQueue } from "./connect.js";
import type { QueueUrl } from "./url.js";

/** `skillbench queue status|pause|resume|drain`: an operator's view and levers mid-run. */

export interface QueueStatus {
  url: string;
  paused: boolean;
  counts: Record<string, number>;
  workers: { name: string; addr: string; age_sec: number | null }[];
}

export async function queueStatus(url: QueueUrl): Promise<QueueStatus> {
  const redis = connectRedis(url);
  const queue = openQueue(redis);
  try {
    const counts = await queue.getJobCounts(
      "waiting",
      "prioritized",
      "active",
      "delayed",
      "completed",
      "failed",
    );
    const workers = (await queue.getWorkers()).map((w) => ({
      name: String(w.name ?? w.id ?? "?"),
      addr: String(w.addr ?? ""),
      age_sec: w.age !== undefined ? Number(w.age) : null,
    }));
    return { url: url.display, paused: await queue.isPaused(), counts, workers };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

export function renderQueueStatus(s: QueueStatus): string {
  const c = s.counts;
  const lines = [
    `queue ${s.url}${s.paused ? " (PAUSED: workers take no new runs)" : ""}`,
    `  waiting ${(c.waiting ?? 0) + (c.prioritized ?? 0)} · active ${c.active ?? 0} · retrying ${c.delayed ?? 0} · completed ${c.completed ?? 0} · failed ${c.failed ?? 0}`,
    `  workers ${s.workers.length}`,
    ...s.workers.map((w) => `    ${w.name} ${w.addr}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** Workers finish the runs they hold and take no new ones until `resume`. */
export async function pauseQueue(url: QueueUrl): Promise<void> {
  const redis = connectRedis(url);
  const queue = openQueue(redis);
  try {
    await queue.pause();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

export async function resumeQueue(url: QueueUrl): Promise<void> {
  const redis = connectRedis(url);
  const queue = openQueue(redis);
  try {
    await queue.resume();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/**
 * Remove every run still waiting (running ones finish and are collected). Their coordinators
 * report them as not completed; `run --resume --queue` enqueues them again.
 */
export async function drainQueue(url: QueueUrl): Promise<{ removed: number }> {
  const redis = connectRedis(url);
  const queue = openQueue(redis);
  try {
    const counts = await queue.getJobCounts("waiting", "prioritized", "delayed");
    await queue.drain(true);
    return { removed: Object.values(counts).reduce((a, b) => a + b, 0) };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
