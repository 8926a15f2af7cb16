import type { ParsedScore } from "./parse.js";
import type { JudgeDimension, JudgeSpread } from "./types.js";

/** Combines the verdicts of several samples per dimension: mean, min, max, sample stdev. Pure. */

function spreadOf(xs: readonly number[]): JudgeSpread {
  if (xs.length === 0) return { min: 0, max: 0, stdev: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance =
    xs.length > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { min: Math.min(...xs), max: Math.max(...xs), stdev: Math.sqrt(variance) };
}

/** One dimension per known name that at least one sample scored, in `dims` order. */
export function aggregateVerdicts(
  dims: readonly string[],
  verdicts: readonly (readonly ParsedScore[])[],
): (JudgeDimension & { score: number })[] {
  const out: (JudgeDimension & { score: number })[] = [];
  for (const name of dims) {
    const hits = verdicts.flatMap((v) => v.filter((s) => s.name === name));
    if (hits.length === 0) continue;
    const samples = hits.map((h) => h.score);
    const score = samples.reduce((a, b) => a + b, 0) / samples.length;
    out.push({ name, score, reason: hits[0]?.reason ?? "", samples, spread: spreadOf(samples) });
  }
  return out;
}
