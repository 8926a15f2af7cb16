/**
 * LangSmith: each run logged as a run of the project, against a dataset example per task and
 * treatment, with feedback per score, in the shapes the original harness logs
 * (docs/telemetry.md, "LangSmith").
 */
import type { RunReport } from "../core/report.js";
import { contentAttributes, type ContentPolicy } from "./content.js";
import type { LangsmithTarget } from "./config.js";
import { postJson, stableUuid } from "./http.js";

/** What the reference outputs need from the task (suite.json). */
export interface TaskReference {
  difficulty: string | null;
  expected_artifacts: unknown[];
  required_skills: string[];
  rubric_criteria: unknown[];
}

export interface LangsmithRunPayload {
  dataset: { name: string; description: string };
  example: { id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> };
  run: Record<string, unknown>;
  feedback: Array<{ id: string; run_id: string; key: string; score: number }>;
}

/** `20230914T223155647Z<uuid>`: LangSmith's ordering key of a root run. */
function dottedOrder(startMs: number, id: string): string {
  const iso = new Date(startMs).toISOString(); // 2023-09-14T22:31:55.647Z
  const compact = iso.replace(/[-:]/g, "").replace(".", "").replace("Z", "");
  // YYYYMMDDTHHMMSSmmm → LangSmith wants microseconds: pad with 000.
  return `${compact}000Z${id}`;
}

export function langsmithPayload(
  t: LangsmithTarget,
  r: RunReport,
  task: TaskReference | null,
  meta: { suite: string; model: string | null; agentVersion: string | null },
  policy: ContentPolicy,
): LangsmithRunPayload {
  const runId = stableUuid("langsmith.run", r.experiment_id, r.run_id);
  const exampleId = stableUuid("langsmith.example", t.project, r.task, r.treatment);
  const inputs = { task: r.task, treatment: r.treatment, difficulty: task?.difficulty ?? null };
  const s = r.events_summary;
  const checks = r.checks_passed.length + r.checks_failed.length;
  const final = contentAttributes("final_response", s?.final_response ?? null, policy);
  const start = Date.parse(r.timing.started_at);
  const outputs = {
    run_id: r.run_id,
    passed: r.passed,
    checks_passed: r.checks_passed.length,
    checks_failed: r.checks_failed.length,
    num_turns: s?.num_turns ?? null,
    tool_calls: s?.tool_calls ?? null,
    duration_seconds: s?.duration_seconds ?? null,
    total_tokens: s?.total_tokens ?? null,
    total_cost_usd: s?.total_cost_usd ?? null,
    skills_invoked: s?.skills_invoked ?? [],
    ...final,
  };
  const feedback: LangsmithRunPayload["feedback"] = [];
  const add = (key: string, score: number): void => {
    feedback.push({ id: stableUuid("langsmith.feedback", runId, key), run_id: runId, key, score });
  };
  add("passed", r.passed ? 1 : 0);
  if (checks > 0) add("checks_pass_rate", r.checks_passed.length / checks);
  for (const d of r.rubric?.dimensions ?? [])
    if (d.score !== null && d.score !== undefined) add(`rubric.${d.name}`, d.score);
  return {
    dataset: { name: t.project, description: `skillbench suite ${meta.suite}` },
    example: {
      id: exampleId,
      inputs,
      outputs: {
        expected_artifacts: task?.expected_artifacts ?? [],
        required_skills: task?.required_skills ?? [],
        rubric_criteria: task?.rubric_criteria ?? [],
      },
    },
    run: {
      id: runId,
      trace_id: runId,
      dotted_order: dottedOrder(start, runId),
      name: `skillbench ${r.run_id}`,
      run_type: "chain",
      inputs,
      outputs,
      start_time: r.timing.started_at,
      end_time: r.timing.finished_at,
      session_name: t.project,
      reference_example_id: exampleId,
      error: r.status === "errored" ? policy.redact(r.harness_error ?? r.outcome_detail) : null,
      extra: {
        metadata: {
          suite: meta.suite,
          cc_model: meta.model,
          cc_version: meta.agentVersion,
          experiment_id: r.experiment_id,
        },
      },
      tags: ["skillbench", r.treatment],
    },
    feedback,
  };
}

/** Dataset ids already found, by name (one look-up per command). */
const datasetIds = new Map<string, string>();

async function datasetId(
  t: LangsmithTarget,
  ds: LangsmithRunPayload["dataset"],
): Promise<string | null> {
  const key = `${t.endpoint} ${ds.name}`;
  const known = datasetIds.get(key);
  if (known) return known;
  const headers = { "x-api-key": t.apiKey };
  const created = await postJson(`${t.endpoint}/datasets`, ds, headers);
  let id: unknown =
    created.ok && typeof created.body === "object" && created.body !== null
      ? (created.body as Record<string, unknown>)["id"]
      : undefined;
  if (typeof id !== "string" && created.status === 409) {
    const found = await postJson(
      `${t.endpoint}/datasets?name=${encodeURIComponent(ds.name)}`,
      null,
      headers,
      { method: "GET" },
    );
    const first = Array.isArray(found.body) ? (found.body[0] as unknown) : undefined;
    id =
      typeof first === "object" && first !== null
        ? (first as Record<string, unknown>)["id"]
        : undefined;
  }
  if (typeof id !== "string") return null;
  datasetIds.set(key, id);
  return id;
}

/** Log one run: dataset (once), example (409 = already there), run, feedback. */
export async function sendLangsmithRun(
  t: LangsmithTarget,
  p: LangsmithRunPayload,
): Promise<string | null> {
  const headers = { "x-api-key": t.apiKey };
  const ds = await datasetId(t, p.dataset);
  if (ds === null) return "LangSmith: the dataset could not be created or found";
  const ex = await postJson(`${t.endpoint}/examples`, { ...p.example, dataset_id: ds }, headers);
  if (!ex.ok && ex.status !== 409) return `LangSmith examples: ${ex.error ?? "rejected"}`;
  const run = await postJson(`${t.endpoint}/runs`, p.run, headers);
  if (!run.ok && run.status !== 409) return `LangSmith runs: ${run.error ?? "rejected"}`;
  for (const f of p.feedback) {
    const res = await postJson(`${t.endpoint}/feedback`, f, headers);
    if (!res.ok && res.status !== 409) return `LangSmith feedback: ${res.error ?? "rejected"}`;
  }
  return null;
}
