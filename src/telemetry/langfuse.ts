/**
 * Langfuse: the same span tree through Langfuse's OTLP endpoint, plus scores through its public
 * scores API, under the original harness's score names (docs/telemetry.md, "Langfuse").
 */
import type { RunReport } from "../core/report.js";
import type { LangfuseTarget, OtlpTarget } from "./config.js";
import { postJson, stableUuid, type HttpResult } from "./http.js";
import { experimentSpanId, runSpanId, traceIdFor } from "./ids.js";
import type { SpanPlan } from "./types.js";

function basicAuth(t: LangfuseTarget): string {
  return `Basic ${Buffer.from(`${t.publicKey}:${t.secretKey}`).toString("base64")}`;
}

/** Langfuse's OTLP/HTTP endpoint for this project. */
export function langfuseOtlpTarget(t: LangfuseTarget): OtlpTarget {
  return {
    url: `${t.baseUrl}/api/public/otel/v1/traces`,
    headers: { Authorization: basicAuth(t), "x-langfuse-ingestion-version": "4" },
    protocol: "http/protobuf",
  };
}

/**
 * Langfuse reads an observation's input and output from `langfuse.observation.input/output`
 * (JSON text) and the trace's name from `langfuse.trace.name`: add them to the run and
 * experiment spans, from attributes the plan already carries (so content policy holds).
 */
export function decorateForLangfuse(plans: SpanPlan[]): SpanPlan[] {
  return plans.map((p) => {
    const a = p.attributes;
    if (a["gen_ai.operation.name"] === "invoke_agent" && a["skillbench.run_id"] !== undefined) {
      const input = {
        task: a["skillbench.task"],
        treatment: a["skillbench.treatment"],
        experiment_id: a["skillbench.experiment_id"],
        profile: a["skillbench.profile"] ?? null,
        agent: a["gen_ai.agent.name"],
        sample: a["skillbench.rep"],
      };
      const output = {
        run_id: a["skillbench.run_id"],
        passed: a["skillbench.passed"],
        checks_passed: a["skillbench.checks_passed"],
        checks_failed: a["skillbench.checks_failed"],
        num_turns: a["skillbench.num_turns"] ?? null,
        tool_calls: a["skillbench.tool_calls"] ?? null,
        cost: a["skillbench.cost_usd"] ?? null,
        weighted_score: a["skillbench.weighted_score"] ?? null,
        final_response: a["gen_ai.output.text"] ?? null,
      };
      return {
        ...p,
        attributes: {
          ...a,
          "langfuse.observation.input": JSON.stringify(input),
          "langfuse.observation.output": JSON.stringify(output),
        },
      };
    }
    if (p.parentSpanId === null)
      return {
        ...p,
        attributes: { ...a, "langfuse.trace.name": "comet.eval.experiment" },
      };
    return p;
  });
}

export interface LangfuseScore {
  id: string;
  traceId: string;
  observationId: string;
  name: string;
  value: number;
  dataType: "NUMERIC" | "BOOLEAN";
  comment?: string;
}

/** `comet.passed`, `comet.checks_pass_rate` and `comet.rubric.<dim>` of one run. */
export function runScores(r: RunReport): LangfuseScore[] {
  const traceId = traceIdFor(r.experiment_id);
  const observationId = runSpanId(r.experiment_id, r.run_id);
  const score = (
    name: string,
    value: number,
    dataType: LangfuseScore["dataType"],
  ): LangfuseScore => ({
    id: stableUuid("langfuse.score", r.experiment_id, r.run_id, name),
    traceId,
    observationId,
    name,
    value,
    dataType,
  });
  const out = [score("comet.passed", r.passed ? 1 : 0, "BOOLEAN")];
  const checks = r.checks_passed.length + r.checks_failed.length;
  if (checks > 0)
    out.push(score("comet.checks_pass_rate", r.checks_passed.length / checks, "NUMERIC"));
  for (const d of r.rubric?.dimensions ?? [])
    if (d.score !== null && d.score !== undefined)
      out.push(score(`comet.rubric.${d.name}`, d.score, "NUMERIC"));
  return out;
}

/** `comet.pass_at_k` and `comet.pass_power_k` per treatment and k, `comet.quality_gate`. */
export function experimentScores(plan: SpanPlan, experimentId: string): LangfuseScore[] {
  const traceId = traceIdFor(experimentId);
  const observationId = experimentSpanId(experimentId);
  const out: LangfuseScore[] = [];
  for (const ev of plan.events) {
    const name = ev.attributes["gen_ai.evaluation.name"];
    const value = ev.attributes["gen_ai.evaluation.score.value"];
    if (typeof value !== "number") continue;
    const treatment = String(ev.attributes["skillbench.treatment"] ?? "");
    const k = ev.attributes["skillbench.k"];
    if (name === "pass_at_k" || name === "pass_power_k") {
      out.push({
        id: stableUuid("langfuse.score", experimentId, String(name), treatment, String(k)),
        traceId,
        observationId,
        name: `comet.${name}`,
        value,
        dataType: "NUMERIC",
        comment: `treatment=${treatment} k=${String(k)}`,
      });
    } else if (name === "quality_gate") {
      const gate = String(ev.attributes["skillbench.gate"] ?? "");
      out.push({
        id: stableUuid("langfuse.score", experimentId, "quality_gate", gate),
        traceId,
        observationId,
        name: "comet.quality_gate",
        value,
        dataType: "BOOLEAN",
        comment: gate,
      });
    }
  }
  return out;
}

/** POST each score; returns the first failure (null when all were accepted). */
export async function sendScores(
  t: LangfuseTarget,
  scores: LangfuseScore[],
): Promise<string | null> {
  let first: HttpResult | null = null;
  for (const s of scores) {
    const res = await postJson(`${t.baseUrl}/api/public/scores`, s, {
      Authorization: basicAuth(t),
    });
    if (!res.ok && first === null) first = res;
  }
  return first ? `Langfuse scores: ${first.error ?? "rejected"}` : null;
}
