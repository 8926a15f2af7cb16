/**
 * The data embedded in summary.html / comparison_report.html and served as `/api/summary`.
 * Kept small: one compact row per run; run pages are separate (embedded up to a budget, or
 * fetched lazily from the viewer). Pure.
 */
import { budgetSentences } from "../budget-md.js";
import { SCRIPTED_MODEL_LABEL } from "../endpoint.js";
import { reusedExperimentField } from "../reuse.js";
import { isScripted } from "../../plan/fingerprint.js";
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
import { RowsByKeys, sortRuns, taskOrder, treatmentOrder } from "../../plan/group.js";
import { analysisSet } from "../outcomes.js";
import { judgeNotes } from "../judge-notes.js";
import {
  HTML_DATA_SCHEMA,
  type HtmlComparison,
  type HtmlData,
  type HtmlMode,
  type HtmlView,
  type ReasonCount,
  type RunPageData,
  type RunRow,
} from "./wire.js";
import { skillUseLines, skillUseRows } from "../comparison/skill-use.js";
import { tokenKindLines, tokenKindRows } from "../token-kinds.js";

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

/** How each field of a run row is read from a digest (the streamed run table reads them one column at a time). */
export const RUN_FIELDS: { readonly [K in keyof RunRow]: (r: RunDigest) => RunRow[K] } = {
  id: (r) => r.run_id,
  task: (r) => r.task,
  treatment: (r) => r.treatment,
  rep: (r) => r.rep,
  status: (r) => r.status,
  outcome: (r) => r.outcome,
  checks_passed: (r) => r.checks_passed.length,
  checks_failed: (r) => r.checks_failed.length,
  first_failure: (r) => r.checks_failed[0] ?? null,
  weighted_score: (r) => r.rubric?.weighted_score ?? null,
  tokens: (r) => r.events_summary?.total_tokens ?? null,
  cost_usd: (r) => r.events_summary?.total_cost_usd ?? null,
  turns: (r) => r.events_summary?.num_turns ?? null,
  duration_s: (r) => r.events_summary?.duration_seconds ?? null,
  quality: (r) => r.sample_quality.status,
  reason_code: (r) => r.sample_quality.reason_code,
  skills: (r) => r.events_summary?.skills_invoked ?? [],
};

function runRow(r: RunDigest): RunRow {
  const f = RUN_FIELDS;
  return {
    id: f.id(r),
    task: f.task(r),
    treatment: f.treatment(r),
    rep: f.rep(r),
    status: f.status(r),
    outcome: f.outcome(r),
    checks_passed: f.checks_passed(r),
    checks_failed: f.checks_failed(r),
    first_failure: f.first_failure(r),
    weighted_score: f.weighted_score(r),
    tokens: f.tokens(r),
    cost_usd: f.cost_usd(r),
    turns: f.turns(r),
    duration_s: f.duration_s(r),
    quality: f.quality(r),
    reason_code: f.reason_code(r),
    skills: f.skills(r),
  };
}

/** Runs per treatment, sample status and reason code, in first-seen order. */
function reasonCounts(reports: RunDigest[]): ReasonCount[] {
  // Found by treatment, status and reason code (RowsByKeys: no key text built per run).
  const counts = new RowsByKeys<ReasonCount>();
  for (const r of reports) {
    const treatment = r.treatment;
    const { status, reason_code } = r.sample_quality;
    counts.get(treatment, status, reason_code, () => ({ treatment, status, reason_code, count: 0 }))
      .count++;
  }
  return counts.rows;
}

/** The overview data with its run table still as digests (sorted as the table lists them). */
export type HtmlOverview = Omit<HtmlData, "runs"> & { runs: readonly RunDigest[] };

/** The overview data of a results folder. */
export function buildHtmlData(input: HtmlDataInput): HtmlData {
  const overview = buildHtmlOverview(input);
  return { ...overview, runs: overview.runs.map(runRow) };
}

/**
 * The overview data with the run table left as digests, for the static pages that write the
 * table a chunk of runs at a time (page.ts). Same fields, in the same order, as buildHtmlData.
 */
export function buildHtmlOverview(input: HtmlDataInput): HtmlOverview {
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
      ...reusedExperimentField(reports),
      ...(input.metadata?.budget
        ? { budget_note: budgetSentences(input.metadata.budget, "<results folder>").join(" ") }
        : {}),
      ...judgeNotesField(reports),
      ...skillUseField(reports),
      ...tokenKindsField(reports, treatments),
    },
    treatments,
    tasks,
    dimensions: orderDimensions(dimensionNames),
    runs: reports,
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
    comparison: input.comparison ? htmlComparison(input.comparison) : null,
    run_pages: pages,
    run_pages_omitted: countWhere(reports, (r) => !(r.run_id in pages)),
    problems: input.problems ?? [],
    pending: input.pending === true && input.comparison === null,
  };
}

/** The comparison without its per-run rows (HtmlComparison); its other fields are not copied. */
function htmlComparison(c: Comparison): HtmlComparison {
  const { source_evidence: _rows, ...rest } = c;
  return rest;
}

function countWhere<T>(xs: readonly T[], keep: (x: T) => boolean): number {
  let n = 0;
  for (const x of xs) if (keep(x)) n += 1;
  return n;
}

/** The runs in the order their pages are embedded until the budget is spent: failed and errored runs first, then the rest. */
export function* failedFirst<T extends { status: string }>(rows: readonly T[]): Generator<T> {
  for (const r of rows) if (r.status !== "passed") yield r;
  for (const r of rows) if (r.status === "passed") yield r;
}

/** The run ids in embedding order (failedFirst). */
export function embedOrder(rows: ReadonlyArray<Pick<RunRow, "id" | "status">>): string[] {
  return Array.from(failedFirst(rows), (r) => r.id);
}

/** `{token_kinds}`: the per-treatment lines when some run reported tokens by kind, else nothing. */
function tokenKindsField(reports: RunDigest[], treatments: string[]): { token_kinds?: string[] } {
  const lines = tokenKindLines(tokenKindRows(reports, treatments).filter((r) => r.task === null));
  return lines.length > 0 ? { token_kinds: lines } : {};
}

/** `{skill_use}` when some run recorded a Skill usage, else nothing (the page stays as it was). */
function skillUseField(reports: RunDigest[]): { skill_use?: string[] } {
  const lines = skillUseLines(skillUseRows(reports));
  return lines.length > 0 ? { skill_use: lines } : {};
}

/** `{judge_notes}` when the judge has something to say, else nothing (the page stays as it was). */
function judgeNotesField(reports: RunDigest[]): { judge_notes?: string[] } {
  const notes = judgeNotes(reports);
  return notes.length > 0 ? { judge_notes: notes } : {};
}
