import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Redis } from "ioredis";
import { KEY_PREFIX, type RateLimit } from "./job.js";

/**
 * The global model-request rate limit of a queued experiment (`run --queue … --rate-limit
 * 50/min`). Every worker puts a small proxy on 127.0.0.1 in front of the model endpoint; before
 * a request for a reply (`POST …/v1/messages`) goes on, the proxy takes a slot in a sliding
 * window kept in Redis (one sorted set per experiment, timed by the Redis server's clock), so the
 * limit holds across all workers together. Other requests (token counts) pass straight through.
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

export function rateKey(experimentId: string): string {
  return `${KEY_PREFIX}:rate:${experimentId}`;
}

/** Wait for a slot of the experiment's window. */
export async function acquireSlot(
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

export interface RateGate {
  /** The proxy's base URL (upstream's path prefix kept). */
  url: string;
  close(): Promise<void>;
}

/** Start a gating proxy for `upstream` (http or https). */
export async function startRateGate(a: {
  redis: Redis;
  experimentId: string;
  limit: RateLimit;
  upstream: string;
}): Promise<RateGate> {
  const up = new URL(a.upstream);
  const base = up.pathname.replace(/\/$/, "");
  const client = up.protocol === "https:" ? https : http;
  const closing = new AbortController();
  const server = http.createServer((req, res) => {
    const gated = req.method === "POST" && /\/v1\/messages(\?|$)/.test(req.url ?? "");
    const forward = (): void => {
      const outReq = client.request(
        {
          protocol: up.protocol,
          hostname: up.hostname,
          port: up.port || undefined,
          method: req.method,
          path: `${base}${req.url ?? "/"}`,
          headers: { ...req.headers, host: up.host },
        },
        (outRes) => {
          res.writeHead(outRes.statusCode ?? 502, outRes.headers);
          outRes.pipe(res);
        },
      );
      outReq.on("error", (e) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ type: "error", error: { type: "api_error", message: String(e) } }),
        );
      });
      res.on("close", () => outReq.destroy());
      req.pipe(outReq);
    };
    if (!gated) return forward();
    req.pause();
    acquireSlot(a.redis, a.experimentId, a.limit, closing.signal).then(
      () => {
        req.resume();
        forward();
      },
      (e: unknown) => {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: "overloaded_error", message: String(e) },
          }),
        );
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
