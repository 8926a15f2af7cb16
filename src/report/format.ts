/** Small formatting helpers shared by the markdown renderers. Pure. */
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
  x === null || x === undefined ? "—" : Math.round(x).toLocaleString("en-US");
export const usd = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : `$${x.toFixed(4)}`;
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
