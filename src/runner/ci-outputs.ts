import { readComparisonSource, type ComparisonSource } from "../report/comparison/write.js";
import { buildComparison, type Comparison } from "../report/comparison/index.js";
import type { ThresholdResult } from "../report/thresholds.js";
import {
  ciReporters,
  noCiOutputs,
  type CiOptions,
  type CiReporters,
} from "../report/reporters/ci.js";
import type { ExperimentResults } from "../report/reporters/types.js";
import { ReporterLifecycle } from "./lifecycle.js";

export type { CiOptions } from "../report/reporters/ci.js";

export interface CiResult {
  files: string[];
  thresholds: ThresholdResult | null;
}

/**
 * The outputs for CI, from a stored results folder: JUnit XML, --fail-under thresholds (with
 * their one-line machine-readable result), and the summary tables appended to
 * $GITHUB_STEP_SUMMARY when it is set. (The end of `run`, `eval` and `calibrate` runs the same
 * reporters over the reading the reports were written from: runner/lifecycle.ts.)
 */
export async function writeCiOutputs(outDir: string, opts: CiOptions): Promise<CiResult> {
  const ci = ciReporters(opts);
  if (noCiOutputs(opts)) return { files: [], thresholds: null };
  const source = await readComparisonSource(outDir);
  const { reports, metadata: meta } = source;
  // Rebuilt from the reports (pure and seeded), rather than trusting a stored file.
  let comparison: Comparison | null = null;
  if (new Set(reports.map((r) => r.treatment)).size >= 2) {
    try {
      // (the step summary and the thresholds do not read the per-run rows)
      comparison = buildComparison({
        reports,
        metadata: meta,
        margin: meta?.margin,
        sourceEvidence: false,
      });
    } catch {
      comparison = null;
    }
  }
  return endCiReporters(ci, { outDir, reports, source, comparison, gates: [] });
}

/**
 * writeCiOutputs over the reading and the comparison the folder's reports were just written
 * from (`skillbench report`: runner/finish.ts `writeExperimentReportsOf`): the folder is read
 * once and the comparison built once, and the step summary's verdict is comparison_report.md's.
 */
export async function writeCiOutputsFrom(
  outDir: string,
  read: { source: ComparisonSource; comparison: Comparison | null },
  opts: CiOptions,
): Promise<CiResult> {
  const ci = ciReporters(opts);
  if (noCiOutputs(opts)) return { files: [], thresholds: null };
  const { source, comparison } = read;
  return endCiReporters(ci, { outDir, reports: source.reports, source, comparison, gates: [] });
}

/** The CI reporters' end, and what they wrote. */
async function endCiReporters(ci: CiReporters, results: ExperimentResults): Promise<CiResult> {
  const outcomes = await new ReporterLifecycle(ci.reporters).end(results);
  return { files: outcomes.flatMap((o) => o.files ?? []), thresholds: ci.thresholds() };
}
