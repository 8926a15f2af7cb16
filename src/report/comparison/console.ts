/**
 * The verdict block `run`, `eval` and `compare` print on the console: every line is one of the
 * comparison's decision fields (band and reason, the decision's interval and its method, the noise
 * sentence, the sign test beside it, what would resolve it, the noise floor), so the console says
 * what comparison_report.md, the HTML page and comparison.json say. Pure.
 */
import { renderNoiseFloor } from "../calibration/render.js";
import { deltaText } from "./band.js";
import type { Comparison } from "./types.js";

/** Markdown emphasis and code marks dropped for the console. */
function plainText(md: string): string {
  return md.replace(/\*\*|`/g, "");
}

/** The verdict block, one line per statement (plain text, no indentation). */
export function verdictLines(c: Comparison): string[] {
  const v = c.verdict;
  const lines = plainText(v.headline).split("\n");
  if (c.health) lines.push(c.health.line);
  lines.push(`Δ pass rate ${deltaText(v.delta, v.ci)}: ${plainText(v.method)}.`);
  lines.push(plainText(c.paired.conclusion));
  const e = v.exclusion;
  if (e.candidate.excluded > 0 || e.baseline.excluded > 0)
    lines.push(
      `Worst case, every excluded run counted as a failure: ${deltaText(v.worst_case.delta, v.worst_case.ci)} (same method).`,
    );
  if (c.noise_floor) lines.push(plainText(renderNoiseFloor(c.noise_floor, v.delta)));
  if (c.sequential?.plan) lines.push(plainText(c.sequential.plan));
  return lines;
}
