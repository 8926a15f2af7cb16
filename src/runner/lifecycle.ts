/**
 * The end of a command that runs an experiment (`run`, `eval`, `calibrate`), as one lifecycle of
 * reporters (report/reporters/types.ts): `onPlan` and `onRunEnd` through the run's progress
 * events, `onExperimentEnd` once the experiment's reports are written, over the reading of the
 * results folder those reports were made from and the comparison built for them: the folder is
 * read once and the comparison built once per command.
 *
 * The end has a pre-phase: the folder is read (`readResults`), every reporter's `onResultsRead`
 * runs (the calibration writes calibration.json, which the comparison shows), and only then is
 * the one comparison built; `onExperimentEnd` sees both.
 *
 * The built-in reporters, by name:
 * - `calibration`, `summary`, `comparison`, `html`: report/reporters/folder.ts, the results
 *   folder's own reports, ended by the library at the end of every experiment
 *   (runner/finish.ts `writeExperimentReportsOf`, whose reading and comparison are handed on to
 *   the command's reporters below).
 * - `junit`, `thresholds`, `step-summary`: report/reporters/ci.ts `ciReporters`.
 * - `otel`, `langfuse`, `langsmith`: the targets of telemetry/reporter.ts `telemetryReporter`.
 * - `history`: history/record-experiment.ts `historyReporter`, the experiment's record in the
 *   history store (docs/history.md).
 */
import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "../report/comparison/types.js";
import { readComparisonSource, type ComparisonSource } from "../report/comparison/write.js";
import type {
  ExperimentResults,
  GateResult,
  Reporter,
  ReporterName,
  ReporterOutcome,
} from "../report/reporters/types.js";
import type { ProgressEvent, RunOptions, RunSummary } from "./run-options.js";

/** Where each built-in reporter lives (the module that makes it). */
export const BUILTIN_REPORTERS: Readonly<Record<ReporterName, string>> = {
  summary: "report/reporters/folder.ts",
  calibration: "report/reporters/folder.ts",
  comparison: "report/reporters/folder.ts",
  html: "report/reporters/folder.ts",
  junit: "report/reporters/ci.ts",
  thresholds: "report/reporters/ci.ts",
  "step-summary": "report/reporters/ci.ts",
  otel: "telemetry/reporter.ts",
  langfuse: "telemetry/reporter.ts",
  langsmith: "telemetry/reporter.ts",
  history: "history/record-experiment.ts",
};

/**
 * The progress callback that tells the reporters of the plan and of each committed run, then
 * hands the event on to `progress` (the console display).
 */
export function reporterProgress(
  reporters: readonly Reporter[],
  progress: (e: ProgressEvent) => void,
): (e: ProgressEvent) => void {
  let outDir: string | null = null;
  return (e) => {
    if (e.type === "plan") {
      outDir = e.outDir;
      for (const r of reporters)
        r.onPlan?.({
          outDir: e.outDir,
          experimentId: e.experimentId,
          total: e.total,
          toRun: e.toRun,
          reused: e.reused,
        });
    }
    if (e.type === "end" && e.report && outDir !== null)
      for (const r of reporters) r.onRunEnd?.(outDir, e.report);
    progress(e);
  };
}

/** The finished experiment of a command's RunSummary: the reading its reports were written from. */
export async function experimentResults(
  summary: RunSummary,
  gates: GateResult[] = [],
): Promise<ExperimentResults> {
  return {
    outDir: summary.outDir,
    reports: summary.reports,
    // Read here only when the run wrote no reports (a queue worker's own runs).
    source: summary.source ?? (await readComparisonSource(summary.outDir)),
    comparison: summary.comparison ?? null,
    gates,
  };
}

/**
 * The pre-phase of the end: the folder read once, every reporter's `onResultsRead`, then the one
 * comparison (`compare`, null when there is none), built after what the pre-phase wrote.
 */
export async function readResults(
  outDir: string,
  reporters: readonly Reporter[],
  compare: (source: ComparisonSource) => Promise<Comparison | null>,
  /** Throws when the reading is no results folder, before the pre-phase writes anything. */
  check: (source: ComparisonSource) => void = () => undefined,
): Promise<{ source: ComparisonSource; comparison: Comparison | null }> {
  const source = await readComparisonSource(outDir);
  check(source);
  for (const r of reporters) await r.onResultsRead?.({ outDir, source });
  return { source, comparison: await compare(source) };
}

/** One command's reporters: each is ended once, by the experiment's end or by the abort. */
export class ReporterLifecycle {
  private readonly ended = new Set<Reporter>();
  constructor(readonly reporters: readonly Reporter[]) {}

  /** Every reporter's `onExperimentEnd`, in order (a later one may show an earlier one's result). */
  async end(results: ExperimentResults): Promise<ReporterOutcome[]> {
    const outcomes: ReporterOutcome[] = [];
    for (const r of this.reporters) {
      this.ended.add(r);
      if (r.onExperimentEnd) outcomes.push(await r.onExperimentEnd(results));
    }
    return outcomes;
  }

  /** `onAbort` of every reporter not yet ended: the command ends without its experiment's end. */
  async abort(reports: RunDigest[]): Promise<ReporterOutcome[]> {
    const outcomes: ReporterOutcome[] = [];
    for (const r of this.reporters) {
      if (this.ended.has(r)) continue;
      this.ended.add(r);
      if (r.onAbort) outcomes.push(await r.onAbort(reports));
    }
    return outcomes;
  }
}

/** What the reporters add to a command's RunOptions, around the command's own progress display. */
export type ReporterHooks = (
  display: (e: ProgressEvent) => void,
) => Pick<RunOptions, "onProgress" | "agentEnv">;

/** The hooks of these reporters: the progress callback that tells them, and their agents' env. */
function reporterHooks(reporters: readonly Reporter[]): ReporterHooks {
  const withEnv = reporters.filter((r) => r.agentEnv !== undefined);
  const agentEnv: RunOptions["agentEnv"] = (run) => {
    const env: Record<string, string> = {};
    for (const r of withEnv) Object.assign(env, r.agentEnv?.(run));
    return env;
  };
  return (display) => ({
    onProgress: reporterProgress(reporters, display),
    // (none asks: no hook, so a run's agent environment is what it was without reporters)
    ...(withEnv.length > 0 ? { agentEnv } : {}),
  });
}

/** What a command does around its reporters (runWithReporters). */
export interface CommandSteps<R> {
  /** Runs the experiment with the reporters' hooks in its RunOptions. */
  run(hooks: ReporterHooks): Promise<R>;
  /** The command's RunSummary within its result. */
  summary(result: R): RunSummary;
  /** After the run, before the reporters' end: the command's own decisions (eval's gates). */
  settle?(result: R): GateResult[];
  /** What the reporters have to say (at the end, or at the abort). */
  outcomes(outcomes: ReporterOutcome[]): void;
}

/**
 * The one end-of-command path of `run`, `eval` and `calibrate`: run with the reporters told of
 * the plan and the runs, settle the command's own result, then end every reporter over the one
 * reading; on an error, the reporters not yet ended are aborted with the runs completed so far.
 */
export async function runWithReporters<R>(
  reporters: readonly Reporter[],
  steps: CommandSteps<R>,
): Promise<R> {
  const life = new ReporterLifecycle(reporters);
  let reports: RunDigest[] = [];
  try {
    const result = await steps.run(reporterHooks(reporters));
    const summary = steps.summary(result);
    reports = summary.reports;
    const gates = steps.settle?.(result) ?? [];
    steps.outcomes(await life.end(await experimentResults(summary, gates)));
    return result;
  } finally {
    const left = await life.abort(reports);
    if (left.length > 0) steps.outcomes(left);
  }
}
