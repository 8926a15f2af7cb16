import { InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "../report/comparison/index.js";
import { buildComparisonOf, type ComparisonSource } from "../report/comparison/write.js";
import { folderReporters, type FolderReportOptions } from "../report/reporters/folder.js";
import { readResults, ReporterLifecycle } from "./lifecycle.js";

/**
 * Render the experiment-level reports from what is stored (report.json files and
 * metadata.json). Used at the end of `run` and by `report`: no agent runs.
 */
export async function writeExperimentReports(
  outDir: string,
  opts: FolderReportOptions = {},
): Promise<string[]> {
  return (await writeExperimentReportsOf(outDir, opts)).files;
}

/**
 * writeExperimentReports, with the digests of the runs the reports were made from (sorted by task,
 * treatment, rep) and the one reading of the folder they came from (`source`), which the end of a
 * command hands on to its reporters (runner/lifecycle.ts) instead of reading the folder again.
 * The folder's reporters (report/reporters/folder.ts) run through the lifecycle: the reading and
 * its pre-phase (the calibration), the one comparison, then their end.
 */
export async function writeExperimentReportsOf(
  outDir: string,
  opts: FolderReportOptions = {},
): Promise<{
  files: string[];
  reports: RunDigest[];
  comparison: Comparison | null;
  source: ComparisonSource;
}> {
  const reporters = folderReporters(opts);
  const { source, comparison } = await readResults(
    outDir,
    reporters,
    // With two or more treatments, the comparison comes with every run's reports.
    async (s) =>
      new Set(s.reports.map((r) => r.treatment)).size >= 2
        ? buildComparisonOf(outDir, s, { ks: opts.ks })
        : null,
    ({ reports, metadata }) => {
      if (!metadata && reports.length === 0)
        throw new InputError(
          `${outDir}: no metadata.json and no run reports: not a skillbench results folder`,
          { file: outDir },
        );
    },
  );
  const outcomes = await new ReporterLifecycle(reporters).end({
    outDir,
    reports: source.reports,
    source,
    comparison,
    gates: [],
  });
  return {
    files: outcomes.flatMap((o) => o.files ?? []),
    reports: source.reports,
    comparison,
    source,
  };
}
