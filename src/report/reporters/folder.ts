/**
 * The results folder's own reports, as reporters of the one lifecycle (runner/lifecycle.ts):
 * `calibration` (calibration.json of an A/A calibration folder), `summary` (summary.md and
 * runs.md), `comparison` (comparison_report.md and comparison.json) and `html`. The library
 * runs them at the end of every experiment (runner/finish.ts `writeExperimentReportsOf`).
 *
 * The calibration is recomputed in the pre-phase (`onResultsRead`): the comparison is built
 * after it and shows calibration.json (report/calibration/write.ts `findCalibrations`).
 */
import path from "node:path";
import { withBudgetSection } from "../budget-md.js";
import {
  RUN_DETAILS_FILE,
  RunDetailsText,
  renderSummaryFiles,
  renderSummaryOverview,
  type SummaryInput,
} from "../summary-md.js";
import { writeComparisonFiles } from "../comparison/write.js";
import { writeHtmlReports } from "../html/write.js";
import { refreshCalibration, writeCalibration } from "../calibration/write.js";
import { renderCalibrationSection } from "../calibration/render.js";
import type { Calibration, CalibrationSettings } from "../calibration/types.js";
import { unreadableRunsNote, withNoteAfterTitle } from "../unreadable.js";
import { isScripted } from "../../plan/fingerprint.js";
import { experimentPaths } from "../../store/layout.js";
import { removeReportFile, writeReportFile, writeReportPieces } from "../../store/report-files.js";
import type { RunDigest } from "../../core/digest.js";
import type { Reporter } from "./types.js";

export interface FolderReportOptions {
  ks?: number[] | undefined;
  /** false: no HTML pages */
  html?: boolean | undefined;
  /**
   * `calibrate`: calibration.json is written with these settings (else a calibration folder's
   * own is recomputed from the runs).
   */
  calibration?: CalibrationSettings | undefined;
}

/** What the last `--resume` asked for, when metadata.json records it (run-suite.ts). */
function resumeNote(meta: unknown): { asked: string; kept: number } | null {
  if (typeof meta !== "object" || meta === null || !("last_invocation" in meta)) return null;
  const inv = meta.last_invocation;
  if (typeof inv !== "object" || inv === null) return null;
  const asked = "asked" in inv && typeof inv.asked === "string" ? inv.asked : null;
  const kept =
    "kept_outside_request" in inv && typeof inv.kept_outside_request === "number"
      ? inv.kept_outside_request
      : 0;
  return asked === null ? null : { asked, kept };
}

/**
 * The folder's reporters, in the order they write: calibration, summary, comparison, html.
 * The summary shows the calibration its pre-phase recomputed; the listed files keep their
 * order (summary.md, calibration.json, runs.md, the comparison, the pages).
 */
export function folderReporters(opts: FolderReportOptions = {}): Reporter[] {
  let calibration: Calibration | null = null;
  const calibrationReporter: Reporter = {
    name: "calibration",
    onResultsRead: async ({ outDir, source }) => {
      const { reports, metadata } = source;
      calibration = opts.calibration
        ? await writeCalibration(outDir, opts.calibration, {
            reports,
            metadata,
            experimentId: metadata?.experiment_id ?? null,
          })
        : await refreshCalibration(outDir, reports, metadata);
    },
  };
  const summary: Reporter = {
    name: "summary",
    onExperimentEnd: async ({ outDir, source }) => {
      const { reports, metadata: meta } = source;
      const input: SummaryInput = {
        experimentId: meta?.experiment_id ?? path.basename(outDir),
        startedAt: meta?.started_at ?? null,
        completedAt: meta?.completed_at ?? null,
        suite: meta ? `${meta.suite.path} (${meta.suite.hash.slice(0, 19)})` : null,
        agentVersion: meta?.versions.claude ?? reports[0]?.agent.version ?? null,
        model: meta?.model ?? null,
        treatments: meta?.treatments ?? [],
        reports,
        ks: opts.ks,
        scripted: isScripted(reports, meta),
        resume: resumeNote(meta),
        health: meta?.health,
      };
      // Above RUN_DETAILS_LIMIT runs the per-run sections go to runs.md, written a piece at a
      // time; at or below it they are in summary.md, and a runs.md left from an earlier, larger
      // rendering would be stale.
      const runsPath = path.join(outDir, RUN_DETAILS_FILE);
      let summaryText = renderSummaryOverview(input);
      const runsFile = summaryText !== null;
      if (summaryText === null) {
        summaryText = renderSummaryFiles(input).summary;
        await removeReportFile(runsPath);
      } else await writeRunDetails(runsPath, input);
      summaryText = withNoteAfterTitle(summaryText, unreadableRunsNote(source.problems));
      summaryText = withBudgetSection(summaryText, meta?.budget, outDir);
      const paths = experimentPaths(outDir);
      // An A/A calibration folder (`skillbench calibrate`): its calibration, recomputed from these
      // runs in the pre-phase, is a section of summary.md.
      await writeReportFile(
        paths.summary,
        calibration
          ? `${summaryText.trimEnd()}\n\n${renderCalibrationSection(calibration)}`
          : summaryText,
      );
      const files = [paths.summary];
      if (calibration) files.push(path.join(outDir, "calibration.json"));
      if (runsFile) files.push(runsPath);
      return { files };
    },
  };
  const comparison: Reporter = {
    name: "comparison",
    // With two or more treatments, the comparison comes with every run's reports.
    onExperimentEnd: async ({ outDir, source, comparison: c }) => ({
      files: c ? await writeComparisonFiles(outDir, source, c) : [],
    }),
  };
  const reporters = [calibrationReporter, summary, comparison];
  if (opts.html !== false)
    reporters.push({
      name: "html",
      onExperimentEnd: async ({ outDir, source, comparison: c }) => ({
        files: await writeHtmlReports(outDir, {
          loaded: { ...source, comparison: c, hasComparisonFile: c !== null },
        }),
      }),
    });
  return reporters;
}

/** runs.md, written a piece at a time (it is megabytes long at thousands of runs). */
async function writeRunDetails(file: string, input: SummaryInput): Promise<void> {
  await writeReportPieces(file, runDetailPieces(input));
}

/**
 * Runs per piece of runs.md: a piece stays a short-lived string (about 100 KB), which the
 * young generation's collections free, where pieces of megabytes pile up until a full one.
 */
const RUNS_PER_PIECE = 100;

/** runs.md's text in pieces of up to RUNS_PER_PIECE runs (RunDetailsText). */
function* runDetailPieces(input: SummaryInput): Generator<string> {
  const details = new RunDetailsText(input);
  let pieces: string[] = [];
  const out = (t: string): void => void pieces.push(t);
  const take = (): string => {
    const text = pieces.join("");
    pieces = [];
    return text;
  };
  details.start(out);
  for (const t of details.treatments) {
    details.treatment(t, out);
    // The treatment's runs, RUNS_PER_PIECE at a time (RunDetailsText.runs: searched at once).
    let batch: RunDigest[] = [];
    for (const r of input.reports) {
      if (r.treatment !== t) continue;
      batch.push(r);
      if (batch.length === RUNS_PER_PIECE) {
        details.runs(batch, out);
        batch = [];
        yield take();
      }
    }
    if (batch.length > 0) {
      details.runs(batch, out);
      yield take();
    }
  }
  details.end(out);
  yield take();
}
