/**
 * What splitting a comparison by an axis (agent: agents.ts, model: models.ts) does the same way
 * for each axis. Pure.
 */
import type { RunDigest } from "../../core/digest.js";

/**
 * The treatments (of those given, in their order) whose runs took more than one value of the
 * axis `valueOf`, with the runs of each value, values in first-seen order.
 */
export function mixedRunsOf(
  reports: readonly RunDigest[],
  treatments: readonly string[],
  valueOf: (r: RunDigest) => string,
): { treatment: string; runs: [value: string, runs: number][] }[] {
  // Runs per value of each treatment, in one pass.
  const runsOf = new Map<string, Map<string, number>>();
  for (const r of reports) {
    let per = runsOf.get(r.treatment);
    if (!per) runsOf.set(r.treatment, (per = new Map<string, number>()));
    per.set(valueOf(r), (per.get(valueOf(r)) ?? 0) + 1);
  }
  const out: { treatment: string; runs: [string, number][] }[] = [];
  for (const t of treatments) {
    const per = runsOf.get(t);
    if (per && per.size > 1) out.push({ treatment: t, runs: [...per] });
  }
  return out;
}
