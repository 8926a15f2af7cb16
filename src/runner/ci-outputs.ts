import path from "node:path";
import { experimentPaths } from "../store/layout.js";
import { readMetadata } from "../store/metadata.js";
import { readStoredRuns } from "../store/read.js";
import { junitPieces } from "../report/junit.js";
import { isScripted } from "../plan/fingerprint.js";
import { evaluateThresholds, parseThresholds, type ThresholdResult } from "../report/thresholds.js";
import { appendStepSummary, renderStepSummary } from "../report/step-summary.js";
import { writeReportPieces } from "../store/report-files.js";
import { buildComparison, type Comparison } from "../report/comparison/index.js";

export interface CiOptions {
  /** --junit FILE */
  junit?: string | undefined;
  /** --fail-under specs, e.g. ["pass@1=0.8", "weighted_score=0.7"] */
  failUnder?: string[] | undefined;
  /** Environment (GITHUB_STEP_SUMMARY). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface CiResult {
  files: string[];
  thresholds: ThresholdResult | null;
}

/**
 * The outputs for CI, from the stored results: JUnit XML, --fail-under
 * thresholds (with their one-line machine-readable result), and the summary
 * tables appended to $GITHUB_STEP_SUMMARY when it is set.
 */
export async function writeCiOutputs(outDir: string, opts: CiOptions): Promise<CiResult> {
  const thresholds =
    opts.failUnder && opts.failUnder.length > 0 ? parseThresholds(opts.failUnder) : null;
  const env = opts.env ?? process.env;
  if (!opts.junit && !thresholds && !env.GITHUB_STEP_SUMMARY)
    return { files: [], thresholds: null };
  const meta = await readMetadata(experimentPaths(outDir).metadata);
  const { digests: all } = await readStoredRuns(outDir);
  const planned = meta?.matrix ? new Set(meta.matrix.map((r) => r.run_id)) : null;
  const reports = planned ? all.filter((r) => planned.has(r.run_id)) : all;
  const treatments = meta?.treatments ?? [];
  const files: string[] = [];
  if (opts.junit) {
    const file = path.resolve(opts.cwd ?? process.cwd(), opts.junit);
    await writeReportPieces(
      file,
      junitPieces(reports, {
        treatments,
        name: meta?.experiment_id ?? path.basename(outDir),
        scripted: isScripted(reports, meta),
      }),
    );
    files.push(file);
  }
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
  const th = thresholds
    ? evaluateThresholds(thresholds, reports, {
        treatments,
        candidate: comparison?.roles.candidate ?? undefined,
      })
    : null;
  const summaryFile = await appendStepSummary(
    renderStepSummary({
      experimentId: meta?.experiment_id ?? null,
      treatments,
      reports,
      comparison,
      thresholds: th,
      resultsLocation: outDir,
    }),
    env,
  );
  if (summaryFile) files.push(summaryFile);
  return { files, thresholds: th };
}
