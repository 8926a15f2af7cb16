/**
 * The sequential decision rule of `run --until-decided` (docs/statistics.md §12). Pure.
 *
 * Repetitions come in rounds; after each round (a "look") the band is decided from an interval
 * for Δ pooled pass rate at a nominal level that an alpha-spending function hands out: look k at
 * information fraction t_k (repetitions so far / --max-count) may spend
 * α(t_k) − α(t_{k−1}) of the total α, two-sided. By the union bound the chance that any look
 * claims a difference that is not there is at most Σ (α(t_k) − α(t_{k−1})) ≤ α, whatever the
 * number of looks and wherever the experiment stops (conservative: it ignores the correlation
 * between looks that exact group-sequential boundaries exploit).
 */
import { normalQuantile, normalUpperTail } from "./normal.js";
import { tCritical } from "./student-t.js";
import { newcombeInterval } from "./wilson.js";

export type Band = "improved" | "non_inferior" | "regressed" | "inconclusive";

/**
 * The band of an interval for Δ (candidate − baseline) alone: improved when low > 0, regressed
 * when high < 0, non_inferior when low > −margin, else inconclusive.
 */
export function intervalBand(low: number, high: number, margin: number): Band {
  if (low > 0) return "improved";
  if (high < 0) return "regressed";
  if (low > -margin) return "non_inferior";
  return "inconclusive";
}

/** Lan–DeMets spending functions: O'Brien–Fleming-like (spends little early) or Pocock-like. */
export type Spending = "obrien_fleming" | "pocock";

/**
 * α spent up to information fraction t ∈ [0, 1] (two-sided):
 * O'Brien–Fleming-like 2 − 2Φ(z_{1−α/2}/√t); Pocock-like α·ln(1 + (e − 1)t).
 * Example α = 0.05, O'Brien–Fleming: t = 0.25 → 0.000089, 0.5 → 0.0056, 0.75 → 0.0236, 1 → 0.05.
 */
export function alphaSpent(t: number, alpha: number, spending: Spending): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(t > 0)) return 0;
  if (t >= 1) return alpha;
  if (spending === "pocock") return alpha * Math.log(1 + (Math.E - 1) * t);
  return 2 * normalUpperTail(-normalQuantile(alpha / 2) / Math.sqrt(t));
}

/** The nominal two-sided level of a look at fraction t after one at `previous` (0: the first). */
export function lookAlpha(t: number, previous: number, alpha: number, spending: Spending): number {
  return Math.max(0, alphaSpent(t, alpha, spending) - alphaSpent(previous, alpha, spending));
}

/** One arm's runs and passes per task (index i is the same task in both arms). */
export interface TaskCounts {
  n: ArrayLike<number>;
  c: ArrayLike<number>;
}

export interface SequentialInterval {
  /** pooled pass rate of a − that of b, over the tasks both arms ran */
  delta: number;
  low: number;
  high: number;
  /** tasks both arms ran */
  tasks: number;
}

/** Below this nominal level a look cannot claim anything: its interval is the whole [−1, 1]. */
const MIN_LOOK_ALPHA = 1e-15;

/**
 * The interval for Δ pooled pass rate at two-sided level 1 − alphaLook: the hull of
 * - Newcombe's hybrid score interval with z = z_{1−alphaLook/2} (runs as independent), and
 * - a task-clustered interval: Δ ± t_{T−1} · √V, V = T/(T−1) Σ_i u_i², with
 *   u_i = (cA_i − p̂A nA_i)/NA − (cB_i − p̂B nB_i)/NB (the linearised contribution of task i to
 *   Δ; T ≥ 2 tasks),
 * over the tasks with runs in both arms; null when there is none. Newcombe's keeps a small or
 * all-pass sample from looking certain; the clustered one widens it when the arms differ by task.
 */
export function sequentialInterval(
  a: TaskCounts,
  b: TaskCounts,
  alphaLook: number,
): SequentialInterval | null {
  let na = 0;
  let ca = 0;
  let nb = 0;
  let cb = 0;
  let tasks = 0;
  const len = Math.min(a.n.length, b.n.length);
  for (let i = 0; i < len; i++) {
    const ni = a.n[i] ?? 0;
    const mi = b.n[i] ?? 0;
    if (ni === 0 || mi === 0) continue;
    tasks++;
    na += ni;
    ca += a.c[i] ?? 0;
    nb += mi;
    cb += b.c[i] ?? 0;
  }
  if (tasks === 0) return null;
  const pa = ca / na;
  const pb = cb / nb;
  const delta = pa - pb;
  if (alphaLook < MIN_LOOK_ALPHA) return { delta, low: -1, high: 1, tasks };
  const z = -normalQuantile(alphaLook / 2);
  const nc = newcombeInterval(ca, na, cb, nb, z);
  let low = nc?.low ?? -1;
  let high = nc?.high ?? 1;
  if (tasks >= 2) {
    let ss = 0;
    for (let i = 0; i < len; i++) {
      const ni = a.n[i] ?? 0;
      const mi = b.n[i] ?? 0;
      if (ni === 0 || mi === 0) continue;
      const u = ((a.c[i] ?? 0) - pa * ni) / na - ((b.c[i] ?? 0) - pb * mi) / nb;
      ss += u * u;
    }
    const half = tCritical(alphaLook, tasks - 1) * Math.sqrt((tasks / (tasks - 1)) * ss);
    low = Math.min(low, delta - half);
    high = Math.max(high, delta + half);
  }
  return { delta, low: Math.max(-1, low), high: Math.min(1, high), tasks };
}

/**
 * Whether `run --until-decided` stops after a look with this band and interval: a claim of a
 * difference (improved, regressed), or non-inferiority whose interval also stays below +margin
 * (no difference beyond the margin either way). A non-inferior interval that still reaches above
 * +margin keeps going, since an improvement may yet show; the last round stops regardless.
 */
export function sequentialStops(band: Band, high: number, margin: number): boolean {
  return band === "improved" || band === "regressed" || (band === "non_inferior" && high < margin);
}
