import { isRecord } from "../core/json.js";
/** Token, cost and per-model usage accumulation across result events. Pure. */
import type { ModelUsage, Tokens } from "../core/evidence.js";
import { numOf, type JsonRecord } from "./narrow.js";

const ADDITIVE = [
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
  "webSearchRequests",
  "costUSD",
] as const;

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/**
 * Merge one `modelUsage`-shaped object into `into`: counts and cost add up,
 * contextWindow and maxOutputTokens take the maximum. Returns the summed costUSD
 * found in `raw` (null when no entry had one).
 */
export function mergeModelUsage(into: Map<string, ModelUsage>, raw: JsonRecord): number | null {
  let cost: number | null = null;
  for (const [model, value] of Object.entries(raw)) {
    if (!isRecord(value)) continue;
    const cur: ModelUsage = into.get(model) ?? {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      contextWindow: null,
      maxOutputTokens: null,
    };
    for (const k of ADDITIVE) cur[k] += numOf(value[k]) ?? 0;
    const c = numOf(value.costUSD);
    if (c !== null) cost = (cost ?? 0) + c;
    cur.contextWindow = maxOrNull(cur.contextWindow, numOf(value.contextWindow));
    cur.maxOutputTokens = maxOrNull(cur.maxOutputTokens, numOf(value.maxOutputTokens));
    into.set(model, cur);
  }
  return cost;
}

/** Running sum of the four token counters of result `usage` objects; null until one is seen. */
export class TokenSum {
  private t: Omit<Tokens, "total"> | null = null;

  add(usage: unknown): void {
    if (!isRecord(usage)) return;
    const input = numOf(usage.input_tokens);
    const output = numOf(usage.output_tokens);
    const cacheRead = numOf(usage.cache_read_input_tokens);
    const cacheCreation = numOf(usage.cache_creation_input_tokens);
    if (input === null && output === null && cacheRead === null && cacheCreation === null) return;
    const t = this.t ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
    t.input += input ?? 0;
    t.output += output ?? 0;
    t.cache_read += cacheRead ?? 0;
    t.cache_creation += cacheCreation ?? 0;
    this.t = t;
  }

  value(): Tokens | null {
    if (this.t === null) return null;
    const { input, output, cache_read, cache_creation } = this.t;
    return {
      input,
      output,
      cache_read,
      cache_creation,
      total: input + output + cache_read + cache_creation,
    };
  }
}

/** Context size of one assistant message: input + cache_read + cache_creation, or null without usage. */
export function contextTokensOf(usage: unknown): number | null {
  if (!isRecord(usage)) return null;
  const parts = [
    usage.input_tokens,
    usage.cache_read_input_tokens,
    usage.cache_creation_input_tokens,
  ].map(numOf);
  if (parts.every((p) => p === null)) return null;
  return parts.reduce<number>((a, b) => a + (b ?? 0), 0);
}

/** Add a possibly-null number to a possibly-null sum. */
export function addNullable(sum: number | null, v: number | null): number | null {
  if (v === null) return sum;
  return (sum ?? 0) + v;
}
