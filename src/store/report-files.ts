import { rm } from "node:fs/promises";
import { AtomicFileWriter, writeFileAtomic } from "../util/fs.js";

/**
 * The experiment-level renderings in a results folder (summary.md, runs.md, comparison_report.md
 * and .json, the HTML pages): built by report/, written here, atomically (a temporary file in the
 * same folder, then rename), so a reader never sees half a report.
 */
export async function writeReportFile(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text);
}

/** Remove a rendering that no longer applies (runs.md below its threshold). */
export async function removeReportFile(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** A rendering written in pieces (runs.md of a large experiment), atomically. */
export async function openReportFile(file: string): Promise<AtomicFileWriter> {
  return AtomicFileWriter.create(file);
}
