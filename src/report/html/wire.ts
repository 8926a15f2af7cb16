/**
 * The data the HTML pages carry and the viewer serves, as the browser client receives it.
 * Types only, with no imports beyond other pure types, so that the client (client/*.ts,
 * compiled with the DOM library and without Node's) can check its reads against them.
 */
import type { Evidence } from "../../core/evidence.js";
import type { RunReport } from "../../core/report.js";
import type {
  Comparison,
  DataQualityRow,
  PassKSection,
  TaskOutcomeRow,
} from "../comparison/types.js";

// ---- overview (summary.html, comparison_report.html, /api/summary) ----

export const HTML_DATA_SCHEMA = "skillbench.html.v1";

export type HtmlView = "summary" | "comparison";

/** The comparison as the pages carry it: comparison.json without `source_evidence`. */
export type HtmlComparison = Omit<Comparison, "source_evidence">;
export type HtmlMode = "static" | "served";

/** One run, as the overview lists it. */
export interface RunRow {
  id: string;
  task: string;
  treatment: string;
  rep: number;
  status: RunReport["status"];
  outcome: RunReport["outcome"];
  checks_passed: number;
  checks_failed: number;
  /** the first failed check (for the list) */
  first_failure: string | null;
  weighted_score: number | null;
  tokens: number | null;
  cost_usd: number | null;
  turns: number | null;
  duration_s: number | null;
  quality: RunReport["sample_quality"]["status"];
  reason_code: string;
  skills: string[];
}

export interface ReasonCount {
  treatment: string;
  status: RunReport["sample_quality"]["status"];
  reason_code: string;
  count: number;
}

export interface HtmlData {
  schema: typeof HTML_DATA_SCHEMA;
  view: HtmlView;
  mode: HtmlMode;
  experiment: {
    id: string | null;
    started_at: string | null;
    completed_at: string | null;
    suite: string | null;
    agent_version: string | null;
    model: string | null;
    /** set when the runs were played by the scripted model server */
    scripted_label: string | null;
    /** the agents that ran (report.agent.name), in order of first appearance */
    agents: string[];
    /** runs without a sandbox (report.sandbox.kind "local") */
    local_runs: number;
    /** the no-sandbox warning when any run was local, else null */
    local_warning: string | null;
    /** `--reuse`: "N runs reused from DIR" per folder (absent when no run was reused) */
    reused?: string[];
    /** what a budget spent and left unrun (docs/budgets.md); absent without a budget */
    budget_note?: string;
    /** the LLM judge's warnings (report/judge-notes.ts); absent when there are none */
    judge_notes?: string[];
    /** depth of Skill use per task and treatment (report/comparison/skill-use.ts); absent without a usage */
    skill_use?: string[];
    /** tokens by kind per treatment (report/token-kinds.ts); absent when no run reported a kind */
    token_kinds?: string[];
    /** the Skill's history page beside the results (report/html/history-link.ts); absent without one */
    history_page?: { skill: string; href: string };
  };
  treatments: string[];
  tasks: string[];
  dimensions: string[];
  runs: RunRow[];
  pass_k: PassKSection;
  task_outcomes: TaskOutcomeRow[];
  data_quality: DataQualityRow[];
  reason_counts: ReasonCount[];
  /**
   * the candidate vs baseline comparison (comparison.json, or built when there are 2+
   * treatments), else null; without its per-run `source_evidence` rows, which the page does not
   * show (the run table has those runs) and which would be most of a large page's bytes
   */
  comparison: HtmlComparison | null;
  /** run id -> page, for the runs embedded in a static file */
  run_pages: Record<string, RunPageData>;
  /** runs whose page is not embedded (served mode: all of them; they are fetched on demand) */
  run_pages_omitted: number;
  /** reports that could not be read */
  problems: Array<{ file: string; message: string }>;
  /**
   * Served mode only: this is the first, quick view. The comparison and the bootstrap
   * intervals are still being computed (pass_k has point estimates and no intervals,
   * comparison is null); the page fetches /api/summary for the complete data.
   */
  pending: boolean;
}

// ---- the run table in columns (columns.ts encodes and decodes it) ----

/** A column of repeated strings: each run's value is `values[codes[i]]` (-1: null). */
export interface Coded<T extends string> {
  values: T[];
  codes: number[];
}

export interface RunColumns {
  count: number;
  id: string[];
  task: Coded<string>;
  treatment: Coded<string>;
  rep: number[];
  status: Coded<RunRow["status"]>;
  outcome: Coded<RunRow["outcome"]>;
  checks_passed: number[];
  checks_failed: number[];
  first_failure: Coded<string>;
  weighted_score: Array<number | null>;
  tokens: Array<number | null>;
  cost_usd: Array<number | null>;
  turns: Array<number | null>;
  duration_s: Array<number | null>;
  quality: Coded<RunRow["quality"]>;
  reason_code: Coded<string>;
  /** per run, indices into `skill_names` */
  skills: number[][];
  skill_names: string[];
}

/** HtmlData as the page embeds it and /api/summary sends it: the run table in columns (columns.ts). */
export type WireHtmlData = Omit<HtmlData, "runs"> & { runs: RunColumns };

// ---- run pages (embedded, or /api/runs/<id>) ----

export const RUN_PAGE_SCHEMA = "skillbench.html.run.v1";

export interface WorkspaceFile {
  /** relative to runs/<id>/workspace, `/`-separated */
  path: string;
  size: number;
  /** the text, when embedded (static report, small text files); else fetched from the viewer */
  content?: string;
}

export interface JudgeScore {
  /** the judge's dimension (generic: task_completion, output_quality, instruction_adherence, custom_N) */
  name: string;
  /** the rule dimension it is set beside (task_completion: completion, instruction_adherence: instruction_following; else the same name) */
  rule_dimension: string;
  score: number | null;
  reason: string | null;
}

/** Evidence without its tool calls (the timeline carries them). */
export type EvidenceDigest = Omit<Evidence, "tool_calls">;

export interface RunPageData {
  schema: typeof RUN_PAGE_SCHEMA;
  run_id: string;
  report: RunReport;
  /** judge scores per rubric dimension when report.json has a `judge` section (parsed defensively), else null */
  judge: {
    model: string | null;
    /** enabled_and_successful, failed or skipped (null in older reports) */
    status: string | null;
    /** why it failed or was skipped, or notes */
    reason: string | null;
    scores: JudgeScore[];
  } | null;
  evidence: EvidenceDigest | null;
  timeline: Timeline;
  files: WorkspaceFile[];
  /** more workspace files exist than are listed */
  files_truncated: boolean;
  stderr_tail: string | null;
}

// ---- the transcript timeline of a run page ----

export interface TimelineTool {
  id: string | null;
  name: string;
  /** pretty-printed JSON of the input (capped) */
  input: string;
  /** a one-line description (command, file path, skill name…) */
  label: string;
  output: string | null;
  is_error: boolean;
  /** the skill name when this is a Skill invocation */
  skill: string | null;
}

export interface StepUsage {
  input: number;
  output: number;
  cache_read: number;
  cache_creation: number;
}

export type TimelineStep =
  | {
      kind: "assistant";
      line: number;
      text: string[];
      tools: TimelineTool[];
      usage: StepUsage | null;
    }
  /** text the harness or the CLI put in the user role (skill content, reminders, a simulated reply) */
  | { kind: "user"; line: number; text: string; synthetic: boolean }
  | { kind: "notice"; line: number; text: string; error: boolean };

export interface TimelineResult {
  line: number;
  subtype: string | null;
  is_error: boolean;
  text: string | null;
  num_turns: number | null;
  duration_ms: number | null;
  cost_usd: number | null;
  tokens: {
    input: number;
    output: number;
    cache_read: number;
    cache_creation: number;
    total: number;
  } | null;
  terminal_reason: string | null;
}

export interface TimelineTurn {
  /** 1-based subject turn */
  index: number;
  /** the prompt (turn 1) or the simulated user's reply, when the report records it */
  prompt: string | null;
  prompt_source: string | null;
  steps: TimelineStep[];
  result: TimelineResult | null;
}

export interface Timeline {
  source: "stdout" | "evidence" | "none";
  turns: TimelineTurn[];
  lines: number;
  malformed_lines: number;
  tool_calls: number;
  errors: number;
}
