/**
 * The CI reporters: JUnit XML (`--junit`), the `--fail-under` thresholds (with their one-line
 * machine-readable result) and the summary tables appended to $GITHUB_STEP_SUMMARY when it is set.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { HealthReportSchema, type HealthReport } from "../../core/health.js";
import { junitPieces } from "../junit.js";
import { isScripted } from "../../plan/fingerprint.js";
import {
  evaluateThresholds,
  judgeDimensionsOf,
  parseThresholds,
  type ThresholdResult,
} from "../thresholds.js";
import { requireJudgeCalibration } from "../../judge/calibration/require.js";
import { historySourceTarget } from "../../history/results-folders.js";
import { appendStepSummary, renderStepSummary } from "../step-summary.js";
import { writeReportPieces } from "../../store/report-files.js";
import type { ExperimentResults, Reporter } from "./types.js";

/** The results folder's health.json (the preflight's task health), or null without a readable one. */
async function readHealth(outDir: string): Promise<HealthReport | null> {
  let text: string;
  try {
    text = await readFile(path.join(outDir, "health.json"), "utf8");
  } catch {
    return null;
  }
  try {
    return HealthReportSchema.parse(JSON.parse(text));
  } catch {
    // A damaged health.json is the health reporter's to name; the runs' JUnit still goes out.
    return null;
  }
}

export interface CiOptions {
  /** --junit FILE */
  junit?: string | undefined;
  /** --fail-under specs, e.g. ["pass@1=0.8", "weighted_score=0.7"] */
  failUnder?: string[] | undefined;
  /** --judge-calibration FILE: a calibration for thresholds on judge dimensions, besides the results folder's. */
  judgeCalibration?: string | undefined;
  /** --judge-alpha-min: the α a judge dimension's calibration must reach (default 0.67). */
  judgeAlphaMin?: number | undefined;
  /**
   * --history FILE|URL / --no-history (false): the history store whose judge calibrations vouch
   * too; absent: the default beside the results (history/results-folders.ts).
   */
  history?: string | boolean | undefined;
  /** Environment (GITHUB_STEP_SUMMARY). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** The CI reporters and, once they ran, the thresholds' result (null: no --fail-under). */
export interface CiReporters {
  reporters: Reporter[];
  thresholds: () => ThresholdResult | null;
}

/** True when the options ask for no CI output at all (then nothing is read). */
export function noCiOutputs(opts: CiOptions): boolean {
  const env = opts.env ?? process.env;
  return !opts.junit && !(opts.failUnder && opts.failUnder.length > 0) && !env.GITHUB_STEP_SUMMARY;
}

/**
 * The reporters the options ask for, in the order they run: junit, thresholds, step-summary
 * (the step summary shows the thresholds' result). Bad --fail-under specs throw InputError here.
 */
export function ciReporters(opts: CiOptions): CiReporters {
  const specs =
    opts.failUnder && opts.failUnder.length > 0 ? parseThresholds(opts.failUnder) : null;
  const env = opts.env ?? process.env;
  let th: ThresholdResult | null = null;
  const reporters: Reporter[] = [];
  const treatmentsOf = (r: ExperimentResults): string[] => r.source.metadata?.treatments ?? [];
  const junit = opts.junit;
  if (junit)
    reporters.push({
      name: "junit",
      onExperimentEnd: async (r) => {
        const { reports, metadata: meta } = r.source;
        const file = path.resolve(opts.cwd ?? process.cwd(), junit);
        await writeReportPieces(
          file,
          junitPieces(reports, {
            treatments: treatmentsOf(r),
            name: meta?.experiment_id ?? path.basename(r.outDir),
            scripted: isScripted(reports, meta),
            health: await readHealth(r.outDir),
          }),
        );
        return { files: [file] };
      },
    });
  if (specs)
    reporters.push({
      name: "thresholds",
      onExperimentEnd: async (r) => {
        th = evaluateThresholds(specs, r.source.reports, {
          treatments: treatmentsOf(r),
          candidate: r.comparison?.roles.candidate ?? undefined,
        });
        const computed = th;
        // A threshold on a judge dimension is refused (exit 2) without a calibration; one the
        // judge left N/A on a run has already failed with its cause (fail closed) and is not
        // refused for the want of a calibration that could not make it pass.
        await requireJudgeCalibration({
          demands: judgeDimensionsOf(specs)
            .filter((d) => computed.checks.some((c) => c.spec === d.spec && c.value !== null))
            .map((d) => ({
              gate: `--fail-under ${d.spec}`,
              dimension: d.dimension,
            })),
          blocks: r.source.reports.map((x) => x.judge),
          outDirs: [r.outDir],
          file: opts.judgeCalibration,
          alphaMin: opts.judgeAlphaMin,
          history: historySourceTarget(opts.history, r.outDir, opts.cwd ?? process.cwd()),
        });
        return {
          notes: th.failures.map((fail) => `threshold failed: ${fail}`),
          lines: [th.line],
          failed: !th.ok,
        };
      },
    });
  if (env.GITHUB_STEP_SUMMARY)
    reporters.push({
      name: "step-summary",
      onExperimentEnd: async (r) => {
        const summaryFile = await appendStepSummary(
          renderStepSummary({
            experimentId: r.source.metadata?.experiment_id ?? null,
            treatments: treatmentsOf(r),
            reports: r.source.reports,
            comparison: r.comparison,
            thresholds: th,
            resultsLocation: r.outDir,
          }),
          env,
        );
        return { files: summaryFile ? [summaryFile] : [] };
      },
    });
  return { reporters, thresholds: () => th };
}
