import { globToRegExp, isGlob } from "../scoring/glob.js";
import { compileRegex, type Step, type Steps } from "./schema.js";
import type { TrajectoryCall } from "./trajectory.js";

/**
 * The step matcher (docs/trajectory.md): which declared steps of a Skill one run's trajectory
 * met, at which tool call, and why the others were not. Pure.
 *
 * A step matches a call when every condition it gives holds on that one call. A failed call
 * can still be the `tool`, `args` or `command` step it attempted, never a `writes` or
 * `reads_skill_file` step (nothing was written or read).
 */

export interface StepResult {
  label: string;
  matched: boolean;
  /** Index in `evidence.tool_calls` of the call that met the step; null when none did. */
  call: number | null;
  tool: string | null;
  /** Why an expected step was not met (or null). */
  why: string | null;
}

export interface StepsMatch {
  ordered: boolean;
  expected: StepResult[];
  /** Expected steps met. */
  met: number;
  /** One per forbidden step; `matched` = the forbidden step happened. */
  forbidden: StepResult[];
  violated: number;
}

/** The step's name, else its conditions: `tool Bash · command /pytest/`. */
function stepLabel(s: Step): string {
  if (s.name !== undefined) return s.name;
  const parts: string[] = [];
  if (s.tool !== undefined) parts.push(`tool ${s.tool}`);
  for (const [k, v] of Object.entries(s.args ?? {})) parts.push(`args.${k} /${v}/`);
  if (s.command !== undefined) parts.push(`command /${s.command}/`);
  if (s.writes !== undefined) parts.push(`writes ${s.writes}`);
  if (s.reads_skill_file !== undefined) parts.push(`reads_skill_file ${s.reads_skill_file}`);
  return parts.join(" · ");
}

function pathTest(pattern: string): (p: string) => boolean {
  const clean = (p: string): string => p.replace(/^\.\//, "");
  if (!isGlob(pattern)) return (p) => clean(p) === clean(pattern);
  const re = globToRegExp(clean(pattern));
  return (p) => re.test(clean(p));
}

function argText(v: unknown): string | null {
  if (v === undefined) return null;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A predicate over one call for this step (regexes compiled once). */
function stepMatcher(s: Step): (c: TrajectoryCall) => boolean {
  const args = Object.entries(s.args ?? {}).map(([k, v]) => [k, compileRegex(v)] as const);
  const command = s.command === undefined ? null : compileRegex(s.command);
  const writes = s.writes === undefined ? null : pathTest(s.writes);
  const reads = s.reads_skill_file === undefined ? null : pathTest(s.reads_skill_file);
  return (c) => {
    if (s.tool !== undefined && c.tool !== s.tool && c.kind !== s.tool) return false;
    for (const [k, re] of args) {
      const t = argText(c.input[k]);
      if (t === null || !re.test(t)) return false;
    }
    if (command !== null && (c.command === null || !command.test(c.command))) return false;
    if (writes !== null) {
      if (c.failed || !(c.kind === "write" || c.kind === "edit" || c.kind === "patch"))
        return false;
      if (!c.paths.some(writes)) return false;
    }
    if (reads !== null) {
      if (c.failed || !c.skill_files.some((f) => reads(f.path))) return false;
    }
    return true;
  };
}

const at = (calls: readonly TrajectoryCall[], i: number): string =>
  `#${i + 1} (${calls[i]?.tool ?? "?"})`;

/** Met expected steps as an ordered subsequence, as many as possible: step index → call index. */
function orderedAssignment(hits: readonly (readonly number[])[]): Map<number, number> {
  const n = hits.length;
  // best[i](j): most steps of i.. met with calls from j on. Taking a step at its first hit
  // from j on is never worse than a later hit, so only that choice is tried.
  const memo = new Map<string, number>();
  const firstFrom = (i: number, j: number): number | undefined => hits[i]?.find((k) => k >= j);
  const best = (i: number, j: number): number => {
    if (i >= n) return 0;
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const k = firstFrom(i, j);
    const v = Math.max(best(i + 1, j), k === undefined ? 0 : 1 + best(i + 1, k + 1));
    memo.set(key, v);
    return v;
  };
  const out = new Map<number, number>();
  let j = 0;
  for (let i = 0; i < n; i++) {
    const k = firstFrom(i, j);
    if (k !== undefined && 1 + best(i + 1, k + 1) === best(i, j)) {
      out.set(i, k);
      j = k + 1;
    }
  }
  return out;
}

export function matchSteps(spec: Steps, calls: readonly TrajectoryCall[]): StepsMatch {
  const hitsOf = (s: Step): number[] => {
    const m = stepMatcher(s);
    return calls.filter(m).map((c) => c.index);
  };
  const hits = spec.expect.map(hitsOf);
  const chosen = spec.ordered
    ? orderedAssignment(hits)
    : new Map(hits.flatMap((h, i) => (h[0] === undefined ? [] : [[i, h[0]] as const])));
  const expected = spec.expect.map((s, i): StepResult => {
    const call = chosen.get(i);
    if (call !== undefined)
      return {
        label: stepLabel(s),
        matched: true,
        call,
        tool: calls[call]?.tool ?? null,
        why: null,
      };
    const h = hits[i] ?? [];
    const why =
      h.length === 0
        ? "no tool call matches"
        : `out of order: only ${h.map((k) => at(calls, k)).join(", ")} match${h.length === 1 ? "es" : ""}`;
    return { label: stepLabel(s), matched: false, call: null, tool: null, why };
  });
  const forbidden = spec.forbidden.map((s): StepResult => {
    const h = hitsOf(s)[0];
    return h === undefined
      ? { label: stepLabel(s), matched: false, call: null, tool: null, why: null }
      : { label: stepLabel(s), matched: true, call: h, tool: calls[h]?.tool ?? null, why: null };
  });
  return {
    ordered: spec.ordered,
    expected,
    met: expected.filter((r) => r.matched).length,
    forbidden,
    violated: forbidden.filter((r) => r.matched).length,
  };
}
