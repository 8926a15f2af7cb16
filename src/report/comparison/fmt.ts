/** Formatting helpers of the comparison report. Pure. */
import { f2 } from "../format.js";

/** +0.20 / −0.05 style (never "-0.00"); "—" for null. */
export function signed(x: number | null | undefined): string {
  if (x === null || x === undefined || Number.isNaN(x)) return "—";
  const s = x.toFixed(2);
  if (s === "-0.00" || !s.startsWith("-")) return `+${s.replace(/^-/, "")}`;
  return s;
}

/** A ratio as a whole percentage: 0.8 → "80%". */
export function percent(x: number | null | undefined): string {
  return x === null || x === undefined || Number.isNaN(x) ? "—" : `${Math.round(100 * x)}%`;
}

/** p-values: 3 decimals, "<0.001" below. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return "—";
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}

export function interval(iv: { low: number; high: number } | null | undefined): string {
  return iv ? `[${f2(iv.low)}, ${f2(iv.high)}]` : "—";
}
