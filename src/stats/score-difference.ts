/**
 * A regression test for a difference of mean scores in [0, 1] between two arms, with runs
 * grouped by task (docs/statistics.md §9, "Rubric regressions"), and Holm's step-down correction
 * over a family of such tests. Pure.
 *
 * Δ = pooled mean of arm a − pooled mean of arm b, over the tasks both arms scored. Its standard
 * error is the larger of
 * - the task-clustered one (T ≥ 2 tasks): V = T/(T−1) Σ u_i², u_i = (S_ai − m_a n_ai)/N_a −
 *   (S_bi − m_b n_bi)/N_b (the linearised contribution of task i), T − 1 degrees of freedom, and
 * - Welch's over the runs as if independent (both arms ≥ 2 runs), Welch–Satterthwaite df,
 * and the interval is the hull of those t intervals and Newcombe's hybrid score interval on the
 * two means read as proportions of their runs (scores lie in [0, 1]; with no spread observed — 2
 * runs of 1.00 against 2 of 0.50 — it keeps the difference from looking certain, as it does for
 * the pass rate). So neither few tasks, nor few runs, nor a spread that happens to be 0 makes a
 * difference look certain. `regressionP` is the smallest α at which the interval at level 1 − α
 * lies below −margin (the two-sided convention of the pass-rate interval).
 */
import { normalQuantile } from "./normal.js";
import { tCritical } from "./student-t.js";

export interface ScoreDifference {
  delta: number;
  /** tasks both arms scored */
  tasks: number;
  /** the standard errors available, each with its degrees of freedom */
  errors: Array<{ se: number; df: number }>;
  /** the arms' pooled means and run counts (Newcombe's interval reads them) */
  a: { mean: number; n: number };
  b: { mean: number; n: number };
}

/** Per task, the scores of its runs (index i is the same task in both arms). */
export function scoreDifference(a: number[][], b: number[][]): ScoreDifference | null {
  let na = 0;
  let sa = 0;
  let nb = 0;
  let sb = 0;
  let tasks = 0;
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) {
    const x = a[i] ?? [];
    const y = b[i] ?? [];
    if (x.length === 0 || y.length === 0) continue;
    tasks++;
    na += x.length;
    nb += y.length;
    for (const v of x) sa += v;
    for (const v of y) sb += v;
  }
  if (tasks === 0) return null;
  const ma = sa / na;
  const mb = sb / nb;
  const errors: ScoreDifference["errors"] = [];
  if (tasks >= 2) {
    let ss = 0;
    for (let i = 0; i < len; i++) {
      const x = a[i] ?? [];
      const y = b[i] ?? [];
      if (x.length === 0 || y.length === 0) continue;
      const u =
        (x.reduce((s, v) => s + v, 0) - ma * x.length) / na -
        (y.reduce((s, v) => s + v, 0) - mb * y.length) / nb;
      ss += u * u;
    }
    errors.push({ se: Math.sqrt((tasks / (tasks - 1)) * ss), df: tasks - 1 });
  }
  if (na >= 2 && nb >= 2) {
    const variance = (xs: number[][], m: number, n: number): number => {
      let s = 0;
      for (let i = 0; i < len; i++) {
        const x = xs[i] ?? [];
        if ((a[i] ?? []).length === 0 || (b[i] ?? []).length === 0) continue;
        for (const v of x) s += (v - m) ** 2;
      }
      return s / (n - 1);
    };
    const qa = variance(a, ma, na) / na;
    const qb = variance(b, mb, nb) / nb;
    const se = Math.sqrt(qa + qb);
    const dfRaw = se === 0 ? 1 : (qa + qb) ** 2 / (qa ** 2 / (na - 1) + qb ** 2 / (nb - 1));
    errors.push({ se, df: Math.max(1, Math.floor(dfRaw)) });
  }
  return { delta: ma - mb, tasks, errors, a: { mean: ma, n: na }, b: { mean: mb, n: nb } };
}

/** Wilson's score interval of a proportion p of n (p may be a mean score in [0, 1]). */
function wilson(p: number, n: number, z: number): { low: number; high: number } {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The interval at two-sided level 1 − alpha: the hull of the t intervals and Newcombe's, within [−1, 1]. */
export function scoreInterval(
  d: ScoreDifference,
  alpha: number,
): { low: number; high: number; level: number } {
  let low = d.delta;
  let high = d.delta;
  for (const { se, df } of d.errors) {
    const half = tCritical(alpha, df) * se;
    low = Math.min(low, d.delta - half);
    high = Math.max(high, d.delta + half);
  }
  const z = -normalQuantile(alpha / 2);
  const wa = wilson(Math.min(1, Math.max(0, d.a.mean)), d.a.n, z);
  const wb = wilson(Math.min(1, Math.max(0, d.b.mean)), d.b.n, z);
  low = Math.min(low, d.delta - Math.hypot(d.a.mean - wa.low, wb.high - d.b.mean));
  high = Math.max(high, d.delta + Math.hypot(wa.high - d.a.mean, d.b.mean - wb.low));
  return { low: Math.max(-1, low), high: Math.min(1, high), level: 1 - alpha };
}

/**
 * p of "no regression beyond the margin": the smallest α at which the interval at level 1 − α lies
 * below −margin (the interval narrows as α grows), by bisection; 1 when none does.
 */
export function regressionP(d: ScoreDifference, margin: number): number {
  const below = (alpha: number): boolean => scoreInterval(d, alpha).high < -margin;
  const top = 1 - 1e-9;
  if (!below(top)) return 1;
  let lo = 1e-12;
  if (below(lo)) return lo;
  let hi = top;
  for (let i = 0; i < 60; i++) {
    const mid = Math.sqrt(lo * hi);
    if (below(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Holm's step-down procedure at family-wise level alpha: for p-values in any order, the level
 * each test is held to (alpha / (m − k) at its rank k among the m tests, smallest p first) and
 * whether it is rejected (every smaller p rejected too, and p ≤ its level).
 */
export function holm(ps: number[], alpha: number): Array<{ alpha: number; rejected: boolean }> {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const out = new Array<{ alpha: number; rejected: boolean }>(m);
  let open = true;
  order.forEach(({ p, i }, k) => {
    const level = alpha / (m - k);
    open = open && p <= level;
    out[i] = { alpha: level, rejected: open };
  });
  return out;
}
