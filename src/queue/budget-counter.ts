import type { Redis } from "ioredis";
import type { SharedSpend } from "../runner/budget.js";
import { bounded, queueRetryMs } from "./connect.js";
import { KEY_PREFIX } from "./job.js";

/**
 * The spend of a queued experiment, shared by every worker (docs/budgets.md): one Redis hash
 * per experiment that each worker's metered usage is added to (atomically, in one script) and
 * that each worker reads before it starts a run, so the experiment's budget holds across all
 * workers together, as the rate limit's window does (model-tap.ts).
 */
const ADD = `
local usd = redis.call('HINCRBYFLOAT', KEYS[1], 'usd', ARGV[1])
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {usd, tokens}
`;

/** Kept two weeks after its last use, as an uncollected run record is (worker.ts). */
const KEEP_MS = 14 * 24 * 3600 * 1000;

function budgetKey(experimentId: string): string {
  return `${KEY_PREFIX}:budget:${experimentId}`;
}

const numberOf = (v: unknown): number => {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

export function redisSpend(redis: Redis, experimentId: string): SharedSpend {
  const key = budgetKey(experimentId);
  return {
    async add(delta) {
      // Bounded as every Redis call a worker waits on (connect.ts): a Redis gone away fails the
      // call instead of holding the run's admission or its metering.
      const r: unknown = await bounded(
        redis.eval(ADD, 1, key, String(delta.usd), String(Math.round(delta.tokens)), KEEP_MS),
        { ms: queueRetryMs(), what: "the shared budget" },
      );
      const [usd, tokens] = Array.isArray(r) ? (r as unknown[]) : [];
      return { usd: numberOf(usd), tokens: numberOf(tokens) };
    },
    async read() {
      const [usd, tokens] = await bounded(redis.hmget(key, "usd", "tokens"), {
        ms: queueRetryMs(),
        what: "the shared budget",
      });
      return { usd: numberOf(usd), tokens: numberOf(tokens) };
    },
  };
}
