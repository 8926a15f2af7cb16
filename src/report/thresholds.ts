/**
 * `--fail-under` thresholds. Pure.
 *
 * A threshold is `[TREATMENT:]METRIC=MIN` (MIN in [0, 1]); several may be given:
 *   pass@K          task-macro pass@K (at least one of K runs passes), analysis set, overall metric
 *   pass^K          task-macro unbiased pass^K (all K runs pass)
 *   pass_rate       passed / runs over the analysis set (pooled)
 *   weighted_score  mean rubric weighted_score over the analysis set (runs without a rubric left out)
 *   judge.DIM       mean LLM-judge score of dimension DIM over the analysis set; not computable
 *                   (so failing) when the dimension is N/A on any analysis-set run (the judge
 *                   failed there: fail closed, judge-status.ts); refused without a judge calibration
 *                   (judge/calibration/require.ts, checked where the thresholds are evaluated)
 * TREATMENT is a treatment name, `*` for every treatment, or omitted for the candidate: the
 * `candidate` option, else the comparison default (first treatment that is not CONTROL), else
 * the only treatment. A value that cannot be computed (no runs, fewer than K runs per task)
 * fails the threshold. Comparison is `value >= MIN` (with a 1e-9 guard).
 */
import { InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import { CONTROL } from "../plan/roles.js";
import { meanOf } from "./format.js";
import { treatmentOrder } from "../plan/group.js";
import { analysisSet } from "./outcomes.js";
import { computePassK } from "./passk.js";
import { judgeDimensionValue } from "./judge-status.js";

type ThresholdMetric =
  | { kind: "pass_at_k"; k: number }
  | { kind: "pass_hat_k"; k: number }
  | { kind: "pass_rate" }
  | { kind: "weighted_score" }
  | { kind: "judge_dimension"; dimension: string };

export interface Threshold {
  /** the text as given */
  spec: string;
  /** null = the candidate; '*' = every treatment */
  treatment: string | null;
  metric: ThresholdMetric;
  min: number;
}

interface ThresholdCheck {
  spec: string;
  treatment: string;
  metric: string;
  value: number | null;
  min: number;
  ok: boolean;
}

export interface ThresholdResult {
  ok: boolean;
  checks: ThresholdCheck[];
  /** one human-readable line per failed check */
  failures: string[];
  /** `skillbench-result: {...}`: one line of JSON for CI logs */
  line: string;
}

export const RESULT_LINE_PREFIX = "skillbench-result: ";

function metricName(m: ThresholdMetric): string {
  if (m.kind === "pass_at_k") return `pass@${m.k}`;
  if (m.kind === "pass_hat_k") return `pass^${m.k}`;
  if (m.kind === "judge_dimension") return `judge.${m.dimension}`;
  return m.kind;
}

function bad(spec: string, why: string): InputError {
  return new InputError(
    `--fail-under ${spec}: ${why} (expected [TREATMENT:]METRIC=MIN with METRIC pass@K, pass^K, pass_rate, weighted_score or judge.DIMENSION, MIN in [0, 1])`,
    {
      field: "fail-under",
    },
  );
}

export function parseThreshold(spec: string): Threshold {
  const eq = spec.lastIndexOf("=");
  if (eq < 0) throw bad(spec, 'no "="');
  const left = spec.slice(0, eq).trim();
  const right = spec.slice(eq + 1).trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(right)) throw bad(spec, `MIN "${right}" is not a number`);
  const min = Number(right);
  if (min < 0 || min > 1) throw bad(spec, `MIN ${min} is outside [0, 1]`);
  // A judge dimension is `judge.DIM` (a colon would read as a treatment before it).
  if (/(^|:)\s*judge:/.test(left)) throw bad(spec, "a judge dimension is written judge.DIMENSION");
  const colon = left.lastIndexOf(":");
  const treatment = colon < 0 ? null : left.slice(0, colon).trim();
  if (treatment === "") throw bad(spec, 'empty treatment before ":"');
  const name = (colon < 0 ? left : left.slice(colon + 1)).trim();
  let metric: ThresholdMetric;
  const k = /^pass([@^])(\d+)$/.exec(name);
  if (k) {
    const n = Number(k[2]);
    if (!Number.isInteger(n) || n < 1) throw bad(spec, "K must be a positive integer");
    metric = k[1] === "@" ? { kind: "pass_at_k", k: n } : { kind: "pass_hat_k", k: n };
  } else if (name === "pass_rate" || name === "weighted_score") metric = { kind: name };
  else if (/^judge\.[a-z0-9_]+$/.test(name))
    metric = { kind: "judge_dimension", dimension: name.slice("judge.".length) };
  else throw bad(spec, `unknown metric "${name}"`);
  return { spec, treatment, metric, min };
}

export function parseThresholds(specs: string[]): Threshold[] {
  return specs.map(parseThreshold);
}

export interface EvaluateOptions {
  /** experiment treatment order (metadata.treatments) */
  treatments?: string[];
  /** the treatment an unqualified threshold applies to */
  candidate?: string;
}

/** The default target of an unqualified threshold. */
function defaultCandidate(treatments: string[]): string | null {
  return treatments.find((t) => t !== CONTROL) ?? treatments[0] ?? null;
}

/** The judge dimensions these thresholds gate on (each needs a calibration). */
export function judgeDimensionsOf(
  thresholds: Threshold[],
): Array<{ spec: string; dimension: string }> {
  return thresholds.flatMap((t) =>
    t.metric.kind === "judge_dimension" ? [{ spec: t.spec, dimension: t.metric.dimension }] : [],
  );
}

export function metricValue(
  reports: RunDigest[],
  treatment: string,
  m: ThresholdMetric,
): number | null {
  if (m.kind === "judge_dimension")
    return judgeDimensionValue(reports, treatment, m.dimension).value;
  if (m.kind === "pass_rate" || m.kind === "weighted_score") {
    const runs = analysisSet(reports).filter((r) => r.treatment === treatment);
    if (runs.length === 0) return null;
    if (m.kind === "pass_rate")
      return runs.filter((r) => r.checks_failed.length === 0).length / runs.length;
    return meanOf(runs.map((r) => r.rubric?.weighted_score));
  }
  const t = computePassK(reports, [treatment], [m.k]);
  if (!t.ks.includes(m.k)) return null; // no task has K runs
  const row = t.rows.find((r) => r.metric === "overall");
  if (!row) return null;
  return (m.kind === "pass_at_k" ? row.pass_at_k[m.k] : row.pass_hat_k_unbiased[m.k]) ?? null;
}

function fmt(x: number | null): string {
  return x === null ? "not computable" : x.toFixed(3);
}

/** Check thresholds against stored reports (the same runs the summary counts). */
export function evaluateThresholds(
  thresholds: Threshold[],
  reports: RunDigest[],
  opts: EvaluateOptions = {},
): ThresholdResult {
  const treatments = treatmentOrder(reports, opts.treatments ?? [CONTROL]);
  const candidate = opts.candidate ?? defaultCandidate(treatments);
  const checks: ThresholdCheck[] = [];
  const failures: string[] = [];
  for (const th of thresholds) {
    const targets = th.treatment === "*" ? treatments : [th.treatment ?? candidate];
    for (const t of targets) {
      const metric = metricName(th.metric);
      if (t === null || !treatments.includes(t)) {
        const label = t ?? "(no treatment)";
        checks.push({
          spec: th.spec,
          treatment: label,
          metric,
          value: null,
          min: th.min,
          ok: false,
        });
        failures.push(
          `${th.spec}: treatment ${label} has no runs (available: ${treatments.join(", ") || "none"})`,
        );
        continue;
      }
      const value = metricValue(reports, t, th.metric);
      const ok = value !== null && value >= th.min - 1e-9;
      checks.push({ spec: th.spec, treatment: t, metric, value, min: th.min, ok });
      if (!ok)
        failures.push(
          th.metric.kind === "judge_dimension" && value === null
            ? `${t} ${metric} is not computable: ${judgeDimensionValue(reports, t, th.metric.dimension).why}`
            : `${t} ${metric} = ${fmt(value)} < ${th.min}`,
        );
    }
  }
  const ok = failures.length === 0;
  const line = `${RESULT_LINE_PREFIX}${JSON.stringify({
    ok,
    runs: reports.length,
    passed: reports.filter((r) => r.passed).length,
    thresholds: checks.map((c) => ({
      treatment: c.treatment,
      metric: c.metric,
      value: c.value,
      min: c.min,
      ok: c.ok,
    })),
  })}`;
  return { ok, checks, failures, line };
}
