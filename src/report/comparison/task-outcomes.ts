import type { RunDigest } from "../../core/digest.js";
import { metricSuccess } from "../outcomes.js";
import type { TaskOutcomeRow } from "./types.js";

/** Per task × treatment: passed/total over ALL analysis-set runs (not the last run seen), and whether they disagree. */
export function taskOutcomeRows(
  analysis: RunDigest[],
  tasks: string[],
  treatments: string[],
): TaskOutcomeRow[] {
  return tasks.map((task) => {
    const cells: TaskOutcomeRow["cells"] = {};
    for (const t of treatments) {
      const runs = analysis.filter((r) => r.task === task && r.treatment === t);
      const c = runs.filter((r) => metricSuccess(r, "overall") === true).length;
      cells[t] = runs.length === 0 ? null : { c, n: runs.length, flip: c > 0 && c < runs.length };
    }
    return { task, cells };
  });
}
