import { experimentPaths } from "../store/layout.js";
import type { RunDigest } from "../core/digest.js";
import {
  RUN_DETAILS_FILE,
  RunDetailsText,
  renderSummaryFiles,
  renderSummaryOverview,
  type SummaryInput,
} from "../report/summary-md.js";
import {
  readComparisonSource,
  writeComparisonOf,
  type Comparison,
} from "../report/comparison/index.js";
import type { ComparisonSource } from "../report/comparison/write.js";
import { writeHtmlReports } from "../report/html/write.js";
import { removeReportFile, writeReportFile, writeReportPieces } from "../store/report-files.js";
import { InputError } from "../core/errors.js";
import path from "node:path";
import { isScripted } from "../plan/fingerprint.js";
import { refreshCalibration } from "../report/calibration/write.js";
import { renderCalibrationSection } from "../report/calibration/render.js";
import { unreadableRunsNote, withNoteAfterTitle } from "../report/unreadable.js";

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
 * Render the experiment-level reports from what is stored (report.json files and
 * metadata.json). Used at the end of `run` and by `report`: no agent runs.
 */
export async function writeExperimentReports(
  outDir: string,
  opts: { ks?: number[] | undefined; html?: boolean | undefined } = {},
): Promise<string[]> {
  return (await writeExperimentReportsOf(outDir, opts)).files;
}

/**
 * writeExperimentReports, with the comparison the reports were made from (null with fewer than
 * two treatments), so a command prints the verdict block from the very object it wrote.
 */
export async function writeExperimentReportsWith(
  outDir: string,
  opts: { ks?: number[] | undefined; html?: boolean | undefined } = {},
): Promise<{ files: string[]; comparison: Comparison | null; source: ComparisonSource }> {
  const { files, comparison, source } = await writeExperimentReportsOf(outDir, opts);
  return { files, comparison, source };
}

/**
 * writeExperimentReports, with the digests of the runs the reports were made from (sorted by task,
 * treatment, rep) and the one reading of the folder they came from (`source`), which the end of a
 * command hands on to its reporters (runner/lifecycle.ts) instead of reading the folder again.
 */
export async function writeExperimentReportsOf(
  outDir: string,
  opts: { ks?: number[] | undefined; html?: boolean | undefined } = {},
): Promise<{
  files: string[];
  reports: RunDigest[];
  comparison: Comparison | null;
  source: ComparisonSource;
}> {
  const paths = experimentPaths(outDir);
  // The folder is read once; every report below is made from this one reading.
  const source = await readComparisonSource(outDir);
  const { reports, metadata: meta } = source;
  if (!meta && reports.length === 0)
    throw new InputError(
      `${outDir}: no metadata.json and no run reports: not a skillbench results folder`,
      { file: outDir },
    );
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
  // An A/A calibration folder (`skillbench calibrate`): recomputed from these runs, in summary.md.
  const calibration = await refreshCalibration(outDir, reports, meta);
  summaryText = withNoteAfterTitle(summaryText, unreadableRunsNote(source.problems));
  await writeReportFile(
    paths.summary,
    calibration
      ? `${summaryText.trimEnd()}\n\n${renderCalibrationSection(calibration)}`
      : summaryText,
  );
  const files = [paths.summary];
  if (calibration) files.push(path.join(outDir, "calibration.json"));
  if (runsFile) files.push(runsPath);
  // With two or more treatments, the comparison comes with every run's reports.
  let comparison: Comparison | null = null;
  if (new Set(reports.map((r) => r.treatment)).size >= 2) {
    const written = await writeComparisonOf(outDir, source, { ks: opts.ks });
    files.push(...written.files);
    comparison = written.comparison;
  }
  if (opts.html !== false)
    files.push(
      ...(await writeHtmlReports(outDir, {
        loaded: { ...source, comparison, hasComparisonFile: comparison !== null },
      })),
    );
  return { files, reports, comparison, source };
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
  let n = 0;
  for (const t of details.treatments) {
    details.treatment(t, out);
    for (const r of input.reports) {
      if (r.treatment !== t) continue;
      details.run(r, out);
      if (++n % RUNS_PER_PIECE === 0) yield take();
    }
  }
  details.end(out);
  yield take();
}
