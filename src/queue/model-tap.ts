import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Redis } from "ioredis";
import { startTap, type ModelTap } from "../model/tap.js";
import type { ModelApiTracker } from "../runner/model-api.js";
import { KEY_PREFIX, type RateLimit } from "./job.js";

/**
 * The global model-request rate limit of a queued experiment (`run --queue … --rate-limit
 * 50/min`): before a request for a reply goes on, a worker's model tap (below) takes a slot in a
 * sliding window kept in Redis (one sorted set per experiment, timed by the Redis server's
 * clock), so the limit holds across all workers together.
 */

// Sliding log: drop entries older than the window; admit when fewer than max remain, else
// answer how many milliseconds until the oldest leaves the window.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + window - now + 1
`;

function rateKey(experimentId: string): string {
  return `${KEY_PREFIX}:rate:${experimentId}`;
}

/** Wait for a slot of the experiment's window. */
async function acquireSlot(
  redis: Redis,
  experimentId: string,
  limit: RateLimit,
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const id = `${Date.now()}-${randomBytes(6).toString("hex")}`;
    const wait = Number(
      await redis.eval(ACQUIRE, 1, rateKey(experimentId), limit.max, limit.per_ms, id),
    );
    if (wait <= 0) return;
    await delay(Math.min(wait, limit.per_ms), undefined, { signal });
  }
}

export type { ModelTap } from "../model/tap.js";

/**
 * A worker's proxy on 127.0.0.1 in front of the model endpoint (http or https): the model tap of
 * model/tap.ts. With `gate`, every request for a reply (any POST but a token count) first
 * takes a slot of the experiment's window. With `tracker`, it counts what became of each run's
 * requests (answered, an error status, a cut stream, no answer), as the scripted model server
 * does for a local run: the run's `model_api` record and the rules that read it see the same thing.
 */
export function startModelTap(a: {
  upstream: string;
  gate?: { redis: Redis; experimentId: string; limit: RateLimit } | undefined;
  tracker?: ModelApiTracker | undefined;
}): Promise<ModelTap> {
  const g = a.gate;
  return startTap({
    upstream: a.upstream,
    tracker: a.tracker,
    gate: g ? (signal) => acquireSlot(g.redis, g.experimentId, g.limit, signal) : undefined,
  });
}
