/**
 * Sends planned spans over OTLP/HTTP (protobuf or JSON) with the official OpenTelemetry SDK and
 * exporters. Ids and times come from the plan: a preset id generator hands the SDK each span's
 * id, and every span starts and ends at its planned time.
 */
import type { IdGenerator, ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import type { OtlpTarget } from "./config.js";
import type { SpanPlan } from "./types.js";

/**
 * The OpenTelemetry SDK and exporters, loaded on first use: they take most of a second to load,
 * and every command that exports nothing (most of them) should not pay for it.
 */
async function sdk() {
  const [api, core, json, proto, resources, trace] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/exporter-trace-otlp-proto"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace"),
  ]);
  return { api, core, json, proto, resources, trace };
}

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

/** Turn plans into SDK spans (parents first), without sending them anywhere. */
export async function materialise(
  plans: SpanPlan[],
  resource: Record<string, string>,
  scope: { name: string; version: string },
): Promise<ReadableSpan[]> {
  const {
    api: { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace },
    resources: { resourceFromAttributes },
    trace: { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider },
  } = await sdk();
  const STATUS = {
    unset: SpanStatusCode.UNSET,
    ok: SpanStatusCode.OK,
    error: SpanStatusCode.ERROR,
  } as const;
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

export async function otlpExporter(
  target: OtlpTarget,
  timeoutMillis = 5_000,
): Promise<SpanExporter> {
  const { json, proto } = await sdk();
  const cfg = { url: target.url, headers: target.headers, timeoutMillis };
  return target.protocol === "http/json"
    ? new json.OTLPTraceExporter(cfg)
    : new proto.OTLPTraceExporter(cfg);
}

/** Send spans once; resolves with null on success, else the reason (never throws). */
export async function sendSpans(
  exporter: SpanExporter,
  spans: ReadableSpan[],
): Promise<string | null> {
  if (spans.length === 0) return null;
  const { ExportResultCode } = (await sdk()).core;
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
