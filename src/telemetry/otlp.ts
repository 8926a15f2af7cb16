/**
 * Sends planned spans over OTLP/HTTP (protobuf or JSON) with the official OpenTelemetry SDK and
 * exporters. Ids and times come from the plan: a preset id generator hands the SDK each span's
 * id, and every span starts and ends at its planned time.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type IdGenerator,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import type { OtlpTarget } from "./config.js";
import type { SpanPlan } from "./types.js";

/** Hands out the id the next span must have; the SDK asks for exactly one per span. */
class PresetIds implements IdGenerator {
  traceId = "";
  spanId = "";
  generateTraceId(): string {
    return this.traceId;
  }
  generateSpanId(): string {
    return this.spanId;
  }
}

const STATUS = {
  unset: SpanStatusCode.UNSET,
  ok: SpanStatusCode.OK,
  error: SpanStatusCode.ERROR,
} as const;

/** Turn plans into SDK spans (parents first), without sending them anywhere. */
export function materialise(
  plans: SpanPlan[],
  resource: Record<string, string>,
  scope: { name: string; version: string },
): ReadableSpan[] {
  const ids = new PresetIds();
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    idGenerator: ids,
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    // A tool output may be long; content policy already bounds it.
    spanLimits: { attributeCountLimit: 256, eventCountLimit: 4096 },
  });
  const tracer = provider.getTracer(scope.name, scope.version);
  for (const p of plans) {
    ids.traceId = p.traceId;
    ids.spanId = p.spanId;
    const parent =
      p.parentSpanId === null
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, {
            traceId: p.traceId,
            spanId: p.parentSpanId,
            traceFlags: TraceFlags.SAMPLED,
            isRemote: false,
          });
    const span = tracer.startSpan(
      p.name,
      {
        kind: p.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: new Date(p.start),
        attributes: p.attributes,
      },
      parent,
    );
    for (const e of p.events) span.addEvent(e.name, e.attributes, new Date(e.time));
    span.setStatus(
      p.status.message === undefined
        ? { code: STATUS[p.status.code] }
        : { code: STATUS[p.status.code], message: p.status.message },
    );
    span.end(new Date(p.end));
  }
  const spans = memory.getFinishedSpans();
  void provider.shutdown();
  return spans;
}

export function otlpExporter(target: OtlpTarget, timeoutMillis = 5_000): SpanExporter {
  const cfg = { url: target.url, headers: target.headers, timeoutMillis };
  return target.protocol === "http/json" ? new JsonExporter(cfg) : new ProtoExporter(cfg);
}

/** Send spans once; resolves with null on success, else the reason (never throws). */
export function sendSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<string | null> {
  if (spans.length === 0) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      exporter.export(spans, (result) => {
        resolve(
          result.code === ExportResultCode.SUCCESS
            ? null
            : (result.error?.message ?? "the OTLP endpoint did not accept the spans"),
        );
      });
    } catch (e) {
      resolve(e instanceof Error ? e.message : String(e));
    }
  });
}
