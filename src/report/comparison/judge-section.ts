/**
 * The comparison's `judge` section (docs/judge.md): the judge's status over the runs and the
 * notes every report shows. Absent from the comparison when no run was judged, so the reports
 * of an experiment without the judge are unchanged. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import { judgeNotes } from "../judge-notes.js";
import { judgeStatusOf } from "../judge-status.js";
import type { JudgeSection } from "./types.js";

export function judgeSection(reports: readonly RunDigest[]): JudgeSection | undefined {
  const status = judgeStatusOf(reports);
  if (status === null) return undefined;
  return { ...status, notes: judgeNotes(reports) };
}

/** The notes as the comparison report's block quotes (after its header); null when none. */
export function renderJudgeNotes(j: JudgeSection | undefined): string | null {
  if (!j || j.notes.length === 0) return null;
  return j.notes.map((n) => `> ⚠️ ${n}`).join("\n>\n");
}
