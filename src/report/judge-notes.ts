/**
 * The warnings every experiment report shows about the LLM judge (summary.md, the comparison,
 * the HTML header): one sentence each, none when there is nothing to say (so the reports of an
 * experiment without those conditions stay as they were). Pure.
 */
import type { RunDigest } from "../core/digest.js";
import { judgeStatusOf, judgeStatusSentence } from "./judge-status.js";
import { verbosityRows, verbositySentence } from "./judge-verbosity.js";
import { treatmentOrder } from "../plan/group.js";
import { agentFamily, modelFamily } from "../core/model-family.js";

/**
 * The same-family warning (docs/judge.md, "Independence"): the judge's model and the agent's are
 * of one known family. `judgeModel` overrides the runs' own judge (the pairwise judge's model).
 */
export function sameFamilySentence(
  reports: readonly RunDigest[],
  judgeModel?: string | null,
): string | null {
  const same = new Map<string, number>();
  for (const r of reports) {
    const model = judgeModel ?? (r.judge && r.judge.status !== "skipped" ? r.judge.model : null);
    const jf = modelFamily(model);
    if (jf === "unknown" || jf !== agentFamily(r.model, r.agent.name)) continue;
    const key = `${model ?? ""} judging ${r.agent.name}${r.model ? ` (${r.model})` : ""}, both ${jf}`;
    same.set(key, (same.get(key) ?? 0) + 1);
  }
  if (same.size === 0) return null;
  return `The LLM judge is of the same model family as the agent it judges: ${[...same]
    .map(([k, n]) => `${k}, ${n} run(s)`)
    .join(
      "; ",
    )}. Not an independent yardstick (docs/judge.md, "Independence"; \`--judge-independent\` refuses this).`;
}

/** The notes as plain sentences (the HTML header and comparison.json carry these). */
export function judgeNotes(reports: readonly RunDigest[]): string[] {
  const notes: string[] = [];
  const status = judgeStatusSentence(judgeStatusOf(reports));
  if (status !== null) notes.push(status);
  const verbosity = verbositySentence(verbosityRows(reports, treatmentOrder([...reports], [])));
  if (verbosity !== null) notes.push(verbosity);
  const family = sameFamilySentence(reports);
  if (family !== null) notes.push(family);
  return notes;
}

/** The notes as markdown block quotes, each after an empty line; [] when there are none. */
export function judgeNoteLines(reports: readonly RunDigest[]): string[] {
  return judgeNotes(reports).flatMap((n) => ["", `> ⚠️ ${n}`]);
}
