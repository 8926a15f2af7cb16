/**
 * Trace and span ids derived from the experiment and run ids (docs/telemetry.md, "Ids"). Pure.
 *
 * Deterministic ids let a run's span id be handed to the agent before the span exists (so the
 * agent's own spans nest under it), and make `skillbench export` of a stored results folder
 * produce the same trace as the live export did.
 */
import { createHash } from "node:crypto";

function hexOf(parts: readonly string[], chars: number): string {
  const h = createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, chars);
  // An all-zero id is invalid in W3C trace context; a sha256 prefix of zeros is not a real risk,
  // but keep the ids valid whatever the input.
  return /^0+$/.test(h) ? `${"0".repeat(chars - 1)}1` : h;
}

/** 32 hex characters: one trace per experiment. */
export function traceIdFor(experimentId: string): string {
  return hexOf(["skillbench.trace", experimentId], 32);
}

/** 16 hex characters, from the parts that name the span (experiment id first). */
export function spanIdFor(...parts: string[]): string {
  return hexOf(["skillbench.span", ...parts], 16);
}

/** The experiment's root span. */
export function experimentSpanId(experimentId: string): string {
  return spanIdFor(experimentId);
}

/** A run's span: the parent of everything the run did, the agent's own spans included. */
export function runSpanId(experimentId: string, runId: string): string {
  return spanIdFor(experimentId, "run", runId);
}

/** W3C `traceparent` header value for a sampled span. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
