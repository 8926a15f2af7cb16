import type { RunDigest } from "../../core/digest.js";
import { metricSuccess } from "../outcomes.js";
import type { TaskOutcomeRow } from "./types.js";

/** Per task × treatment: passed/total over ALL analysis-set runs (not the last run seen), and whether they disagree. */
export function taskOutcomeRows(
  analysis: RunDigest[],
  tasks: string[],
  treatments: string[],
): TaskOutcomeRow[] {
  // One pass: per task × treatment, the runs and those that passed.
  const counts = new Map<string, Map<string, { c: number; n: number }>>();
  for (const r of analysis) {
    let perT = counts.get(r.task);
    if (!perT) counts.set(r.task, (perT = new Map<string, { c: number; n: number }>()));
    let k = perT.get(r.treatment);
    if (!k) perT.set(r.treatment, (k = { c: 0, n: 0 }));
    k.n++;
    if (metricSuccess(r, "overall") === true) k.c++;
  }
  return tasks.map((task) => {
    const cells: TaskOutcomeRow["cells"] = {};
    const perT = counts.get(task);
    for (const t of treatments) {
      const k = perT?.get(t);
      cells[t] = k === undefined ? null : { c: k.c, n: k.n, flip: k.c > 0 && k.c < k.n };
    }
    return { task, cells };
  });
}
