import type { ArmProblem } from "../../core/arm-integrity.js";
import type { HealthSummary } from "../../core/health.js";
import type { PairwiseSummary } from "../../stats/pairwise.js";
import type { VerbosityRow } from "../judge-verbosity.js";
import type { Isolation } from "../endpoint.js";
import type { NoiseFloor } from "../calibration/types.js";
/**
 * The shape of comparison.json (schema `skillbench.comparison.v1`, docs/comparison-schema.md).
 * Plain JSON data: every number the markdown report shows is one of these fields.
 * Ratios are in [0, 1]; null means "not computable from this data" (rendered "—").
 */
import type { PassKTable } from "../passk.js";
import type { Band } from "../../stats/index.js";
import type { Roles } from "../../plan/roles.js";
import type { CostOfAnswer } from "./cost.js";

export const COMPARISON_SCHEMA = "skillbench.comparison.v1";

export type { Band, Roles };

export interface ConsistencyWarning {
  kind: "agent_version" | "agent" | "model" | "task_content" | "sandbox";
  /** The task for `task_content`, else null. */
  task: string | null;
  /** Each distinct value (null = not recorded) with the runs that used it. */
  values: Array<{ value: string | null; runs: number; treatments: string[] }>;
  message: string;
}

export interface DataQualityRow {
  treatment: string;
  raw: number;
  /** included + flagged */
  analysis: number;
  included: number;
  flagged: number;
  excluded: number;
  /** excluded / raw; null when raw = 0 */
  excluded_share: number | null;
}

/** Analysis-set run counts (the `overall` metric: a run passes when no check failed). */
export interface RunCountRow {
  treatment: string;
  runs: number;
  passed: number;
  failed: number;
  pass_rate: number | null;
}

export interface IntervalValue {
  estimate: number;
  low: number;
  high: number;
  /** Replicates where the statistic was defined (only these enter the percentiles). */
  valid_replicates: number;
}

interface PassKBootstrapRow {
  metric: string;
  treatment: string;
  /** keyed by k */
  pass_at_k: Record<string, IntervalValue | null>;
  pass_hat_k_unbiased: Record<string, IntervalValue | null>;
}

export interface PassKSection extends PassKTable {
  bootstrap: PassKBootstrapRow[];
}

interface TaskOutcomeCell {
  /** analysis-set runs that passed (overall metric) */
  c: number;
  n: number;
  /** the runs disagree: at least one passed and at least one failed */
  flip: boolean;
}

export interface TaskOutcomeRow {
  task: string;
  /** keyed by treatment; null = no analysis-set run of this task × treatment */
  cells: Record<string, TaskOutcomeCell | null>;
}

export interface SpendRow {
  treatment: string;
  runs: number;
  /** sum over runs that reported a value; null when none did */
  tokens: number | null;
  cost_usd: number | null;
  /** mean over runs that reported a value */
  avg_tokens: number | null;
  avg_cost_usd: number | null;
}

export interface RuntimeRow {
  treatment: string;
  runs: number;
  turns: number | null;
  duration_seconds: number | null;
  tool_calls: number | null;
  avg_turns: number | null;
  avg_duration_seconds: number | null;
  avg_tool_calls: number | null;
}

export interface SourceEvidenceRow {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
  quality: "included" | "flagged" | "excluded";
  reason_code: string;
  profile: string | null;
  /** `name@<first 12 hex digits of the content hash>` */
  skill_sources: string[];
  agent_version: string | null;
}

export interface DimensionCell {
  /** runs with a score (N/A runs left out) */
  n: number;
  mean: number | null;
  /** sample standard deviation; null with fewer than 2 scores */
  stdev: number | null;
  /** share of scored runs with score >= 0.5 */
  pass_rate: number | null;
}

/**
 * A dimension's regression test (comparison/rubric-tests.ts, docs/statistics.md §9): Δ mean
 * score over the tasks both arms scored, its task-clustered interval at its Holm level, and the
 * result: `regression` (the interval lies below −tolerance), `unresolved` (Δ below −tolerance,
 * the interval does not resolve it), `none`.
 */
export interface DimensionTest {
  delta: number;
  /** tasks both arms scored */
  tasks: number;
  /** p of "no regression beyond the tolerance": the smallest α at which the interval lies below −tolerance */
  p: number;
  /** at level 1 − (α / (m − k)), Holm's level at its rank k among the m dimensions tested */
  ci: { low: number; high: number; level: number } | null;
  status: "regression" | "unresolved" | "none";
}

interface DimensionRow {
  name: string;
  /** keyed by treatment; null = no analysis-set run of that treatment has this dimension */
  cells: Record<string, DimensionCell | null>;
  /** candidate mean − baseline mean */
  delta: number | null;
  /** the test resolved a regression (`test.status === "regression"`) */
  regression: boolean;
  /** null when the candidate or the baseline did not score it */
  test: DimensionTest | null;
}

export interface RubricSection {
  /** every treatment with data has >= 2 analysis-set runs: cells show mean±stdev */
  distribution: boolean;
  profiles: string[];
  dimensions: DimensionRow[];
  /** mean weighted_score per treatment */
  overall: { cells: Record<string, DimensionCell | null>; delta: number | null };
  /** distinct weights seen per dimension (several when profiles disagree) */
  weights: Array<{ name: string; weights: number[] }>;
  /** the LLM judge's dimensions, tested in the same Holm family as the rubric's */
  judge: Array<{
    name: string;
    candidate: number | null;
    baseline: number | null;
    regression: boolean;
    test: DimensionTest;
  }>;
}

export interface ListedRun {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
  reason_code: string;
  reason: string;
  evidence: string[];
  include_in_analysis: boolean;
  /** relative to the results folder */
  report: string;
}

export interface SensitivityRow {
  treatment: string;
  raw: { c: number; n: number; rate: number | null };
  analysis: { c: number; n: number; rate: number | null };
  /** analysis rate − raw rate */
  delta: number | null;
}

export type AttributionBucket = "harness" | "workflow" | "task" | "model" | "uncategorized";
export const ATTRIBUTION_BUCKETS: AttributionBucket[] = [
  "harness",
  "workflow",
  "task",
  "model",
  "uncategorized",
];

export interface AttributionItem {
  /** `<check> -> [<bucket>] <reason>` */
  text: string;
  count: number;
}

export interface AttributionTreatment {
  treatment: string;
  failures: number;
  buckets: Array<{ bucket: AttributionBucket; count: number; items: AttributionItem[] }>;
}

export type VerdictKind =
  | "insufficient_clean_data"
  | "inconclusive_data_quality"
  | "insufficient_data"
  | "regression"
  | "no_regression"
  | "overall_lower"
  /** the candidate's or the baseline's arm holds runs of several agents (see `by_agent`) */
  | "mixed_agents"
  /** the candidate's or the baseline's arm holds runs of several models (see `by_model`) */
  | "mixed_models";

/**
 * The verdict: `band` (improved | non_inferior | regressed | inconclusive) with its one-sentence
 * `reason`, the Δ pass rate and its interval against `margin` (docs/statistics.md §9). `kind`
 * is the rubric-only reading kept from the original harness (regression / no_regression / …).
 */
export interface Verdict extends BandVerdict {
  kind: VerdictKind;
  /** the band and its reason as rendered (markdown) */
  headline: string;
  /** dimensions whose interval lies below −tolerance (judge ones as `judge:<name>`) */
  regressions: Array<{ dimension: string; candidate: number; baseline: number; delta: number }>;
  /** dimensions whose mean Δ is below −tolerance but whose interval does not resolve it: they do not move the band */
  unresolved: Array<{ dimension: string; delta: number; ci: DimensionTest["ci"] }>;
  candidate_overall: number | null;
  baseline_overall: number | null;
  /** data-quality rows of the candidate and the baseline */
  candidate_quality: DataQualityRow;
  baseline_quality: DataQualityRow;
  distribution: boolean;
}

export interface PairedSection {
  candidate: string;
  baseline: string;
  /** tasks with analysis-set runs under both */
  tasks: string[];
  candidate_runs: number;
  baseline_runs: number;
  candidate_pass_rate: number | null;
  baseline_pass_rate: number | null;
  /**
   * pooled pass rate, candidate − baseline, with the decision's interval (`method` names it; in a
   * comparison the very numbers of `verdict.delta` and `verdict.ci`)
   */
  delta_pass_rate: (IntervalValue & { level: number; method: string }) | null;
  sign_test: { pos: number; neg: number; ties: number; p: number } | null;
  /** pairs run r of a task under one treatment with run r under the other */
  mcnemar: {
    pairs: number;
    both_pass: number;
    candidate_only: number;
    baseline_only: number;
    both_fail: number;
    p: number;
  } | null;
  /** per treatment (all treatments with data): share of tasks whose runs disagree */
  flip_rate: Record<string, number | null>;
  /** the decision's interval excludes 0 (the sign test is reported beside it, never deciding) */
  distinguishable: boolean;
  /** fewest tasks with which the two-sided sign test can reach p < alpha (all tasks one way) */
  sign_test_min_tasks: number;
  /** runs per treatment for a two-proportion test at alpha 0.05, power 0.8; null when the rates are equal or unknown */
  reps_needed: number | null;
  conclusion: string;
}

export interface Comparison {
  schema: typeof COMPARISON_SCHEMA;
  experiment_id: string | null;
  /** treatments with at least one report, in the experiment's order */
  treatments: string[];
  roles: Roles;
  settings: {
    seed: number;
    replicates: number;
    level: number;
    alpha: number;
    power: number;
    regression_tolerance: number;
    dimension_pass_score: number;
    max_excluded_share: number;
    /** non-inferiority margin on Δ pass rate (`--margin`) */
    margin: number;
  };
  warnings: ConsistencyWarning[];
  data_quality: DataQualityRow[];
  run_counts: RunCountRow[];
  pass_k: PassKSection;
  task_outcomes: TaskOutcomeRow[];
  spend: SpendRow[];
  /** The extra cost per extra passed run and the experiment's cost (docs/cost.md). */
  cost_of_answer?: CostOfAnswer | undefined;
  runtime: RuntimeRow[];
  source_evidence: SourceEvidenceRow[];
  rubric: RubricSection;
  excluded_runs: ListedRun[];
  flagged_runs: ListedRun[];
  sensitivity: SensitivityRow[];
  attribution: AttributionTreatment[];
  verdict: Verdict;
  paired: PairedSection;
  /** Lift over all runs and over the runs in which the candidate's Skill fired (docs/statistics.md §9). */
  lift: Lift;
  /** `run --baseline-from`: the baseline arm was reused from that folder; `drift` lists the differences. */
  frozen_baseline: { dir: string; treatment: string; runs: number; drift: string[] } | null;
  /** `--reuse`: runs taken from earlier results folders, per folder (absent when none was). */
  reused?: { dir: string; runs: number }[];
  /** Which model the runs talked to: `label` is set when it was the scripted model server. */
  endpoint: { scripted: boolean; label: string | null };
  /** Sandboxes of the runs: `warning` (the local warning) is set when any ran without one. */
  isolation: Isolation;
  /** LLM-judge overlay rows; empty when no run was judged. */
  judge_overlay: JudgeOverlayRow[];
  /** The judge's status and warnings (docs/judge.md); absent when no run was judged. */
  judge?: JudgeSection;
  /** Every agent of the compared runs (docs/agents.md, "Reports by agent"). */
  agents: AgentRow[];
  /** Treatments whose runs used more than one agent. */
  mixed_arms: MixedArm[];
  /** The candidate and baseline compared on each agent alone; empty with a single agent. */
  by_agent: AgentComparison[];
  /**
   * Every model of the compared runs, the treatments whose runs used more than one, and the
   * candidate and baseline compared on each model alone (docs/agents.md, "Models as a matrix
   * axis"); absent when every run used one model (so such a comparison.json is as before).
   */
  models?: ModelRow[];
  mixed_model_arms?: MixedModelArm[];
  by_model?: ModelComparison[];
  /** An A/A calibration of one of the arms (`skillbench calibrate`), shown beside the delta (docs/statistics.md §13). */
  noise_floor: NoiseFloor | null;
  /**
   * Arm integrity of the compared arms (docs/statistics.md, "Arm integrity"): `arm_leak` and `skill_drift`
   * records of their runs, and the assertion-hygiene findings; absent when there is none.
   */
  arm_integrity?: ArmProblem[];
  /**
   * How deeply each task × treatment's runs used their Skills (report.json `skill_usage`,
   * docs/evidence.md "Depth of use"); absent when no run recorded a usage.
   */
  skill_use?: SkillUseRow[];
  /**
   * The preflight's task health (docs/statistics.md §15): the tasks it left out of this
   * comparison, and `line`, the sentence every report prints under the verdict. Absent when the
   * experiment has none (an older folder, `--preflight off`).
   */
  health?: HealthSummary & { line: string };
  /** `run --until-decided`: the look the band was decided at and the level it could spend (docs/statistics.md §12). */
  sequential: {
    look: number;
    alpha_look: number;
    alpha: number;
    spending: "obrien_fleming" | "pocock";
    count: number;
    max_count: number;
    status: "running" | "decided" | "max_count" | "stopped";
    /** the plan made at the first look (can --max-count decide at this number of tasks?); null before it existed */
    plan: string | null;
  } | null;
}

// The band's verdict and the lift (decided in band.ts).

export interface ExclusionBalance {
  candidate: { excluded: number; raw: number; share: number | null };
  baseline: { excluded: number; raw: number; share: number | null };
  /** |candidate share − baseline share| */
  gap: number | null;
  /** Fisher's exact test, two-sided, excluded vs kept by arm */
  fisher_p: number;
  imbalanced: boolean;
}

export interface DeltaWithInterval {
  delta: number | null;
  ci: { low: number; high: number; level: number } | null;
}

/**
 * What would resolve the comparison further, derived from the band (so it never contradicts it):
 * `decided` (the band claims a difference: nothing more is needed), `more_runs` (a
 * two-proportion test at the observed rates needs more runs), `more_tasks` (the arms already have
 * the runs that test needs, yet the task-clustered interval does not resolve: the spread between
 * tasks is the limit), `no_runs` (equal pass rates of 0 or 1: no number of runs resolves them),
 * `data_quality` (the band is inconclusive because of excluded runs), `nothing` (no common task).
 */
export type RunsNeededStatus =
  "decided" | "more_runs" | "more_tasks" | "no_runs" | "data_quality" | "nothing";

export interface RunsNeeded {
  status: RunsNeededStatus;
  /** the test the count is for: show an improvement, show non-inferiority, or show the regression */
  goal: "improvement" | "non_inferiority" | "regression" | null;
  /** runs per treatment that test needs in all (null: no number of runs resolves it) */
  per_treatment_total: number | null;
  /** how many more runs per treatment than the arms have now (0: already enough) */
  more_per_treatment: number | null;
  /** the same spread over the tasks compared: more repetitions per task */
  more_per_task: number | null;
  /** the one sentence every report prints for it (markdown) */
  text: string;
}

/** One Skill's use by one task × treatment's analysis-set runs (comparison.json `skill_use`). */
export interface SkillUseRow {
  task: string;
  treatment: string;
  skill: string;
  /** analysis-set runs that recorded a usage of this Skill */
  runs: number;
  /** of them, the runs that invoked it */
  fired: number;
  /** the most telling file: the first declared key file, else the least-read reference (null: SKILL.md only) */
  file: string | null;
  /** `file` is a declared key file */
  key: boolean;
  /** runs that read `file` */
  file_read: number;
  /** mean coverage (share of the Skill's files read or run) */
  coverage: number;
  /** the one line every report prints */
  text: string;
}

/** The candidate's lift over runs that read every declared key file and over those that did not. */
export interface KeyFileLift {
  key_files: string[];
  read: DeltaWithInterval & { runs: number };
  not_read: DeltaWithInterval & { runs: number };
}

export interface Lift {
  /** intent to treat: every analysis-set run of both arms (the verdict's delta) */
  itt: DeltaWithInterval;
  /** per protocol: only the candidate's runs that invoked one of its Skills, vs every baseline run */
  per_protocol: DeltaWithInterval & { runs: number };
  /** share of analysis-set runs that invoked one of the arm's installed Skills (null: installs none) */
  invocation_rate: { candidate: number | null; baseline: number | null };
  /** the candidate invoked its Skill in fewer than half its runs */
  silent_bypass: boolean;
  /** split by whether the key files were read (absent when the candidate's Skill declares none) */
  key_file?: KeyFileLift;
}

/** Which rule of docs/statistics.md §9 set the band (first that applies). */
export type BandRule =
  | "no_common_task"
  | "exclusion_imbalance"
  | "excluded_majority"
  | "interval"
  | "rubric_mixed"
  | "rubric"
  /** an arm ran on several agents: the pooled Δ decides nothing (agents.ts mixedVerdict) */
  | "mixed_agents"
  /** an arm ran on several models: the pooled Δ decides nothing (models.ts mixedModelVerdict) */
  | "mixed_models"
  /** a Skill reached an arm that does not install it (arm-integrity.ts, statistics.md "Arm integrity") */
  | "arm_leak";

export interface BandVerdict {
  band: Band;
  /** one sentence */
  reason: string;
  rule: BandRule;
  /**
   * The decision's Δ pass rate and its interval: the one interval of this quantity. Every
   * report prints it (headline, tables, HTML, console) from here; `paired.delta_pass_rate`,
   * `lift.itt` and, with no run excluded, `worst_case` hold the very same numbers.
   */
  delta: number | null;
  ci: { low: number; high: number; level: number } | null;
  /** how `ci` is computed, named once (the reports quote it) */
  method: string;
  /** the noise sentence: whether the difference is distinguishable from noise, from the band's rule */
  noise: string;
  margin: number;
  exclusion: ExclusionBalance;
  /** Δ pass rate counting every excluded run (both arms) as a failure */
  worst_case: DeltaWithInterval & { candidate_rate: number | null; baseline_rate: number | null };
  runs_needed: RunsNeeded;
}

// By agent (agents.ts).

/** One agent of the experiment: its versions, runs and treatments. */
export interface AgentRow {
  /** The report's agent name (`claude-code`, `codex`, `gemini`, `opencode`). */
  agent: string;
  /** Every version its runs recorded (null: unknown), in first-seen order. */
  versions: Array<string | null>;
  runs: number;
  treatments: string[];
}

/** A treatment whose runs used more than one agent. */
export interface MixedArm {
  treatment: string;
  agents: Array<{ agent: string; runs: number }>;
}

/** The candidate and the baseline compared on one agent alone. */
export interface AgentComparison {
  agent: string;
  versions: Array<string | null>;
  runs: number;
  treatments: string[];
  /**
   * The full comparison of this agent's runs (same roles as the experiment's; without the per-run
   * `source_evidence`, which the top level holds); null when this agent did not run both arms.
   */
  comparison: AgentSubComparison | null;
  /** Why `comparison` is null. */
  reason: string | null;
}

export type AgentSubComparison = Omit<
  Comparison,
  "agents" | "mixed_arms" | "by_agent" | "source_evidence"
>;

// By model (models.ts).

/** One model of the experiment (`CLI default`: the agent's own), its runs and treatments. */
export interface ModelRow {
  model: string;
  runs: number;
  treatments: string[];
}

/** A treatment whose runs used more than one model. */
export interface MixedModelArm {
  treatment: string;
  models: Array<{ model: string; runs: number }>;
}

/** The candidate and the baseline compared on one model alone. */
export interface ModelComparison {
  model: string;
  runs: number;
  treatments: string[];
  /** The full comparison of this model's runs (as `AgentComparison.comparison`); null when this model did not run both arms. */
  comparison: ModelSubComparison | null;
  /** Why `comparison` is null. */
  reason: string | null;
}

export type ModelSubComparison = Omit<
  Comparison,
  | "agents"
  | "mixed_arms"
  | "by_agent"
  | "source_evidence"
  | "models"
  | "mixed_model_arms"
  | "by_model"
>;

// The LLM-judge overlay (judge-overlay.ts).

export interface JudgeOverlayRow {
  dimension: string;
  rule_dimension: string | null;
  treatment: string;
  rule: number | null;
  judge: number | null;
  /** judge − rule; null when either side is missing */
  gap: number | null;
  runs_judged: number;
}

/** The LLM judge over the compared runs (judge-section.ts). */
export interface JudgeSection {
  /** runs with a judge block that was not skipped */
  runs_judged: number;
  /** runs whose judge failed: their judge dimensions are N/A (fail closed) */
  failed: Array<{ run_id: string; treatment: string; reason: string }>;
  /** the warnings every report shows (judge failures, ...) */
  notes: string[];
  /** per arm, judge score against answer length (report/judge-verbosity.ts); absent when no length is known */
  verbosity?: VerbosityRow[];
  /** `--judge pairwise`: candidate against baseline, positions swapped (pairwise.json); absent otherwise */
  pairwise?: PairwiseSection;
}

/** The pairwise judge's verdicts summed up (stats/pairwise.ts); failed pairs are not counted. */
export interface PairwiseSection extends PairwiseSummary {
  model: string;
  candidate: string;
  baseline: string;
  /** pairs where an order failed (error, timeout, unparseable after the repair turn), with the cause */
  failed: Array<{ task: string; rep: number; reason: string }>;
  /** the judge's tokens and cost over every pairwise call */
  tokens: { input: number; output: number } | null;
  cost_usd: number | null;
}
