/**
 * A stored run as a span tree (docs/telemetry.md, "Span tree"). Pure: report, evidence, the
 * stdout line times and the validator outcomes in, spans out.
 *
 *   invoke_agent <agent>            the run (its span id is the one handed to the agent)
 *   ├─ turn <n>                     one per subject turn, timed from the stream
 *   │  └─ execute_tool <tool>       one per tool call, from its tool_use line to its tool_result line
 *   ├─ validate <script>            one per validator script
 *   └─ judge                        the LLM judge overlay, when it ran
 *
 * Rubric dimensions, pass/fail and the weighted score are `gen_ai.evaluation.result` events on
 * the run span; judge dimensions are the same events on the judge span.
 */
import type { Evidence, ToolCall } from "../core/evidence.js";
import type { RunReport } from "../core/report.js";
import { registeredAgents } from "../agents/registry.js";
import { contentAttributes, type ContentPolicy } from "./content.js";
import { runSpanId, spanIdFor, traceIdFor, experimentSpanId } from "./ids.js";
import { evaluationEvent, type Attributes, type SpanEventPlan, type SpanPlan } from "./types.js";

/** What the run span needs from one validator script's outcome (validation.json `scripts`). */
export interface ValidatorTiming {
  script: string;
  status: string;
  exit_code: number | null;
  duration_ms: number;
  passed: string[];
  failed: string[];
}

export interface RunTraceInput {
  report: RunReport;
  /** events.json (null when the run left none). */
  evidence: Evidence | null;
  /**
   * Arrival time (epoch ms) of each stdout.jsonl line, index = line number - 1 (stdout.times).
   * null for runs stored before line times were recorded: then turns and tool calls are events on
   * the run span, not timed spans.
   */
  lineTimes: number[] | null;
  /**
   * Stream lines of each tool call by its id: where the call was made and where its result came
   * back (1-based stdout.jsonl line numbers; see read-run.ts).
   */
  toolLines: Map<string, { use: number; result: number | null }>;
  validators: ValidatorTiming[];
  /** Whether the run was played by skillbench's scripted model. */
  scriptedModel: boolean;
}

function ms(iso: string): number {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
}

function clamp(t: number, lo: number, hi: number): number {
  return Math.min(Math.max(t, lo), hi);
}

function timeOfLine(times: number[] | null, line: number | null | undefined): number | null {
  if (times === null || line === null || line === undefined) return null;
  const t = times[line - 1];
  return typeof t === "number" && Number.isFinite(t) ? t : null;
}

/** The run span's own attributes: the GenAI agent attributes and skillbench's own. */
function runAttributes(input: RunTraceInput, policy: ContentPolicy): Attributes {
  const r = input.report;
  const s = r.events_summary;
  const a: Attributes = {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": r.agent.name,
    "skillbench.experiment_id": r.experiment_id,
    "skillbench.run_id": r.run_id,
    "skillbench.task": r.task,
    "skillbench.treatment": r.treatment,
    "skillbench.rep": r.rep,
    "skillbench.status": r.status,
    "skillbench.passed": r.passed,
    "skillbench.outcome": r.outcome,
    "skillbench.agent_outcome": r.agent_outcome,
    "skillbench.sample_quality": r.sample_quality.status,
    "skillbench.include_in_analysis": r.sample_quality.include_in_analysis,
    "skillbench.checks_passed": r.checks_passed.length,
    "skillbench.checks_failed": r.checks_failed.length,
    "skillbench.scripted_model": input.scriptedModel,
    "skillbench.timing_source": input.lineTimes ? "stream" : "none",
  };
  // The GenAI provider the agent's CLI speaks to: its driver's, found by the report's name.
  const provider = registeredAgents().find((d) => d.reportName === r.agent.name)?.telemetryProvider;
  if (provider) a["gen_ai.provider.name"] = provider;
  if (r.agent.version) a["gen_ai.agent.version"] = r.agent.version;
  const model = r.model ?? input.evidence?.agent.model ?? null;
  if (model) a["gen_ai.request.model"] = model;
  if (input.evidence?.agent.model) a["gen_ai.response.model"] = input.evidence.agent.model;
  const session = s?.session_ids[0] ?? input.evidence?.session_ids[0];
  if (session) a["gen_ai.conversation.id"] = session;
  if (s?.input_tokens !== null && s?.input_tokens !== undefined)
    a["gen_ai.usage.input_tokens"] = s.input_tokens;
  if (s?.output_tokens !== null && s?.output_tokens !== undefined)
    a["gen_ai.usage.output_tokens"] = s.output_tokens;
  if (s?.cache_read_input_tokens != null)
    a["gen_ai.usage.cache_read.input_tokens"] = s.cache_read_input_tokens;
  if (s?.cache_creation_input_tokens != null)
    a["gen_ai.usage.cache_creation.input_tokens"] = s.cache_creation_input_tokens;
  if (s?.total_cost_usd != null) a["skillbench.cost_usd"] = s.total_cost_usd;
  if (s?.num_turns != null) a["skillbench.num_turns"] = s.num_turns;
  if (s) a["skillbench.tool_calls"] = s.tool_calls;
  if (s) a["skillbench.skills_invoked"] = s.skills_invoked;
  if (r.rubric) {
    a["skillbench.profile"] = r.rubric.profile;
    a["skillbench.weighted_score"] = r.rubric.weighted_score;
  }
  if (r.sandbox) a["skillbench.sandbox"] = r.sandbox.kind;
  if (r.harness_error) a["skillbench.harness_error"] = policy.redact(r.harness_error);
  Object.assign(a, contentAttributes("gen_ai.output.text", s?.final_response ?? null, policy));
  return a;
}

/** pass/fail, the weighted score, the checks pass rate and each rubric dimension, as events. */
function runEvaluations(r: RunReport, at: number, policy: ContentPolicy): SpanEventPlan[] {
  const out: SpanEventPlan[] = [
    evaluationEvent(at, "passed", r.passed ? 1 : 0, r.passed ? "pass" : "fail", r.outcome_detail),
  ];
  const checks = r.checks_passed.length + r.checks_failed.length;
  if (checks > 0)
    out.push(
      evaluationEvent(
        at,
        "checks_pass_rate",
        r.checks_passed.length / checks,
        null,
        `${r.checks_passed.length}/${checks} checks passed`,
      ),
    );
  if (r.rubric) {
    out.push(
      evaluationEvent(at, "weighted_score", r.rubric.weighted_score, null, r.rubric.profile),
    );
    for (const d of r.rubric.dimensions)
      out.push(
        evaluationEvent(
          at,
          `rubric.${d.name}`,
          d.score ?? null,
          d.score === null ? "n/a" : null,
          policy.redact(d.reason),
        ),
      );
  }
  return out;
}

function toolSpan(
  call: ToolCall,
  index: number,
  parent: string,
  ids: { trace: string; exp: string; run: string },
  window: { start: number; end: number },
  times: number[],
  lines: { use: number; result: number | null },
  policy: ContentPolicy,
): SpanPlan {
  const start = clamp(timeOfLine(times, lines.use) ?? window.start, window.start, window.end);
  const end = clamp(timeOfLine(times, lines.result) ?? window.end, start, window.end);
  const attributes: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": call.name,
    "gen_ai.tool.type": "function",
    "skillbench.tool.success": call.is_error !== true,
    "skillbench.turn": call.turn,
  };
  if (call.id) attributes["gen_ai.tool.call.id"] = call.id;
  if (lines.result === null) attributes["skillbench.tool.result_seen"] = false;
  Object.assign(
    attributes,
    contentAttributes("gen_ai.tool.call.arguments", JSON.stringify(call.input), policy),
    contentAttributes("gen_ai.tool.call.result", call.output, policy),
  );
  return {
    traceId: ids.trace,
    spanId: spanIdFor(ids.exp, "tool", ids.run, String(index)),
    parentSpanId: parent,
    name: `execute_tool ${call.name}`,
    kind: "internal",
    start,
    end,
    attributes,
    events: [],
    status:
      call.is_error === true
        ? { code: "error", message: "tool reported an error" }
        : { code: "unset" },
  };
}

/** A tool call whose time is not known: `skillbench.tool_call`, stamped at its window's start. */
function untimedToolEvent(c: ToolCall, at: number): SpanEventPlan {
  return {
    name: "skillbench.tool_call",
    time: at,
    attributes: {
      "gen_ai.tool.name": c.name,
      "skillbench.turn": c.turn,
      "skillbench.tool.success": c.is_error !== true,
    },
  };
}

/** Turn windows from the stream: turn n ends at its result line, the next starts after it. */
function turnWindows(
  evidence: Evidence,
  times: number[],
  run: { start: number; end: number },
): Array<{ turn: number; start: number; end: number; resultLine: number | null }> {
  const out: Array<{ turn: number; start: number; end: number; resultLine: number | null }> = [];
  let start = clamp(times[0] ?? run.start, run.start, run.end);
  const results = evidence.results;
  const turns = Math.max(results.length, ...evidence.tool_calls.map((c) => c.turn), 0);
  for (let t = 1; t <= turns; t++) {
    const res = results[t - 1];
    const end = clamp(timeOfLine(times, res?.line) ?? run.end, start, run.end);
    out.push({ turn: t, start, end, resultLine: res?.line ?? null });
    const next = res ? timeOfLine(times, res.line + 1) : null;
    start = clamp(next ?? end, end, run.end);
  }
  return out;
}

function promptOfTurn(report: RunReport, turn: number): string | null {
  const t = report.interaction?.turns.find((x) => x["turn"] === turn);
  const p = t?.["prompt"];
  return typeof p === "string" ? p : null;
}

/** Every span of one stored run, parents before children. */
export function planRunSpans(input: RunTraceInput, policy: ContentPolicy): SpanPlan[] {
  const r = input.report;
  const exp = r.experiment_id;
  const trace = traceIdFor(exp);
  const runId = runSpanId(exp, r.run_id);
  const ids = { trace, exp, run: r.run_id };
  const window = { start: ms(r.timing.started_at), end: ms(r.timing.finished_at) };
  if (window.end < window.start) window.end = window.start;

  const runSpan: SpanPlan = {
    traceId: trace,
    spanId: runId,
    parentSpanId: experimentSpanId(exp),
    name: `invoke_agent ${r.agent.name}`,
    kind: "internal",
    start: window.start,
    end: window.end,
    attributes: runAttributes(input, policy),
    events: runEvaluations(r, window.end, policy),
    status:
      r.status === "errored"
        ? { code: "error", message: policy.redact(r.harness_error ?? r.outcome_detail) }
        : r.passed
          ? { code: "ok" }
          : { code: "unset" },
  };
  const spans: SpanPlan[] = [runSpan];

  const ev = input.evidence;
  const times = input.lineTimes;
  let agentEnd = window.start;
  if (ev && times && times.length > 0) {
    let toolIndex = 0;
    for (const w of turnWindows(ev, times, window)) {
      const turnId = spanIdFor(exp, "turn", r.run_id, String(w.turn));
      const res = ev.results[w.turn - 1];
      const attributes: Attributes = { "skillbench.turn": w.turn };
      if (res?.session_id) attributes["gen_ai.conversation.id"] = res.session_id;
      if (res?.num_turns != null) attributes["skillbench.num_turns"] = res.num_turns;
      if (res?.subtype) attributes["skillbench.result_subtype"] = res.subtype;
      Object.assign(
        attributes,
        contentAttributes("gen_ai.input.text", promptOfTurn(r, w.turn), policy),
      );
      Object.assign(
        attributes,
        contentAttributes("gen_ai.output.text", res?.result ?? null, policy),
      );
      spans.push({
        traceId: trace,
        spanId: turnId,
        parentSpanId: runId,
        name: `turn ${w.turn}`,
        kind: "internal",
        start: w.start,
        end: w.end,
        attributes,
        events: [],
        status: res?.is_error
          ? { code: "error", message: res.subtype ?? "error result" }
          : { code: "unset" },
      });
      const turnSpan = spans[spans.length - 1];
      for (const call of ev.tool_calls.filter((c) => c.turn === w.turn)) {
        const lines = call.id ? input.toolLines.get(call.id) : undefined;
        if (!lines) {
          // The stream does not say where this call sits (another agent's format): an event, not
          // a span with invented times.
          turnSpan?.events.push(untimedToolEvent(call, w.start));
          continue;
        }
        spans.push(toolSpan(call, toolIndex++, turnId, ids, w, times, lines, policy));
      }
      agentEnd = Math.max(agentEnd, w.end);
    }
  } else if (ev) {
    // No line times: the calls are known but not when they happened; say so rather than guess.
    runSpan.events.push(...ev.tool_calls.map((c) => untimedToolEvent(c, window.start)));
  }

  // Validators run one after another once the agent is done; validation.json keeps their
  // durations, not their start times, so they are laid end to end from the agent's end.
  let t = clamp(agentEnd, window.start, window.end);
  input.validators.forEach((v, i) => {
    const start = t;
    const end = clamp(start + v.duration_ms, start, window.end);
    t = end;
    spans.push({
      traceId: trace,
      spanId: spanIdFor(exp, "validator", r.run_id, String(i)),
      parentSpanId: runId,
      name: `validate ${v.script}`,
      kind: "internal",
      start,
      end,
      attributes: {
        "skillbench.validator.script": v.script,
        "skillbench.validator.status": v.status,
        ...(v.exit_code !== null ? { "skillbench.validator.exit_code": v.exit_code } : {}),
        "skillbench.validator.checks_passed": v.passed.length,
        "skillbench.validator.checks_failed": v.failed.length,
      },
      events: [],
      status: v.status === "ok" ? { code: "ok" } : { code: "error", message: v.status },
    });
  });

  const j = r.judge;
  if (j && j.status !== "skipped") {
    const start = t;
    spans.push({
      traceId: trace,
      spanId: spanIdFor(exp, "judge", r.run_id),
      parentSpanId: runId,
      name: "judge",
      kind: "client",
      start,
      end: window.end,
      attributes: {
        "gen_ai.operation.name": "chat",
        ...(j.model ? { "gen_ai.request.model": j.model } : {}),
        "skillbench.judge.status": j.status,
        "skillbench.judge.transport": j.transport ?? "none",
        "skillbench.judge.cached": j.cached,
        "skillbench.judge.calls": j.calls,
        ...(j.tokens
          ? {
              "gen_ai.usage.input_tokens": j.tokens.input,
              "gen_ai.usage.output_tokens": j.tokens.output,
            }
          : {}),
        ...(j.cost_usd !== null ? { "skillbench.cost_usd": j.cost_usd } : {}),
      },
      events: j.dimensions.map((d) =>
        evaluationEvent(window.end, `judge.${d.name}`, d.score, null, policy.redact(d.reason)),
      ),
      status:
        j.status === "failed"
          ? { code: "error", message: policy.redact(j.reason) }
          : { code: "ok" },
    });
  }
  return spans;
}
