import http from "node:http";
import https from "node:https";
import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Redis } from "ioredis";
import { parseRunPath } from "../model/run-path.js";
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

export interface ModelTap {
  /** The proxy's base URL (upstream's path prefix kept). */
  url: string;
  close(): Promise<void>;
}

/**
 * A worker's proxy on 127.0.0.1 in front of the model endpoint (http or https). With `gate`,
 * every request for a reply (any POST but a token count) first takes a slot of the
 * experiment's window. With `tracker`, it counts what became of each run's requests (answered,
 * an error status, a cut stream, no answer), as the scripted model server does for a local
 * run: the run's `model_api` record and the rules that read it see the same thing.
 */
export async function startModelTap(a: {
  upstream: string;
  gate?: { redis: Redis; experimentId: string; limit: RateLimit } | undefined;
  tracker?: ModelApiTracker | undefined;
}): Promise<ModelTap> {
  const up = new URL(a.upstream);
  const base = up.pathname.replace(/\/$/, "");
  const client = up.protocol === "https:" ? https : http;
  const closing = new AbortController();
  const server = http.createServer((req, res) => {
    const reqPath = req.url ?? "/";
    const pathname = new URL(reqPath, "http://127.0.0.1").pathname;
    const parsed = parseRunPath(pathname);
    const run = parsed.ok ? parsed.run : null;
    const messages = req.method === "POST" && /\/v1\/messages$/.test(pathname);
    if (run && messages) a.tracker?.onRequest(run);
    let settled = false;
    const settle = (status: number | null, cut: boolean): void => {
      if (settled) return;
      settled = true;
      if (run && messages)
        a.tracker?.onExchange({
          run,
          method: "POST",
          path: pathname,
          status,
          fault: cut ? { kind: "cut" } : null,
        });
    };
    const forward = (): void => {
      const outReq = client.request(
        {
          protocol: up.protocol,
          hostname: up.hostname,
          port: up.port || undefined,
          method: req.method,
          path: `${base}${reqPath}`,
          headers: { ...req.headers, host: up.host },
        },
        (outRes) => {
          const status = outRes.statusCode ?? 502;
          res.writeHead(status, outRes.headers);
          outRes.pipe(res);
          outRes.on("end", () => settle(status, false));
          // The upstream dropped the connection mid-answer: a cut stream.
          outRes.on("aborted", () => settle(status, true));
          outRes.on("error", () => settle(status, true));
          outRes.on("close", () => settle(status, !outRes.complete));
        },
      );
      outReq.on("error", (e) => {
        if (!res.headersSent) {
          res.writeHead(502, { "content-type": "application/json" });
          res.end(
            JSON.stringify({ type: "error", error: { type: "api_error", message: String(e) } }),
          );
          settle(null, false);
        } else {
          res.destroy();
          settle(null, true);
        }
      });
      // The agent went away (or was killed) before an answer came: no answer.
      res.on("close", () => {
        outReq.destroy();
        settle(null, false);
      });
      req.pipe(outReq);
    };
    const gated = a.gate && req.method === "POST" && !/count_tokens/.test(reqPath);
    if (!gated || !a.gate) return forward();
    req.pause();
    acquireSlot(a.gate.redis, a.gate.experimentId, a.gate.limit, closing.signal).then(
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
        settle(503, false);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
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
