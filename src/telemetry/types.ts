/** The span tree skillbench exports, as plain data (docs/telemetry.md, "Span tree"). */

export type AttrValue = string | number | boolean | string[];
export type Attributes = Record<string, AttrValue>;

export interface SpanEventPlan {
  name: string;
  /** Epoch milliseconds. */
  time: number;
  attributes: Attributes;
}

/** One span to export: ids, times and attributes fixed before any exporter sees it. */
export interface SpanPlan {
  traceId: string;
  spanId: string;
  /** null: the experiment's root span. */
  parentSpanId: string | null;
  name: string;
  kind: "internal" | "client";
  /** Epoch milliseconds. */
  start: number;
  end: number;
  attributes: Attributes;
  events: SpanEventPlan[];
  status: { code: "unset" | "ok" | "error"; message?: string };
}

/** The `gen_ai.evaluation.result` event of the OpenTelemetry GenAI conventions. */
export const EVALUATION_EVENT = "gen_ai.evaluation.result";

export function evaluationEvent(
  time: number,
  name: string,
  score: number | null,
  label: string | null,
  explanation: string | null,
): SpanEventPlan {
  const attributes: Attributes = { "gen_ai.evaluation.name": name };
  if (score !== null) attributes["gen_ai.evaluation.score.value"] = score;
  if (label !== null) attributes["gen_ai.evaluation.score.label"] = label;
  if (explanation !== null) attributes["gen_ai.evaluation.explanation"] = explanation;
  return { name: EVALUATION_EVENT, time, attributes };
}
