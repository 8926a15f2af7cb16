/**
 * The warnings every experiment report shows about the LLM judge (summary.md, the comparison,
 * the HTML header): one sentence each, none when there is nothing to say (so the reports of an
 * experiment without those conditions stay as they were). Pure.
 */
import type { RunDigest } from "../core/digest.js";
import { judgeStatusOf, judgeStatusSentence } from "./judge-status.js";
import { verbosityRows, verbositySentence } from "./judge-verbosity.js";
import { treatmentOrder } from "../plan/group.js";

/** The notes as plain sentences (the HTML header and comparison.json carry these). */
export function judgeNotes(reports: readonly RunDigest[]): string[] {
  const notes: string[] = [];
  const status = judgeStatusSentence(judgeStatusOf(reports));
  if (status !== null) notes.push(status);
  const verbosity = verbositySentence(verbosityRows(reports, treatmentOrder([...reports], [])));
  if (verbosity !== null) notes.push(verbosity);
  return notes;
}

/** The notes as markdown block quotes, each after an empty line; [] when there are none. */
export function judgeNoteLines(reports: readonly RunDigest[]): string[] {
  return judgeNotes(reports).flatMap((n) => ["", `> ⚠️ ${n}`]);
}
