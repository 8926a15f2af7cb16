import { z } from "zod";
import { errorMessage } from "../core/errors.js";
import type { JudgeCredential } from "./config.js";
import type { JudgeReply, JudgeTransport } from "./types.js";

/** The judge over a direct Messages API call (docs/judge.md, Transports: direct HTTP). */

/** `<base>/v1/messages`; a base ending in `/messages` is used as is, one ending in `/v1` gets `/messages`. Pure. */
export function messagesUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, "");
  if (/\/messages$/.test(base)) return base;
  if (/\/v1$/.test(base)) return `${base}/messages`;
  return `${base}/v1/messages`;
}

/** The request headers: the credential as a bearer token or an x-api-key, never both. Pure. */
export function judgeHeaders(credential: JudgeCredential): Record<string, string> {
  const h: Record<string, string> = {
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
  };
  if (credential.kind === "token") h.authorization = `Bearer ${credential.value}`;
  else h["x-api-key"] = credential.value;
  return h;
}

const MessageSchema = z.object({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  usage: z
    .looseObject({ input_tokens: z.number().optional(), output_tokens: z.number().optional() })
    .optional(),
});
const ErrorBodySchema = z.object({ error: z.object({ message: z.string() }) });

/** "HTTP <code> <detail>": the API's error message when it sent one, else the body's head. Pure. */
export function httpErrorText(status: number, body: string): string {
  let detail = body.replace(/\s+/g, " ").trim().slice(0, 300);
  try {
    const e = ErrorBodySchema.safeParse(JSON.parse(body));
    if (e.success) detail = e.data.error.message;
  } catch {
    /* not JSON: keep the text */
  }
  return detail ? `HTTP ${status} ${detail}` : `HTTP ${status}`;
}

/** Text of a Messages API reply: its `text` blocks joined. Pure. */
export function replyFromBody(body: string): JudgeReply {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return {
      ok: false,
      error: `the judge endpoint answered with a body that is not JSON: ${body.slice(0, 200)}`,
    };
  }
  const m = MessageSchema.safeParse(raw);
  if (!m.success)
    return {
      ok: false,
      error: "the judge endpoint answered with JSON that is not a Messages API reply",
    };
  const text = m.data.content
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text ?? "")
    .join("");
  const u = m.data.usage;
  const tokens =
    u && (u.input_tokens !== undefined || u.output_tokens !== undefined)
      ? { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0 }
      : null;
  return { ok: true, text, tokens, costUsd: null };
}

export interface HttpTransportOptions {
  baseUrl: string;
  credential: JudgeCredential;
  model: string;
  maxTokens: number;
  timeoutMs: number;
  /** For tests. */
  fetchImpl?: typeof fetch;
}

function causeText(e: unknown): string {
  const msg = errorMessage(e);
  const cause = e instanceof Error && e.cause !== undefined ? errorMessage(e.cause) : "";
  return cause && cause !== msg ? `${msg}: ${cause}` : msg;
}

/** 120000 -> 120, 1500 -> 2, 10 -> 0.01 */
function seconds(ms: number): number {
  return ms >= 1000 ? Math.round(ms / 1000) : ms / 1000;
}

export function httpTransport(o: HttpTransportOptions): JudgeTransport {
  const url = messagesUrl(o.baseUrl);
  const doFetch = o.fetchImpl ?? fetch;
  return async (prompt, signal) => {
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, o.timeoutMs);
    const onAbort = (): void => ctl.abort();
    if (signal?.aborted) ctl.abort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await doFetch(url, {
        method: "POST",
        headers: judgeHeaders(o.credential),
        body: JSON.stringify({
          model: o.model,
          max_tokens: o.maxTokens,
          messages: [{ role: "user", content: prompt }],
        }),
        signal: ctl.signal,
      });
      const body = await res.text();
      if (!res.ok) return { ok: false, error: httpErrorText(res.status, body) };
      return replyFromBody(body);
    } catch (e) {
      // both flags change while the request is awaited, which the type checker cannot see
      /* eslint-disable @typescript-eslint/no-unnecessary-condition */
      if (timedOut) return { ok: false, error: `timeout after ${seconds(o.timeoutMs)}s` };
      if (signal?.aborted) return { ok: false, error: "judge call cancelled" };
      /* eslint-enable @typescript-eslint/no-unnecessary-condition */
      return { ok: false, error: causeText(e) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  };
}
