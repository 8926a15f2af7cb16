/** Small formatting helpers shared by the markdown renderers. Pure. */
import { dollars } from "../util/format.js";

const DIMENSION_ORDER = [
  "completion",
  "skill_invocation",
  "artifact_presence",
  "instruction_following",
  "interaction_compliance",
  "efficiency",
  "safety_boundary",
  "main_flow",
  "gate_guard",
  "spec_drift",
  "business_completion",
  "workflow_completion",
  "decision_point_compliance",
  "artifact_quality",
  "recovery_resilience",
  "generated_package",
  "resolved_skill_evidence",
  "engine_contract",
  "workflow_route_conformance",
  "authoring_lanes",
  "review_gate",
  "review_readiness",
];

export function orderDimensions(names: Iterable<string>): string[] {
  const set = new Set(names);
  const known = DIMENSION_ORDER.filter((d) => set.has(d));
  const extra = [...set].filter((d) => !DIMENSION_ORDER.includes(d)).sort();
  return [...known, ...extra];
}

export const f2 = (x: number | null | undefined): string =>
  x === null || x === undefined || Number.isNaN(x) ? "—" : x.toFixed(2);
export const pct = (num: number, den: number): string =>
  den === 0 ? "—" : `${((100 * num) / den).toFixed(1)}%`;
export const int = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : grouped(Math.round(x));

/**
 * `n.toLocaleString("en-US")` of an integer (digits in groups of three, `,` between), without
 * Intl's cost for the common case; -0, non-finite and unsafe integers go to Intl itself.
 */
function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
export const usd = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : dollars(x);
export const secs = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : `${x.toFixed(1)}s`;

/** Escape a value for a markdown table cell. */
export function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function table(header: string[], rows: string[][]): string {
  const out = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const r of rows) out.push(`| ${r.join(" | ")} |`);
  return out.join("\n");
}

export function meanOf(xs: Array<number | null | undefined>): number | null {
  const v = xs.filter((x): x is number => typeof x === "number" && !Number.isNaN(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

export function sumOf(xs: Array<number | null | undefined>): number | null {
  const v = xs.filter((x): x is number => typeof x === "number" && !Number.isNaN(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0);
}

/**
 * meanOf and sumOf of a stream of values, added one at a time: the same values (numbers that
 * are not NaN) added in the same order from 0, so the same floating-point results, without
 * building the arrays.
 */
export class Tally {
  private sum = 0;
  private n = 0;

  add(x: number | null | undefined): void {
    if (typeof x === "number" && !Number.isNaN(x)) {
      this.sum += x;
      this.n++;
    }
  }

  /** meanOf the values added */
  mean(): number | null {
    return this.n === 0 ? null : this.sum / this.n;
  }

  /** sumOf the values added */
  total(): number | null {
    return this.n === 0 ? null : this.sum;
  }
}
