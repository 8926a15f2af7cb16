/**
 * The agent's own telemetry (docs/telemetry.md, "The agent's own spans"). Each run's agent gets
 * the run span's trace context (`TRACEPARENT`) and exports its spans as OTLP/JSON to this
 * collector on 127.0.0.1; the collector redacts them (the run's secrets always; content unless
 * `--otel-include-content`) and forwards them to the configured targets, so the agent never
 * holds the targets' credentials and its spans nest under the run span.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sha256Hex } from "./content.js";
import type { OtlpTarget } from "./config.js";
import { traceIdFor, runSpanId, traceparent } from "./ids.js";

/** Attribute keys whose values are the user's content (prompts, tool input and output). */
const CONTENT_KEYS = /(prompt|content|input|output|arguments|result|command|argv|body|message)$/i;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Redact an OTLP/JSON traces request in place: every string value through `redact`, and every
 * string attribute whose key names content hashed (unless content is included).
 */
export function redactOtlpJson(
  body: unknown,
  redact: (s: string) => string,
  includeContent: boolean,
): unknown {
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (!isRecord(v)) return v;
    // An OTLP attribute: {key, value: {stringValue | intValue | …}}.
    if (typeof v["key"] === "string" && isRecord(v["value"])) {
      const k = v["key"];
      const val = v["value"];
      if (!includeContent && typeof val["stringValue"] === "string" && CONTENT_KEYS.test(k)) {
        const red = redact(val["stringValue"]);
        return {
          key: k,
          value: { stringValue: red === "<REDACTED>" ? red : `sha256:${sha256Hex(red)}` },
        };
      }
      return { key: k, value: walk(val, k) };
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
    return out;
  };
  return walk(body, null);
}

export interface AgentCollector {
  /** Base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  /** Spans received from agents and forwarded. */
  stats(): { requests: number; forwarded: number; failed: number };
  close(): Promise<void>;
}

export async function startAgentCollector(opts: {
  targets: OtlpTarget[];
  redact: (s: string) => string;
  includeContent: boolean;
  onError: (message: string) => void;
}): Promise<AgentCollector> {
  let requests = 0;
  let forwarded = 0;
  let failed = 0;
  const inflight = new Set<Promise<void>>();
  const forward = async (body: string): Promise<void> => {
    for (const t of opts.targets) {
      try {
        const res = await fetch(t.url, {
          method: "POST",
          headers: { ...t.headers, "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (res.ok) forwarded += 1;
        else {
          failed += 1;
          opts.onError(`agent spans: HTTP ${res.status} from ${new URL(t.url).pathname}`);
        }
        await res.arrayBuffer().catch(() => undefined);
      } catch (e) {
        failed += 1;
        opts.onError(`agent spans: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // Only traces are wanted; metrics and logs are off in the agent's environment anyway.
      if (req.method !== "POST" || !req.url?.startsWith("/v1/traces")) {
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      requests += 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":"not JSON"}');
        return;
      }
      const body = JSON.stringify(redactOtlpJson(parsed, opts.redact, opts.includeContent));
      const p = forward(body);
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Never the reason the process stays alive: a command that fails still exits.
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ requests, forwarded, failed }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
  };
}

/**
 * The agent's environment for nesting its spans under the run span: its driver's `spanEnv`
 * (Claude Code's session tracing: `CLAUDE_CODE_ENABLE_TELEMETRY` +
 * `CLAUDE_CODE_ENHANCED_TELEMETRY_BETA`) exporting OTLP/JSON to the collector, with the run span
 * as parent (`TRACEPARENT`). Metrics and logs off.
 */
export function agentTelemetryEnv(
  collectorUrl: string,
  experimentId: string,
  runId: string,
  includeContent: boolean,
  spanEnv: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {
    ...spanEnv,
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_METRICS_EXPORTER: "none",
    OTEL_LOGS_EXPORTER: "none",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    TRACEPARENT: traceparent(traceIdFor(experimentId), runSpanId(experimentId, runId)),
  };
  if (includeContent) {
    env.OTEL_LOG_USER_PROMPTS = "1";
    env.OTEL_LOG_TOOL_DETAILS = "1";
  }
  return env;
}
