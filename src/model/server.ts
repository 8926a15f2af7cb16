import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { buildReply, errorBody, FALLBACK_MODEL, type ApiMessage } from "./build-reply.js";
import { faultForAttempt } from "./faults.js";
import { createRecorder, redactHeaders, summariseRequestBody } from "./record.js";
import type { RequestFacts } from "./request-facts.js";
import { parseRunPath, runLabel, DEFAULT_RUN, type RunRef } from "./run-path.js";
import type { Fault, ModelScript } from "./script.js";
import { selectStep, type Selection } from "./select-step.js";
import { cutPoint } from "./sse.js";
import { dialectOf, type WireApi } from "./dialect.js";
import {
  errorBodyFor,
  isSideRequest,
  sideReply,
  wireFor,
  wireJsonWantsJson,
} from "./wire/index.js";

export interface ModelServer {
  url: string;
  port: number;
  /**
   * Serve a connection that reached this process another way, as if accepted on the port: the
   * sandbox's model relay hands over what arrives on its unix socket (src/sandbox/relay.ts), one
   * TCP connection fewer per request. After close(), the connection is destroyed.
   */
  accept(socket: Socket): void;
  close(): Promise<void>;
}

export interface StartModelServerOptions {
  script: ModelScript;
  /** 0 or absent: pick a free port. */
  port?: number;
  /** JSONL exchange log (appended). */
  recordFile?: string;
  /** Only used in messages. */
  scriptFile?: string;
  /** Called with each exchange's record entry (the same object written to recordFile, before redaction). */
  onExchange?: (entry: Record<string, unknown>) => void;
  /** Called when a Messages request arrives, before it is answered (pairs with onExchange). */
  onRequest?: (run: RunRef) => void;
  /** Secret values (e.g. the run's credentials) scrubbed from the record file. */
  secrets?: readonly string[];
  /**
   * A meter for the body of one reply to `run` (the budgets' metering, docs/budgets.md): every
   * byte of the body as it is written goes to `push`, then `end`. Null: the run is not metered.
   */
  meterFor?: (run: RunRef) => { push(chunk: Uint8Array | string): void; end(): void } | null;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

type Entry = Record<string, unknown>;

function truncate(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  return `${text.slice(0, max)}[... ${text.length - max} more chars]`;
}

function factsForRecord(f: RequestFacts): Entry {
  return {
    model: f.model,
    stream: f.stream,
    position: f.position,
    turn_position: f.turnPosition,
    user_text: truncate(f.userText, 500),
    tool_result: truncate(f.toolResult, 500),
    tool_result_is_error: f.toolResultIsError,
    tools: f.tools,
    skills: f.skills,
  };
}

function faultForRecord(f: Fault): Entry {
  const base = { kind: f.kind, times: f.times, delay_ms: f.delayMs };
  if (f.kind === "status")
    return {
      ...base,
      status: f.status,
      error_type: f.errorType,
      message: f.message,
      headers: f.headers,
    };
  if (f.kind === "cut") return { ...base, after_events: f.afterEvents, clean: f.clean };
  return base;
}

function readBody(
  req: IncomingMessage,
): Promise<{ ok: true; text: string } | { ok: false; tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on("end", () =>
      resolve(
        tooLarge
          ? { ok: false, tooLarge: true }
          : { ok: true, text: Buffer.concat(chunks).toString("utf8") },
      ),
    );
    req.on("error", reject);
  });
}

/**
 * Hand every body byte the reply writes to `m` as it goes (the head is not passed: Node writes it
 * apart), and `end` once the reply is finished or cut.
 */
function meterBody(
  res: ServerResponse,
  m: { push(chunk: Uint8Array | string): void; end(): void },
): void {
  const see = (chunk: unknown): void => {
    if (typeof chunk === "string" || chunk instanceof Uint8Array) m.push(chunk);
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    see(chunk);
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "function") see(chunk);
    return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as typeof res.end;
  res.once("close", () => m.end());
}

/** Start the scripted Messages API server on 127.0.0.1. */
export function startModelServer(opts: StartModelServerOptions): Promise<ModelServer> {
  const { script } = opts;
  const recorder = createRecorder(opts.recordFile, opts.secrets ?? []);
  const attempts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  let closing = false;

  function wait(ms: number, res: ServerResponse): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        res.off("close", onClose);
        resolve(!closing && !res.destroyed);
      }, ms);
      const onClose = (): void => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      };
      timers.add(t);
      res.once("close", onClose);
    });
  }

  function sendJson(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const n = ++seq;
    const requestId = `req_skillbench_${n}`;
    res.setHeader("request-id", requestId);
    const { headers, secrets } = redactHeaders(req.headers);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const entry: Entry = {
      time: new Date().toISOString(),
      seq: n,
      run: null,
      method: req.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      headers,
      request: null,
      facts: null,
      rule: null,
      step: null,
      sequence_index: null,
      alternative: null,
      attempt: null,
      outcome: null,
      fault: null,
      reply: null,
      status: null,
      error: null,
      duration_ms: null,
    };
    const finish = (status: number | null, extra: Entry = {}): void => {
      Object.assign(entry, extra, { status, duration_ms: Date.now() - started });
      recorder.write(entry, secrets);
      opts.onExchange?.(entry);
    };
    // Errors are shaped for the API that was asked (Anthropic until the endpoint is known).
    let errorApi: WireApi = "anthropic";
    const fail = (status: number, errorType: string, message: string, outcome: string): void => {
      sendJson(res, status, errorBodyFor(errorApi, status, errorType, message));
      finish(status, { outcome, error: message });
    };

    const body = await readBody(req);
    const parsed = parseRunPath(url.pathname);
    const run: RunRef = parsed.ok ? parsed.run : DEFAULT_RUN;
    entry.run = run;
    if (!body.ok)
      return fail(413, "request_too_large", "request body is larger than 64 MB", "bad_request");
    if (!parsed.ok)
      return fail(
        400,
        "invalid_request_error",
        `skillbench model server: ${parsed.error}`,
        "bad_request",
      );
    const rest = parsed.rest.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";

    if (method === "GET" && (rest === "/" || rest === "/health")) {
      sendJson(res, 200, {
        ok: true,
        server: "skillbench-model",
        script: opts.scriptFile ?? script.source,
      });
      return finish(200, { outcome: "other" });
    }
    if (method === "GET" && rest === "/v1/models") {
      const id = script.defaults.model ?? FALLBACK_MODEL;
      sendJson(res, 200, {
        data: [{ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }],
        has_more: false,
        first_id: id,
        last_id: id,
      });
      return finish(200, { outcome: "other" });
    }
    const wire = wireFor(rest);
    if (wire !== null) errorApi = wire.api;
    const isMessages = wire !== null;
    const isCount = rest === "/v1/messages/count_tokens";
    if (!isMessages && !isCount) {
      return fail(
        404,
        "not_found_error",
        `skillbench model server: no such endpoint ${method} ${rest}`,
        "not_found",
      );
    }
    if (isMessages && method === "POST") {
      opts.onRequest?.(run);
      const m = opts.meterFor?.(run);
      if (m) meterBody(res, m);
    }
    if (method !== "POST")
      return fail(
        405,
        "invalid_request_error",
        `skillbench model server: use POST for ${rest}`,
        "bad_request",
      );

    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return fail(
        400,
        "invalid_request_error",
        "skillbench model server: request body is not JSON",
        "bad_request",
      );
    }
    entry.request = summariseRequestBody(json);
    if (isCount) {
      const input_tokens = Math.max(1, Math.ceil(body.text.length / 4));
      sendJson(res, 200, { input_tokens });
      return finish(200, { outcome: "count_tokens", reply: { input_tokens } });
    }

    if (wire === null) return fail(404, "not_found_error", "no such endpoint", "not_found");
    const facts = wire.facts(json, url);
    entry.facts = { api: wire.api, ...factsForRecord(facts) };
    if (isSideRequest(wire.api, run, facts, json)) {
      // Requests that offer no tools (Gemini CLI's and opencode's own bookkeeping, e.g. a
      // session title) are answered plainly and never consume a scripted step.
      const reply = sideReply(facts.model, wireJsonWantsJson(json));
      if (facts.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(wire.events(reply).join(""));
      } else sendJson(res, 200, wire.json(reply));
      return finish(200, { outcome: "side", reply });
    }
    const sel: Selection = selectStep(script, run, facts);
    if (sel.kind === "no_match") return fail(500, "api_error", sel.message, "no_match");
    if (sel.kind === "past_end") {
      Object.assign(entry, {
        rule: { index: sel.rule.index, name: sel.rule.name },
        sequence_index: sel.sequenceIndex,
      });
      return fail(500, "api_error", sel.message, "past_end");
    }

    const key = [
      run.task,
      run.treatment,
      run.agent ?? "",
      run.model ?? "",
      run.rep,
      run.role,
      sel.rule.index,
      sel.stepIndex,
    ].join("\u0000");
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    Object.assign(entry, {
      rule: { index: sel.rule.index, name: sel.rule.name },
      step: sel.stepIndex,
      sequence_index: sel.sequenceIndex,
      alternative: sel.alternative,
      attempt,
    });
    const step = sel.step;
    const fault = faultForAttempt(step.faults, attempt);
    const seed = [
      runLabel(run),
      sel.rule.index,
      sel.stepIndex,
      facts.position,
      facts.messageCount,
    ].join("|");
    const reply: ApiMessage = buildReply(script, step, facts.model, seed, {
      dialect: dialectOf(wire.api, facts.tools),
      facts: { tools: facts.tools, skillFiles: facts.skillFiles ?? {} },
    });

    if (!(await wait(step.delayMs + (fault?.delayMs ?? 0), res))) {
      return finish(null, { outcome: "client_gone", fault: fault ? faultForRecord(fault) : null });
    }

    if (fault?.kind === "hang") {
      // Never answer; close() destroys the socket.
      return finish(null, { outcome: "fault", fault: faultForRecord(fault) });
    }
    if (fault?.kind === "status") {
      const h = { ...fault.headers };
      if (fault.body === undefined) {
        sendJson(
          res,
          fault.status,
          errorBodyFor(wire.api, fault.status, fault.errorType, fault.message),
          h,
        );
      } else {
        const text = typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body);
        res.writeHead(fault.status, {
          "content-type": typeof fault.body === "string" ? "text/plain" : "application/json",
          "content-length": Buffer.byteLength(text),
          ...h,
        });
        res.end(text);
      }
      return finish(fault.status, { outcome: "fault", fault: faultForRecord(fault) });
    }
    if (fault?.kind === "cut") {
      let sent: number;
      let total: number;
      let partial: string;
      if (facts.stream) {
        const events = wire.events(reply);
        total = events.length;
        sent = cutPoint(total, fault.afterEvents);
        partial = events.slice(0, sent).join("");
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      } else {
        const text = JSON.stringify(wire.json(reply));
        total = text.length;
        sent = Math.floor(total / 2);
        partial = text.slice(0, sent);
        res.writeHead(200, { "content-type": "application/json" });
      }
      if (fault.clean) {
        res.end(partial);
      } else {
        // Let the partial data reach the client, then drop the connection.
        res.write(partial, () => res.socket?.destroy());
      }
      return finish(200, {
        outcome: "fault",
        fault: { ...faultForRecord(fault), sent, total },
        reply,
      });
    }

    if (facts.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(wire.events(reply).join(""));
    } else {
      sendJson(res, 200, wire.json(reply));
    }
    return finish(200, { outcome: "reply", reply });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const message = `skillbench model server: internal error: ${e instanceof Error ? e.message : String(e)}`;
      if (!res.headersSent) sendJson(res, 500, errorBody("api_error", message));
      else res.destroy();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      const addr = server.address();
      const port = addr !== null && typeof addr === "object" ? addr.port : 0;
      let closed: Promise<void> | null = null;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        accept(socket) {
          if (closing) socket.destroy();
          else server.emit("connection", socket);
        },
        close() {
          closed ??= (async () => {
            closing = true;
            for (const t of timers) clearTimeout(t);
            timers.clear();
            const done = new Promise<void>((r) => server.close(() => r()));
            for (const s of sockets) s.destroy();
            await done;
          })();
          return closed;
        },
      });
    });
  });
}
