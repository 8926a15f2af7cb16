/**
 * The data embedded in summary.html / comparison_report.html and served as `/api/summary`.
 * Kept small: one compact row per run; run pages are separate (embedded up to a budget, or
 * fetched lazily from the viewer). Pure.
 */
import { isScripted, SCRIPTED_MODEL_LABEL } from "../endpoint.js";
import type { RunDigest } from "../../core/digest.js";
import { LOCAL_WARNING } from "../../core/sandbox.js";
import type { ReadProblem } from "../../store/read.js";
import type { Metadata } from "../../store/metadata.js";
import { passKSection } from "../comparison/passk-bootstrap.js";
import { dataQualityRow } from "../comparison/quality.js";
import { taskOutcomeRows } from "../comparison/task-outcomes.js";
import type { Comparison } from "../comparison/types.js";
import { orderDimensions } from "../format.js";
import { computePassK } from "../passk.js";
import { sortRuns, taskOrder, treatmentOrder } from "../group.js";
import { analysisSet } from "../outcomes.js";
import {
  HTML_DATA_SCHEMA,
  type HtmlData,
  type HtmlMode,
  type HtmlView,
  type ReasonCount,
  type RunPageData,
  type RunRow,
} from "./wire.js";

export interface HtmlDataInput {
  view: HtmlView;
  mode: HtmlMode;
  reports: RunDigest[];
  metadata: Metadata | null;
  comparison: Comparison | null;
  problems?: ReadProblem[];
  runPages?: Record<string, RunPageData>;
  ks?: number[];
  seed?: number;
  /** leave out the bootstrap intervals (the quick first view while the comparison is computed) */
  pending?: boolean;
  /** treatment order when there is no comparison (default: metadata.treatments, then any others seen) */
  treatments?: string[];
}

export function runRow(r: RunDigest): RunRow {
  const es = r.events_summary;
  return {
    id: r.run_id,
    task: r.task,
    treatment: r.treatment,
    rep: r.rep,
    status: r.status,
    outcome: r.outcome,
    checks_passed: r.checks_passed.length,
    checks_failed: r.checks_failed.length,
    first_failure: r.checks_failed[0] ?? null,
    weighted_score: r.rubric?.weighted_score ?? null,
    tokens: es?.total_tokens ?? null,
    cost_usd: es?.total_cost_usd ?? null,
    turns: es?.num_turns ?? null,
    duration_s: es?.duration_seconds ?? null,
    quality: r.sample_quality.status,
    reason_code: r.sample_quality.reason_code,
    skills: es?.skills_invoked ?? [],
  };
}

function reasonCounts(reports: RunDigest[]): ReasonCount[] {
  const m = new Map<string, ReasonCount>();
  for (const r of reports) {
    const key = `${r.treatment}\u0000${r.sample_quality.status}\u0000${r.sample_quality.reason_code}`;
    const cur = m.get(key);
    if (cur) cur.count += 1;
    else
      m.set(key, {
        treatment: r.treatment,
        status: r.sample_quality.status,
        reason_code: r.sample_quality.reason_code,
        count: 1,
      });
  }
  return [...m.values()];
}

/** The overview data of a results folder. */
export function buildHtmlData(input: HtmlDataInput): HtmlData {
  const treatments =
    input.comparison?.treatments ??
    input.treatments ??
    treatmentOrder(input.reports, input.metadata?.treatments ?? []);
  const tasks = taskOrder(input.reports);
  const reports = sortRuns(input.reports, tasks, treatments);
  const pages = input.runPages ?? {};
  // One pass for the run counts and names the overview needs.
  let localRuns = 0;
  const agents = new Set<string>();
  const dimensionNames = new Set<string>();
  for (const r of reports) {
    if (r.sandbox?.kind === "local") localRuns++;
    agents.add(r.agent.name);
    for (const d of r.rubric?.dimensions ?? []) dimensionNames.add(d.name);
  }
  return {
    schema: HTML_DATA_SCHEMA,
    view: input.view,
    mode: input.mode,
    experiment: {
      id: input.metadata?.experiment_id ?? reports[0]?.experiment_id ?? null,
      started_at: input.metadata?.started_at ?? null,
      completed_at: input.metadata?.completed_at ?? null,
      suite: input.metadata?.suite.path ?? null,
      agent_version: input.metadata?.versions.claude ?? reports[0]?.agent.version ?? null,
      model: input.metadata?.model ?? null,
      scripted_label: isScripted(input.reports, input.metadata) ? SCRIPTED_MODEL_LABEL : null,
      agents: [...agents],
      local_runs: localRuns,
      local_warning: localRuns > 0 ? LOCAL_WARNING : null,
    },
    treatments,
    tasks,
    dimensions: orderDimensions(dimensionNames),
    runs: reports.map(runRow),
    pass_k:
      input.comparison?.pass_k ??
      (input.pending
        ? { ...computePassK(reports, treatments, input.ks), bootstrap: [] }
        : passKSection(reports, treatments, input.ks, input.seed ?? 1)),
    task_outcomes:
      input.comparison?.task_outcomes ?? taskOutcomeRows(analysisSet(reports), tasks, treatments),
    data_quality:
      input.comparison?.data_quality ?? treatments.map((t) => dataQualityRow(reports, t)),
    reason_counts: reasonCounts(reports),
    comparison: input.comparison,
    run_pages: pages,
    run_pages_omitted: reports.filter((r) => !(r.run_id in pages)).length,
    problems: input.problems ?? [],
    pending: input.pending === true && input.comparison === null,
  };
}

/** The order in which run pages are embedded until the budget is spent: failed and errored runs first, then the rest. */
export function embedOrder(rows: ReadonlyArray<Pick<RunRow, "id" | "status">>): string[] {
  return [
    ...rows.filter((r) => r.status !== "passed"),
    ...rows.filter((r) => r.status === "passed"),
  ].map((r) => r.id);
}
