/** Token, cost and per-model usage accumulation across result events. Pure. */
import type { ModelUsage, Tokens } from "../core/evidence.js";
import { isRecord, numOf, type JsonRecord } from "./narrow.js";

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

function emptyUsage(): ModelUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    webSearchRequests: 0,
    costUSD: 0,
    contextWindow: null,
    maxOutputTokens: null,
  };
}

/** One `modelUsage`-shaped object, narrowed: model -> counters (absent counters read as 0). */
export function readModelUsage(raw: JsonRecord): Map<string, ModelUsage> {
  const out = new Map<string, ModelUsage>();
  for (const [model, value] of Object.entries(raw)) {
    if (!isRecord(value)) continue;
    const u = emptyUsage();
    for (const k of ADDITIVE) u[k] = numOf(value[k]) ?? 0;
    u.contextWindow = numOf(value.contextWindow);
    u.maxOutputTokens = numOf(value.maxOutputTokens);
    out.set(model, u);
  }
  return out;
}

/** Sum of `costUSD` over the entries of a raw `modelUsage` object that have one; null when none has. */
export function costOfModelUsage(raw: JsonRecord): number | null {
  let cost: number | null = null;
  for (const value of Object.values(raw)) {
    if (!isRecord(value)) continue;
    cost = addNullable(cost, numOf(value.costUSD));
  }
  return cost;
}

/**
 * Add per-model usage into `into`: counts and cost add up, contextWindow and
 * maxOutputTokens take the maximum.
 */
export function addModelUsage(
  into: Map<string, ModelUsage>,
  add: ReadonlyMap<string, ModelUsage>,
): void {
  for (const [model, value] of add) {
    const cur = into.get(model) ?? emptyUsage();
    for (const k of ADDITIVE) cur[k] += value[k];
    cur.contextWindow = maxOrNull(cur.contextWindow, value.contextWindow);
    cur.maxOutputTokens = maxOrNull(cur.maxOutputTokens, value.maxOutputTokens);
    into.set(model, cur);
  }
}

/** The four token counters of one model's usage, added. */
function tokensOf(u: ModelUsage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
}

export function sumModelTokens(models: ReadonlyMap<string, ModelUsage>): number {
  let n = 0;
  for (const u of models.values()) n += tokensOf(u);
  return n;
}

/** The session-level figures one `result` event reports. */
export interface SessionFigures {
  /** `total_cost_usd` */
  cost: number | null;
  /** `duration_api_ms` */
  apiMs: number | null;
  /** `modelUsage`, narrowed; null when the event has none. */
  models: Map<string, ModelUsage> | null;
  /**
   * Tokens this turn used by its own account (`model_usage_since_last_result`, else the
   * per-turn `usage`), null when unknown. Tells a running total from a fresh count.
   */
  turnTokens: number | null;
}

/** What one result adds to the run's totals. */
export interface FigureIncrements {
  cost: number | null;
  apiMs: number | null;
  models: Map<string, ModelUsage> | null;
}

/** Floating-point slack when comparing costs (USD) and counts. */
const EPS = 1e-9;

function notBelow(cur: number | null, prev: number | null): boolean {
  return cur === null || prev === null || cur >= prev - EPS;
}

function minus(cur: number | null, prev: number | null): number | null {
  if (cur === null) return null;
  if (prev === null) return cur;
  return Math.max(0, cur - prev);
}

/**
 * Running totals per session id (docs/evidence.md, "Totals across result events").
 *
 * Claude Code's `total_cost_usd`, `modelUsage` and `duration_api_ms` are counters of
 * the process (and of a resumed session, whose counters are restored): a session that
 * emits several `result` events repeats what earlier results already reported. For
 * each session id the last reported figures are kept; a later result of the same
 * session whose counters did not go down, and whose model tokens grew by at least the
 * tokens of its own turn, is a running total: only its difference is added. Any
 * counter lower than before means the counters restarted (a new process that did not
 * restore them): the figures are added in full.
 */
export class SessionTotals {
  private readonly last = new Map<string, SessionFigures>();

  take(sessionId: string | null, cur: SessionFigures): FigureIncrements {
    const key = sessionId ?? "";
    const prev = this.last.get(key);
    const running = prev !== undefined && isRunningTotal(prev, cur);
    this.last.set(key, {
      cost: cur.cost ?? prev?.cost ?? null,
      apiMs: cur.apiMs ?? prev?.apiMs ?? null,
      models: cur.models ?? prev?.models ?? null,
      turnTokens: cur.turnTokens,
    });
    if (!running || prev === undefined)
      return { cost: cur.cost, apiMs: cur.apiMs, models: cur.models };
    let models: Map<string, ModelUsage> | null = null;
    if (cur.models !== null) {
      models = new Map();
      for (const [model, u] of cur.models) {
        const before = prev.models?.get(model);
        const d = { ...u };
        if (before !== undefined) for (const k of ADDITIVE) d[k] = Math.max(0, u[k] - before[k]);
        models.set(model, d);
      }
    }
    return {
      cost: minus(cur.cost, prev.cost),
      apiMs: minus(cur.apiMs, prev.apiMs),
      models,
    };
  }
}

function isRunningTotal(prev: SessionFigures, cur: SessionFigures): boolean {
  if (!notBelow(cur.cost, prev.cost) || !notBelow(cur.apiMs, prev.apiMs)) return false;
  if (prev.models !== null && cur.models !== null) {
    for (const [model, before] of prev.models) {
      const now = cur.models.get(model);
      if (now === undefined) return false;
      for (const k of ADDITIVE) if (now[k] < before[k] - EPS) return false;
    }
    if (
      cur.turnTokens !== null &&
      sumModelTokens(cur.models) - sumModelTokens(prev.models) < cur.turnTokens
    )
      return false;
  }
  return true;
}

/** The four token counters of a result's `usage`, added; null when it has none. */
export function usageTokens(usage: unknown): number | null {
  if (!isRecord(usage)) return null;
  const parts = [
    usage.input_tokens,
    usage.output_tokens,
    usage.cache_read_input_tokens,
    usage.cache_creation_input_tokens,
  ].map(numOf);
  if (parts.every((p) => p === null)) return null;
  return parts.reduce<number>((a, b) => a + (b ?? 0), 0);
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
