/**
 * The reporter lifecycle (modelled on vitest's `Reporter`): the end of `run`, `eval` and
 * `calibrate` is one list of reporters that are told of the plan, of each run as it is
 * committed, and of the finished experiment. They are called by runner/lifecycle.ts; none of
 * them prints: what a reporter has to say comes back as a `ReporterOutcome`, which the CLI prints.
 */
import type { RunDigest } from "../../core/digest.js";
import type { RunReport } from "../../core/report.js";
import type { Comparison } from "../comparison/types.js";
import type { ComparisonSource } from "../comparison/write.js";

/** The plan of a command's runs (the `plan` progress event). */
export interface PlanInfo {
  outDir: string;
  experimentId: string;
  total: number;
  toRun: number;
  reused: number;
}

/** A gate a command decided (eval's quality gates), as the experiment's telemetry records it. */
export interface GateResult {
  name: string;
  passed: boolean;
  detail: string;
}

/**
 * A finished experiment, as every reporter sees it: the results folder read once (`source`)
 * and the comparison built once (`comparison`, the one the reports were written from).
 */
export interface ExperimentResults {
  outDir: string;
  /** The command's completed runs (RunSummary.reports, in plan order). */
  reports: RunDigest[];
  /** The one reading of the folder: its planned runs (sorted as stored), problems and metadata. */
  source: ComparisonSource;
  /** Null with fewer than two treatments. */
  comparison: Comparison | null;
  gates: GateResult[];
}

/** What a reporter wrote and has to say; the CLI prints it (files first, then the lines). */
export interface ReporterOutcome {
  /** Files written, listed under the command's results. */
  files?: string[];
  /** Lines for stdout (after every reporter's files). */
  lines?: string[];
  /** Lines for stderr. */
  notes?: string[];
  /** True when the command must fail (exit 1) because of this reporter. */
  failed?: boolean;
}

/** The names of the built-in reporters (runner/lifecycle.ts `BUILTIN_REPORTERS`). */
export type ReporterName =
  | "summary"
  | "comparison"
  | "html"
  | "calibration"
  | "junit"
  | "thresholds"
  | "step-summary"
  | "otel"
  | "langfuse"
  | "langsmith"
  | "history";

/** The results folder read once, before the comparison is built (the lifecycle's pre-phase). */
export interface ResultsRead {
  outDir: string;
  source: ComparisonSource;
}

export interface Reporter {
  readonly name: string;
  /** The runs are planned (before the first starts). */
  onPlan?(plan: PlanInfo): void;
  /** A run's report.json is written. */
  onRunEnd?(outDir: string, report: RunReport): void;
  /**
   * The pre-phase: the folder is read, the comparison not yet built. What the comparison reads
   * from the folder is written here (the calibration's calibration.json); nothing is listed.
   */
  onResultsRead?(read: ResultsRead): Promise<void> | void;
  /** The experiment's reports are written: the folder's one reading and the one comparison. */
  onExperimentEnd?(results: ExperimentResults): Promise<ReporterOutcome> | ReporterOutcome;
  /**
   * The command failed before the end of its experiment (an error, an interrupted setup):
   * release what the reporter holds (telemetry's collector), with the runs that completed.
   */
  onAbort?(reports: RunDigest[]): Promise<ReporterOutcome> | ReporterOutcome;
  /** Extra environment for a run's subject agent (telemetry's trace context, docs/telemetry.md). */
  agentEnv?(run: { experimentId: string; runId: string; agent: string }): Record<string, string>;
}
