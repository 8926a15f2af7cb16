import { isRecord } from "../core/json.js";
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { makeRedactor, REDACTED, redactJsonLine, type Redactor } from "../util/redact.js";
import { contentText } from "./request-facts.js";

/** The JSONL exchange log of the model server. */

const SECRET_HEADERS = new Set([
  "x-api-key",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
]);
const HEAD_CHARS = 300;
/** Redactors kept by the recorder (one per distinct set of request credentials). */
const MAX_REDACTORS = 64;

/** Header values with credentials replaced; returns the secret values found too. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): {
  headers: Record<string, string>;
  secrets: string[];
} {
  const out: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(", ") : v;
    if (SECRET_HEADERS.has(k.toLowerCase())) {
      out[k] = REDACTED;
      secrets.push(value, value.replace(/^Bearer\s+/i, ""));
    } else {
      out[k] = value;
    }
  }
  return { headers: out, secrets };
}

function summariseText(text: string): string {
  return text.length <= HEAD_CHARS
    ? text
    : `${text.slice(0, HEAD_CHARS)}[... ${text.length - HEAD_CHARS} more chars]`;
}

/**
 * The request body for the log: the system prompt and `role: "system"` messages
 * are shortened, `tools` becomes a list of names, the messages are kept. Pure.
 */
export function summariseRequestBody(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const out: Record<string, unknown> = { ...body };
  if (body.system !== undefined) {
    const text = typeof body.system === "string" ? body.system : contentText(body.system);
    out.system = { chars: text.length, head: summariseText(text) };
  }
  if (Array.isArray(body.tools)) {
    out.tools = body.tools.map((t) => (isRecord(t) && typeof t.name === "string" ? t.name : "?"));
  }
  if (Array.isArray(body.messages)) {
    out.messages = body.messages.map((m: unknown) => {
      if (!isRecord(m) || m.role !== "system") return m;
      const text = contentText(m.content);
      return { role: "system", content: summariseText(text), chars: text.length };
    });
  }
  return out;
}

export interface Recorder {
  /** Appends the entry's line at once (nothing is left pending). */
  write(entry: Record<string, unknown>, secrets: readonly string[]): void;
  /** Write errors seen so far (a failing log never breaks the server). */
  readonly errors: string[];
}

export function createRecorder(
  file: string | undefined,
  extraSecrets: readonly string[] = [],
): Recorder {
  const errors: string[] = [];
  const noteError = (e: unknown): void => {
    errors.push(e instanceof Error ? e.message : String(e));
  };
  // Each line is appended at once, synchronously: a request's line is a few kilobytes, cheaper
  // to write than an asynchronous append's round trips through the thread pool.
  if (file) {
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    } catch (e) {
      noteError(e);
    }
  }
  // The secrets of a request are its credential headers, the same on every request of a run (and
  // mostly of an experiment): the redactor built for one set is kept for the next request with it.
  const redactors = new Map<string, Redactor>();
  const redactorFor = (secrets: readonly string[]): Redactor => {
    const key = JSON.stringify(secrets);
    let r = redactors.get(key);
    if (r === undefined) {
      if (redactors.size >= MAX_REDACTORS) redactors.clear();
      r = makeRedactor([...secrets, ...extraSecrets]);
      redactors.set(key, r);
    }
    return r;
  };
  return {
    errors,
    write(entry, secrets) {
      if (!file) return;
      const line = `${redactJsonLine(JSON.stringify(entry), redactorFor(secrets))}\n`;
      try {
        appendFileSync(file, line);
      } catch (e) {
        noteError(e);
      }
    },
  };
}
