/**
 * Ties are ties (docs/judge.md): does the judge's score rise with the length of what it read?
 * Per arm, Pearson's r between each judged run's mean judge score and its `answer_chars`; an arm
 * with r ≥ VERBOSITY_R over at least VERBOSITY_MIN_RUNS runs is flagged as a verbosity bias.
 * Within an arm the treatment is fixed, so a length–score correlation there is the judge's, not
 * the Skill's. Pure.
 */
import type { RunDigest } from "../core/digest.js";
import { pearson } from "../stats/correlation.js";
import { mean } from "../stats/descriptive.js";
import { analysisSet } from "./outcomes.js";

/** The flagging threshold on r (a strong positive correlation, Cohen's "large"). */
export const VERBOSITY_R = 0.5;
/** Fewer runs cannot show a correlation (two points always lie on a line). */
const VERBOSITY_MIN_RUNS = 3;

export interface VerbosityRow {
  treatment: string;
  /** runs with a judge score and a known answer length */
  runs: number;
  /** Pearson's r of mean judge score against answer length; null below 2 runs or without spread */
  r: number | null;
  flagged: boolean;
}

function meanScore(r: RunDigest): number | null {
  const s = (r.judge?.dimensions ?? []).flatMap((d) => (d.score === null ? [] : [d.score]));
  return mean(s);
}

/** One row per treatment with at least one run of known length; [] when none (older reports). */
export function verbosityRows(
  reports: readonly RunDigest[],
  treatments: readonly string[],
): VerbosityRow[] {
  const rows: VerbosityRow[] = [];
  for (const t of treatments) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const r of analysisSet([...reports])) {
      if (r.treatment !== t || r.judge?.status !== "enabled_and_successful") continue;
      const len = r.judge.answer_chars;
      const score = meanScore(r);
      if (len === null || score === null) continue;
      xs.push(len);
      ys.push(score);
    }
    if (xs.length === 0) continue;
    const r = pearson(xs, ys);
    rows.push({
      treatment: t,
      runs: xs.length,
      r,
      flagged: r !== null && xs.length >= VERBOSITY_MIN_RUNS && r >= VERBOSITY_R,
    });
  }
  return rows;
}

/** The note for flagged arms; null when none. */
export function verbositySentence(rows: readonly VerbosityRow[]): string | null {
  const flagged = rows.filter((r) => r.flagged);
  if (flagged.length === 0) return null;
  return `Possible verbosity bias: the judge's score rises with answer length in ${flagged
    .map((r) => `${r.treatment} (r = ${(r.r ?? 0).toFixed(2)} over ${r.runs} runs)`)
    .join(", ")}; r ≥ ${VERBOSITY_R} is flagged (docs/judge.md, "Ties are ties").`;
}
