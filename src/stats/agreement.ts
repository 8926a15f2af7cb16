/**
 * Agreement between raters (docs/judge.md, "Calibration"): Cohen's κ for two raters
 * (nominal, or weighted for an ordinal scale), Krippendorff's α for any number of raters with
 * missing labels (nominal, ordinal, interval metrics), the confusion matrix of two raters, and a
 * seeded percentile bootstrap over the units. Pure.
 *
 * Undefined cases are null, not 1: κ when the chance agreement is 1 (both raters gave one and
 * the same category to every unit), α when there is no disagreement to expect (every pairable
 * value is the same, or no unit has two values). A coefficient is a ratio of observed to
 * expected disagreement, and "0 of 0" says nothing about whether the raters could tell good
 * from bad; a gate that needs α refuses a null (Krippendorff 2011 also leaves α undefined there).
 */
import { quantileSorted, type BootstrapOptions, type BootstrapResult } from "./bootstrap.js";
import { mulberry32 } from "./prng.js";

/** A rater's category index on an ordered scale 0 … levels-1; null: not labelled. */
export type Rating = number | null;

export type AlphaMetric = "nominal" | "ordinal" | "interval";

function assertScale(levels: number, values: Iterable<Rating>): void {
  if (!Number.isInteger(levels) || levels < 1)
    throw new RangeError(`levels must be a positive integer, got ${levels}`);
  for (const v of values)
    if (v !== null && (!Number.isInteger(v) || v < 0 || v >= levels))
      throw new RangeError(`a rating must be an integer in 0..${levels - 1}, got ${v}`);
}

/**
 * Cohen's κ of two raters over the units both labelled: κ = (p_o − p_e) / (1 − p_e), p_o the
 * share of units on which they agree, p_e = Σ_c p_A(c)·p_B(c) from each rater's own marginals.
 * With `weights` (an ordinal scale of `levels` ordered categories) the weighted κ:
 * κ_w = 1 − Σ v_ij·o_ij / Σ v_ij·e_ij, with disagreement weights v_ij = |i−j|/(levels−1)
 * (linear) or ((i−j)/(levels−1))² (quadratic), o the observed and e the chance cell shares.
 * Null: no unit labelled by both, or no disagreement to expect (p_e = 1, or Σ v·e = 0).
 */
export function cohensKappa(
  a: readonly Rating[],
  b: readonly Rating[],
  levels: number,
  weights: "none" | "linear" | "quadratic" = "none",
): number | null {
  if (a.length !== b.length)
    throw new RangeError(`κ needs two ratings per unit (${a.length} vs ${b.length})`);
  assertScale(levels, [...a, ...b]);
  const m = confusionCounts(a, b, levels);
  const n = m.total;
  if (n === 0) return null;
  const rowSum = m.counts.map((r) => r.reduce((s, x) => s + x, 0));
  const colSum = m.counts[0]?.map((_x, j) => m.counts.reduce((s, r) => s + (r[j] ?? 0), 0)) ?? [];
  const v = (i: number, j: number): number => {
    if (weights === "none" || levels === 1) return i === j ? 0 : 1;
    const d = Math.abs(i - j) / (levels - 1);
    return weights === "linear" ? d : d * d;
  };
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < levels; i++)
    for (let j = 0; j < levels; j++) {
      observed += (v(i, j) * (m.counts[i]?.[j] ?? 0)) / n;
      expected += (v(i, j) * (rowSum[i] ?? 0) * (colSum[j] ?? 0)) / (n * n);
    }
  // 1 − p_o/… written as disagreements: for weights "none" this is exactly (p_o − p_e)/(1 − p_e).
  if (expected <= 1e-12) return null;
  return 1 - observed / expected;
}

export interface Confusion {
  /** counts[i][j]: units rater A put in category i and rater B in j (both labelled). */
  counts: number[][];
  total: number;
  /** Share of the units on the diagonal; null when none. */
  agreement: number | null;
}

function confusionCounts(a: readonly Rating[], b: readonly Rating[], levels: number): Confusion {
  const counts = Array.from({ length: levels }, () => new Array<number>(levels).fill(0));
  let total = 0;
  let diagonal = 0;
  for (let u = 0; u < a.length; u++) {
    const x = a[u];
    const y = b[u];
    if (x === null || x === undefined || y === null || y === undefined) continue;
    const row = counts[x] as number[];
    row[y] = (row[y] ?? 0) + 1;
    total++;
    if (x === y) diagonal++;
  }
  return { counts, total, agreement: total === 0 ? null : diagonal / total };
}

/** The confusion matrix of two raters over the units both labelled (A: rows, B: columns). */
export function confusionMatrix(
  a: readonly Rating[],
  b: readonly Rating[],
  levels: number,
): Confusion {
  if (a.length !== b.length)
    throw new RangeError(
      `a confusion matrix needs two ratings per unit (${a.length} vs ${b.length})`,
    );
  assertScale(levels, [...a, ...b]);
  return confusionCounts(a, b, levels);
}

/**
 * Krippendorff's α over units × raters (`units[u][r]`, null: rater r did not label unit u;
 * rows may differ in length). Computed from the coincidence matrix (Krippendorff 2011):
 * a unit with m_u ≥ 2 values adds 1/(m_u − 1) to o_ck for every ordered pair of its values
 * (c from one rater, k from another); units with fewer than two values are not pairable and
 * are left out. n_c = Σ_k o_ck, n = Σ_c n_c, and
 *   α = 1 − (n − 1) · Σ_{c,k} o_ck δ²_ck / Σ_{c,k} n_c n_k δ²_ck
 * with δ²_ck = [c ≠ k] (nominal), (c − k)² (interval on the category indices), or, ordinal,
 * (Σ_{g=c..k} n_g − (n_c + n_k)/2)² (the distance is how many values lie between, not the
 * indices). Null when nothing is pairable or every pairable value is the same (Σ n_c n_k δ² = 0).
 */
export function krippendorffAlpha(
  units: readonly (readonly Rating[])[],
  levels: number,
  metric: AlphaMetric,
): number | null {
  assertScale(levels, units.flat());
  const o = Array.from({ length: levels }, () => new Array<number>(levels).fill(0));
  for (const unit of units) {
    const values = unit.filter((v): v is number => v !== null);
    const m = values.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const row = o[values[i] as number] as number[];
        const k = values[j] as number;
        row[k] = (row[k] ?? 0) + 1 / (m - 1);
      }
  }
  const nc = o.map((r) => r.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  if (n === 0) return null;
  const delta2 = (c: number, k: number): number => {
    if (metric === "nominal") return c === k ? 0 : 1;
    if (metric === "interval") return (c - k) * (c - k);
    const lo = Math.min(c, k);
    const hi = Math.max(c, k);
    let between = 0;
    for (let g = lo; g <= hi; g++) between += nc[g] ?? 0;
    const d = between - ((nc[c] ?? 0) + (nc[k] ?? 0)) / 2;
    return d * d;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < levels; c++)
    for (let k = 0; k < levels; k++) {
      if (c === k) continue;
      const d = delta2(c, k);
      observed += (o[c]?.[k] ?? 0) * d;
      expected += (nc[c] ?? 0) * (nc[k] ?? 0) * d;
    }
  if (expected <= 1e-12) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/**
 * Percentile bootstrap over units: each of B replicates draws as many units as there are,
 * with replacement (mulberry32 seeded: the same data, seed and B give the same interval), and
 * evaluates `statistic` on them; the interval is the (1−level)/2 and (1+level)/2 quantiles
 * (type 7, as src/stats/bootstrap.ts) of the replicates that were not null. Units are the
 * resampling grain: a labelled run (with every rater's label of it), so that raters stay paired.
 * Null when the statistic is null on the data or on every replicate.
 */
export function bootstrapUnits<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  options?: BootstrapOptions,
): BootstrapResult | null {
  const replicates = options?.replicates ?? 2000;
  const seed = options?.seed ?? 1;
  const level = options?.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1)
    throw new RangeError(`replicates must be a positive integer, got ${replicates}`);
  const estimate = units.length === 0 ? null : statistic(units);
  if (estimate === null) return null;
  const rng = mulberry32(seed);
  const values: number[] = [];
  const sample = new Array<T>(units.length);
  for (let b = 0; b < replicates; b++) {
    for (let i = 0; i < units.length; i++) sample[i] = units[Math.floor(rng() * units.length)] as T;
    const v = statistic(sample);
    if (v !== null) values.push(v);
  }
  if (values.length === 0) return null;
  values.sort((x, y) => x - y);
  return {
    estimate,
    low: quantileSorted(values, (1 - level) / 2),
    high: quantileSorted(values, (1 + level) / 2),
    level,
    replicates,
    valid_replicates: values.length,
    seed,
  };
}
