import type { Redis } from "ioredis";
import type { SharedSpend } from "../runner/budget.js";
import { bounded, queueRetryMs } from "./connect.js";
import { KEY_PREFIX } from "./job.js";

/**
 * The spend of a queued experiment, shared by every worker (docs/budgets.md): one Redis hash
 * per experiment that each worker's metered usage is added to (atomically, in one script) and
 * that each worker reads before it starts a run or a judge call, so the experiment's budget
 * holds across all workers together, as the rate limit's window does (model-tap.ts). `usd` and
 * `tokens` are the experiment's total, the judge's calls included; the `judge_…` fields are the
 * judge's part of it, with one `judge_unpriced:<model>` field per model the table cannot price,
 * which the coordinator reads back for metadata.json `budget.judge`.
 */
const ADD = `
local usd = redis.call('HINCRBYFLOAT', KEYS[1], 'usd', ARGV[1])
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {usd, tokens}
`;

/** ADD, and the same figures to the judge's part, with its calls, refusals and unpriced models. */
const ADD_JUDGE = `
local usd = redis.call('HINCRBYFLOAT', KEYS[1], 'usd', ARGV[1])
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[1], 'judge_usd', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'judge_tokens', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'judge_calls', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'judge_refused', ARGV[5])
for i = 6, #ARGV do
  redis.call('HSET', KEYS[1], 'judge_unpriced:' .. ARGV[i], 1)
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {usd, tokens}
`;

const UNPRICED = "judge_unpriced:";

/** Kept two weeks after its last use, as an uncollected run record is (worker.ts). */
const KEEP_MS = 14 * 24 * 3600 * 1000;

function budgetKey(experimentId: string): string {
  return `${KEY_PREFIX}:budget:${experimentId}`;
}

const numberOf = (v: unknown): number => {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

const totalOf = (r: unknown): { usd: number; tokens: number } => {
  const [usd, tokens] = Array.isArray(r) ? (r as unknown[]) : [];
  return { usd: numberOf(usd), tokens: numberOf(tokens) };
};

/**
 * The experiment's shared spend in Redis. `redis` may be a connection still being made (a
 * coordinator opens its own only when a budget asks for it, queue/index.ts).
 */
export function redisSpend(redis: Redis | Promise<Redis>, experimentId: string): SharedSpend {
  const key = budgetKey(experimentId);
  // Bounded as every Redis call a worker waits on (connect.ts): a Redis gone away fails the
  // call instead of holding the run's admission or its metering.
  const call = async <T>(f: (r: Redis) => Promise<T>): Promise<T> =>
    bounded((async () => f(await redis))(), { ms: queueRetryMs(), what: "the shared budget" });
  return {
    async add(delta) {
      return totalOf(
        await call((r) =>
          r.eval(ADD, 1, key, String(delta.usd), String(Math.round(delta.tokens)), KEEP_MS),
        ),
      );
    },
    async addJudge(delta) {
      return totalOf(
        await call((r) =>
          r.eval(
            ADD_JUDGE,
            1,
            key,
            String(delta.usd),
            String(Math.round(delta.tokens)),
            KEEP_MS,
            delta.calls,
            delta.refused,
            ...delta.unpriced,
          ),
        ),
      );
    },
    async read() {
      const [usd, tokens] = await call((r) => r.hmget(key, "usd", "tokens"));
      return { usd: numberOf(usd), tokens: numberOf(tokens) };
    },
    async readJudge() {
      const all = await call((r) => r.hgetall(key));
      return {
        calls: numberOf(all.judge_calls),
        refused: numberOf(all.judge_refused),
        usd: numberOf(all.judge_usd),
        tokens: numberOf(all.judge_tokens),
        unpriced: Object.keys(all)
          .filter((f) => f.startsWith(UNPRICED))
          .map((f) => f.slice(UNPRICED.length))
          .sort(),
      };
    },
  };
}
