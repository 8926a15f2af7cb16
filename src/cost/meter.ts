/**
 * The harness's own count of model usage (docs/budgets.md): bytes of a model response in,
 * token counts out. The model APIs report usage inside each response (Anthropic's SSE
 * `message_start` / `message_delta`, OpenAI's `usage`, Gemini's `usageMetadata`); the meter reads
 * those fields as the bytes stream past, chunk boundaries anywhere, so a budget is checked while
 * a reply is still arriving and never rests on the agent's own word. Pure: no I/O, no clock.
 *
 * Two layers: `createBodyMeter` reads one response body (SSE or JSON, any of the three
 * dialects); `createHttpMeter` reads the raw bytes an endpoint sends back on one connection
 * (status line, headers, content-length or chunked bodies, several responses in a row) and
 * hands each body to a body meter. Both report usage as deltas, so a caller adds them up.
 */
import type { TokenCounts } from "./pricing.js";

/** Usage newly seen in a response: the tokens by kind, for the model the response names. */
export interface UsageDelta {
  /** The model the response says answered (null when it names none). */
  readonly model: string | null;
  readonly tokens: TokenCounts;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Counts = Mutable<TokenCounts>;

const ZERO: TokenCounts = { input: 0, output: 0, cache_read: 0, cache_write: 0 };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * What one parsed JSON value (an SSE event's data, or a whole JSON body) says about usage, by
 * dialect: the counts it reports (each kind absent when it says nothing of it) and the model.
 * The counts are the response's totals so far (every dialect reports cumulative figures), so
 * the body meter keeps the latest value of each kind.
 */
export function usageOfEvent(v: unknown): { model: string | null; counts: Partial<Counts> } | null {
  if (!isRecord(v)) return null;
  // Anthropic: message_start carries the message (model, input and cache counts); message_delta
  // the usage so far (output cumulative); a non-streaming reply is the message itself.
  if (v.type === "message_start" && isRecord(v.message))
    return anthropic(v.message.usage, str(v.message.model));
  if (v.type === "message_delta") return anthropic(v.usage, null);
  if (v.type === "message" && isRecord(v.usage)) return anthropic(v.usage, str(v.model));
  // OpenAI Responses: the final event (or a non-streaming body) has the response's usage.
  if (typeof v.type === "string" && v.type.startsWith("response.") && isRecord(v.response))
    return isRecord(v.response.usage) ? openai(v.response.usage, str(v.response.model)) : null;
  if (v.object === "response" && isRecord(v.usage)) return openai(v.usage, str(v.model));
  // OpenAI Chat Completions: `usage` on the last chunk (stream_options.include_usage) or the body.
  if (isRecord(v.usage) && ("choices" in v || v.object === "chat.completion"))
    return openai(v.usage, str(v.model));
  // Gemini: usageMetadata on each chunk (the last one complete) or the body.
  if (isRecord(v.usageMetadata)) return gemini(v.usageMetadata, str(v.modelVersion));
  return null;
}

function anthropic(u: unknown, model: string | null): ReturnType<typeof usageOfEvent> {
  if (!isRecord(u)) return model === null ? null : { model, counts: {} };
  const counts: Partial<Counts> = {};
  const set = (k: keyof Counts, x: unknown): void => {
    const n = num(x);
    if (n !== null) counts[k] = n;
  };
  set("input", u.input_tokens);
  set("output", u.output_tokens);
  set("cache_read", u.cache_read_input_tokens);
  set("cache_write", u.cache_creation_input_tokens);
  return { model, counts };
}

/** OpenAI counts cached tokens inside the prompt's: input is the uncached part. */
function openai(u: Record<string, unknown>, model: string | null): ReturnType<typeof usageOfEvent> {
  const prompt = num(u.prompt_tokens) ?? num(u.input_tokens);
  const details = isRecord(u.prompt_tokens_details)
    ? u.prompt_tokens_details
    : isRecord(u.input_tokens_details)
      ? u.input_tokens_details
      : {};
  const cached = num(details.cached_tokens) ?? 0;
  const output = num(u.completion_tokens) ?? num(u.output_tokens);
  const counts: Partial<Counts> = {};
  if (prompt !== null) {
    counts.input = Math.max(0, prompt - cached);
    counts.cache_read = Math.min(cached, prompt);
  }
  if (output !== null) counts.output = output;
  return { model, counts };
}

/** Gemini counts cached tokens inside the prompt's and thinking apart from the candidates'. */
function gemini(u: Record<string, unknown>, model: string | null): ReturnType<typeof usageOfEvent> {
  const prompt = num(u.promptTokenCount);
  const cached = num(u.cachedContentTokenCount) ?? 0;
  const out = num(u.candidatesTokenCount);
  const thoughts = num(u.thoughtsTokenCount) ?? 0;
  const counts: Partial<Counts> = {};
  if (prompt !== null) {
    counts.input = Math.max(0, prompt - cached);
    counts.cache_read = Math.min(cached, prompt);
  }
  if (out !== null || thoughts > 0) counts.output = (out ?? 0) + thoughts;
  return { model, counts };
}

export interface BodyMeter {
  /** More bytes of the body (any split). */
  push(chunk: Uint8Array | string): void;
  /** The body is complete: a JSON (non-SSE) body is read now. */
  end(): void;
  /** The response's usage so far. */
  totals(): { model: string | null; tokens: TokenCounts };
}

/** A JSON body this long is not read for usage (no reply the APIs send is near it). */
const MAX_JSON_BODY = 64 * 1024 * 1024;

/**
 * A meter for one response body. SSE (`data:` lines) is read event by event as it arrives; any
 * other body is read as JSON once complete (a JSON array, as Gemini's non-SSE stream, item by
 * item). Each change of the response's usage goes to `onUsage` as a delta.
 */
export function createBodyMeter(onUsage: (d: UsageDelta) => void): BodyMeter {
  const decoder = new TextDecoder();
  const cur: Counts = { ...ZERO };
  let model: string | null = null;
  let mode: "unknown" | "sse" | "json" = "unknown";
  let line = "";
  let data: string[] = [];
  let json = "";
  let jsonTooLong = false;

  const apply = (v: unknown): void => {
    const u = usageOfEvent(v);
    if (u === null) return;
    if (u.model !== null) model ??= u.model;
    const delta: Counts = { ...ZERO };
    let changed = false;
    for (const k of ["input", "output", "cache_read", "cache_write"] as const) {
      const n = u.counts[k];
      // Cumulative figures: a kind only grows (a later, smaller figure is not a refund).
      if (n === undefined || n <= cur[k]) continue;
      delta[k] = n - cur[k];
      cur[k] = n;
      changed = true;
    }
    if (changed) onUsage({ model, tokens: delta });
  };
  const parse = (text: string): void => {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return;
    }
    if (Array.isArray(v)) for (const item of v) apply(item);
    else apply(v);
  };
  const dispatch = (): void => {
    if (data.length > 0) {
      const text = data.join("\n");
      if (text !== "[DONE]") parse(text);
    }
    data = [];
  };
  const sseLine = (l: string): void => {
    const s = l.endsWith("\r") ? l.slice(0, -1) : l;
    if (s === "") dispatch();
    else if (s.startsWith("data:")) data.push(s.slice(s.startsWith("data: ") ? 6 : 5));
  };
  const text = (s: string): void => {
    if (mode === "unknown") {
      const t = (json + s).trimStart();
      if (t === "") {
        json += s;
        return;
      }
      mode = t.startsWith("{") || t.startsWith("[") ? "json" : "sse";
      s = json + s;
      json = "";
    }
    if (mode === "json") {
      if (jsonTooLong) return;
      json += s;
      if (json.length > MAX_JSON_BODY) {
        jsonTooLong = true;
        json = "";
      }
      return;
    }
    line += s;
    let nl = line.indexOf("\n");
    while (nl !== -1) {
      sseLine(line.slice(0, nl));
      line = line.slice(nl + 1);
      nl = line.indexOf("\n");
    }
  };
  return {
    push(chunk) {
      text(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      text(decoder.decode());
      if (mode === "json") parse(json);
      else if (mode === "sse") {
        if (line !== "") sseLine(line);
        dispatch();
      }
      json = "";
      line = "";
    },
    totals: () => ({ model, tokens: { ...cur } }),
  };
}

/** What the HTTP meter saw besides usage: responses whose body it could not read. */
export interface HttpMeterState {
  responses: number;
  /** Bodies sent compressed (Content-Encoding other than identity): not read. */
  unread: number;
}

export interface HttpMeter {
  push(chunk: Uint8Array): void;
  /** The connection closed: a body delimited by the close ends here. */
  end(): void;
  state(): HttpMeterState;
}

type Phase =
  | { kind: "head" }
  | { kind: "length"; left: number }
  | { kind: "chunk-size" }
  | { kind: "chunk-data"; left: number }
  | { kind: "chunk-data-end" }
  | { kind: "trailers" }
  | { kind: "until-close" };

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
/** A response head longer than this is not HTTP/1.x as any API sends it: stop reading. */
const MAX_HEAD = 64 * 1024;

/**
 * A meter for the bytes an endpoint sends back on one HTTP/1.x connection: each response's body
 * (after Content-Length or chunked framing is removed) goes to a fresh body meter. A body sent
 * compressed is counted as unread (the relay passes bytes on unchanged; docs/budgets.md says
 * what that means). Anything that does not read as HTTP/1.x stops the meter, never the bytes.
 */
export function createHttpMeter(onUsage: (d: UsageDelta) => void): HttpMeter {
  let buf: Buffer = Buffer.alloc(0);
  let phase: Phase = { kind: "head" };
  let body: BodyMeter | null = null;
  let broken = false;
  const st: HttpMeterState = { responses: 0, unread: 0 };
  const isBroken = (): boolean => broken;

  const finishBody = (): void => {
    body?.end();
    body = null;
    phase = { kind: "head" };
  };
  const feed = (b: Buffer): void => {
    body?.push(b);
  };
  const head = (text: string): void => {
    const lines = text.split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
    if (!status) {
      broken = true;
      return;
    }
    const code = Number(status[1]);
    const headers = new Map<string, string>();
    for (const l of lines.slice(1)) {
      const i = l.indexOf(":");
      if (i > 0) headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
    }
    // 1xx, 204 and 304 have no body.
    if (code < 200 || code === 204 || code === 304) return;
    st.responses++;
    const encoding = (headers.get("content-encoding") ?? "identity").toLowerCase();
    if (encoding !== "identity") st.unread++;
    body = encoding === "identity" ? createBodyMeter(onUsage) : null;
    if (/\bchunked\b/i.test(headers.get("transfer-encoding") ?? "")) phase = { kind: "chunk-size" };
    else if (headers.has("content-length")) {
      const left = Number(headers.get("content-length"));
      if (!Number.isFinite(left) || left < 0) broken = true;
      else if (left === 0) finishBody();
      else phase = { kind: "length", left };
    } else phase = { kind: "until-close" };
  };
  const step = (): boolean => {
    switch (phase.kind) {
      case "head": {
        if (broken) return false;
        const at = buf.indexOf(HEAD_END);
        if (at === -1) {
          if (buf.length > MAX_HEAD) broken = true;
          return false;
        }
        const text = buf.subarray(0, at).toString("latin1");
        buf = buf.subarray(at + 4);
        head(text);
        return true;
      }
      case "length": {
        if (buf.length === 0) return false;
        const take = Math.min(phase.left, buf.length);
        feed(buf.subarray(0, take));
        buf = buf.subarray(take);
        phase.left -= take;
        if (phase.left === 0) finishBody();
        return true;
      }
      case "chunk-size": {
        const at = buf.indexOf(CRLF);
        if (at === -1) {
          if (buf.length > MAX_HEAD) broken = true;
          return false;
        }
        const size = parseInt(buf.subarray(0, at).toString("latin1").split(";")[0] ?? "", 16);
        buf = buf.subarray(at + 2);
        if (!Number.isFinite(size) || size < 0) broken = true;
        else phase = size === 0 ? { kind: "trailers" } : { kind: "chunk-data", left: size };
        return true;
      }
      case "chunk-data": {
        if (buf.length === 0) return false;
        const take = Math.min(phase.left, buf.length);
        feed(buf.subarray(0, take));
        buf = buf.subarray(take);
        phase.left -= take;
        if (phase.left === 0) phase = { kind: "chunk-data-end" };
        return true;
      }
      case "chunk-data-end": {
        if (buf.length < 2) return false;
        buf = buf.subarray(2);
        phase = { kind: "chunk-size" };
        return true;
      }
      case "trailers": {
        const at = buf.indexOf(CRLF);
        if (at === -1) return false;
        buf = buf.subarray(at + 2);
        // An empty line ends the trailers (and the response).
        if (at === 0) finishBody();
        return true;
      }
      case "until-close":
        if (buf.length === 0) return false;
        feed(buf);
        buf = Buffer.alloc(0);
        return true;
    }
  };
  return {
    push(chunk) {
      if (broken) return;
      buf = buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([buf, chunk]);
      // `broken` is set inside step(): read it through a call, not a narrowed variable.
      while (step() && !isBroken());
    },
    end() {
      // A body cut short still counts what it carried.
      body?.end();
      body = null;
    },
    state: () => ({ ...st }),
  };
}

/** Token counts added up. */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_write: a.cache_write + b.cache_write,
  };
}

/** Every kind of token together (what `--budget-tokens` counts). */
export const tokenTotal = (t: TokenCounts): number =>
  t.input + t.output + t.cache_read + t.cache_write;

export { ZERO as NO_TOKENS };
