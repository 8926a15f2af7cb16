import type { ModelApiRecord } from "../core/report.js";
import type { RunRef } from "../model/run-path.js";

/**
 * Counts, per run, what the scripted model server did with the subject agent's Messages
 * requests: answered, errored (by status) or never answered. The harness then knows whether a
 * timed-out run was waiting on the model (docs/statistics.md §8).
 */
export interface ModelApiTracker {
  onRequest(run: RunRef): void;
  onExchange(entry: Record<string, unknown>): void;
  /** The record for one run; requests still in flight count as unanswered. */
  recordFor(run: {
    task: string;
    treatment: string;
    rep: number;
    agent?: string | undefined;
    model?: string | undefined;
  }): ModelApiRecord;
}

interface Counts {
  requests: number;
  pending: number;
  answered: number;
  unanswered: number;
  errors: Record<string, number>;
  lastFailed: boolean;
}

const keyOf = (r: {
  task: string | null;
  treatment: string | null;
  rep: number;
  agent?: string | undefined;
  model?: string | undefined;
}): string =>
  [r.task ?? "", r.treatment ?? "", r.agent ?? "", r.model ?? "", String(r.rep)].join("\u0000");

/** A model request on any agent's API (Anthropic Messages, OpenAI Responses/Chat, Gemini). */
const MODEL_REQUEST =
  /(\/v1\/messages|\/responses|\/chat\/completions|:(?:stream)?[gG]enerateContent)(\?|$)/;

function isRunRef(v: unknown): v is RunRef {
  return typeof v === "object" && v !== null && "rep" in v && "role" in v;
}

export function createModelApiTracker(): ModelApiTracker {
  const byRun = new Map<string, Counts>();
  const counts = (key: string): Counts => {
    let c = byRun.get(key);
    if (!c) {
      c = { requests: 0, pending: 0, answered: 0, unanswered: 0, errors: {}, lastFailed: false };
      byRun.set(key, c);
    }
    return c;
  };
  return {
    onRequest(run) {
      if (run.role !== "subject") return;
      const c = counts(keyOf(run));
      c.requests++;
      c.pending++;
      // A retried request is a new request; the previous one has been settled by onExchange.
    },
    onExchange(entry) {
      const run = entry.run;
      if (!isRunRef(run) || run.role !== "subject") return;
      const p = typeof entry.path === "string" ? entry.path : "";
      if (!MODEL_REQUEST.test(p) || entry.method !== "POST") return;
      const c = counts(keyOf(run));
      if (c.pending > 0) c.pending--;
      const status = typeof entry.status === "number" ? entry.status : null;
      const fault = entry.fault;
      const cut =
        typeof fault === "object" && fault !== null && "kind" in fault && fault.kind === "cut";
      c.lastFailed = status !== null && (cut || status < 200 || status >= 300);
      if (status === null) c.unanswered++;
      else if (cut) c.errors.cut = (c.errors.cut ?? 0) + 1;
      else if (status >= 200 && status < 300) c.answered++;
      else c.errors[String(status)] = (c.errors[String(status)] ?? 0) + 1;
    },
    recordFor(run) {
      const c = byRun.get(keyOf(run)) ?? {
        requests: 0,
        pending: 0,
        answered: 0,
        unanswered: 0,
        errors: {},
        lastFailed: false,
      };
      return {
        source: "scripted_server",
        requests: c.requests,
        answered: c.answered,
        unanswered: c.unanswered + c.pending,
        errors: { ...c.errors },
        last_failed: c.lastFailed,
      };
    },
  };
}
