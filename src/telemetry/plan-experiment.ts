/**
 * The experiment's root span (`invoke_workflow skillbench`), with pass rate, pass@k and pass^k per
 * treatment as `gen_ai.evaluation.result` events (docs/telemetry.md, "Span tree"). Pure.
 */
import type { RunDigest } from "../core/digest.js";
import { computePassK } from "../report/passk.js";
import { experimentSpanId, traceIdFor } from "./ids.js";
import { evaluationEvent, type Attributes, type SpanEventPlan, type SpanPlan } from "./types.js";

export interface ExperimentTraceInput {
  experimentId: string;
  startedAt: string | null;
  completedAt: string | null;
  suitePath: string;
  suiteHash: string;
  treatments: string[];
  model: string | null;
  skillbenchVersion: string;
  agentVersion: string | null;
  scriptedModel: boolean;
  reports: RunDigest[];
  /** Quality gates, when the experiment had any (`eval`): name, passed, and the reason. */
  qualityGates: Array<{ name: string; passed: boolean; detail: string }>;
}

function ms(iso: string | null, fallback: number): number {
  const t = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(t) ? t : fallback;
}

/** Pass rate, pass@k and pass^k (strict) per treatment, over the analysis set. */
function passKEvents(input: ExperimentTraceInput, at: number): SpanEventPlan[] {
  const table = computePassK(input.reports, input.treatments);
  const out: SpanEventPlan[] = [];
  for (const row of table.rows.filter((r) => r.metric === table.rows[0]?.metric)) {
    const tag = { "skillbench.treatment": row.treatment, "skillbench.metric": row.metric };
    const add = (name: string, value: number | null, k?: number): void => {
      if (value === null) return;
      const ev = evaluationEvent(at, name, value, null, null);
      Object.assign(ev.attributes, tag, k === undefined ? {} : { "skillbench.k": k });
      out.push(ev);
    };
    add("pass_rate", row.pass_rate);
    for (const k of table.ks) {
      add("pass_at_k", row.pass_at_k[k] ?? null, k);
      add("pass_power_k", row.pass_hat_k_strict[k] ?? null, k);
    }
  }
  return out;
}

export function planExperimentSpan(input: ExperimentTraceInput): SpanPlan {
  // Earliest run start and latest run end in one pass: spreading one argument per run into
  // Math.min/Math.max overflows the call stack at ~120,000 runs.
  let firstStart = Date.now();
  let lastEnd = -Infinity;
  for (const r of input.reports) {
    const s = Date.parse(r.timing.started_at);
    const e = Date.parse(r.timing.finished_at);
    if (Number.isFinite(s) && s < firstStart) firstStart = s;
    if (Number.isFinite(e) && e > lastEnd) lastEnd = e;
  }
  const start = ms(input.startedAt, firstStart);
  const end = Math.max(ms(input.completedAt, Math.max(lastEnd, start)), start);
  const passed = input.reports.filter((r) => r.passed).length;
  const attributes: Attributes = {
    "gen_ai.operation.name": "invoke_workflow",
    "skillbench.experiment_id": input.experimentId,
    "skillbench.suite.path": input.suitePath,
    "skillbench.suite.hash": input.suiteHash,
    "skillbench.treatments": input.treatments,
    "skillbench.runs": input.reports.length,
    "skillbench.runs_passed": passed,
    "skillbench.version": input.skillbenchVersion,
    "skillbench.scripted_model": input.scriptedModel,
  };
  if (input.model) attributes["gen_ai.request.model"] = input.model;
  if (input.agentVersion) attributes["gen_ai.agent.version"] = input.agentVersion;
  const events = passKEvents(input, end);
  for (const g of input.qualityGates) {
    const ev = evaluationEvent(
      end,
      "quality_gate",
      g.passed ? 1 : 0,
      g.passed ? "pass" : "fail",
      g.detail,
    );
    ev.attributes["skillbench.gate"] = g.name;
    events.push(ev);
  }
  const gatesFailed = input.qualityGates.some((g) => !g.passed);
  return {
    traceId: traceIdFor(input.experimentId),
    spanId: experimentSpanId(input.experimentId),
    parentSpanId: null,
    name: "invoke_workflow skillbench",
    kind: "internal",
    start,
    end,
    attributes,
    events,
    status: gatesFailed ? { code: "error", message: "a quality gate failed" } : { code: "unset" },
  };
}
