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

/**
 * A rendering that grows with the runs (runs.md, comparison.json, the HTML pages), written a
 * piece at a time and atomically: each piece goes into the writer's buffer at once, and every
 * full megabyte is on disk before the next piece is made, so the whole text is never in memory;
 * a failure leaves no temporary file behind.
 */
export async function writeReportPieces(file: string, pieces: Iterable<string>): Promise<void> {
  const out = await AtomicFileWriter.create(file);
  try {
    for (const piece of pieces) {
      out.write(piece);
      await out.drained();
    }
  } catch (e) {
    await out.abort();
    throw e;
  }
  await out.commit();
}
