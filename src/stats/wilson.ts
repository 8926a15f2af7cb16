/**
 * Wilson score interval for a binomial proportion c/n. Pure.
 */
import { Z95 } from "./normal.js";
import { assertCounts } from "./validate.js";

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval (default 95%, z = 1.96). n = 0 -> null. Unlike the Wald
 * interval it stays inside [0, 1] and is not degenerate at c = 0 or c = n.
 *
 *   centre = (p + z²/2n) / (1 + z²/n)
 *   half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
 */
export function wilsonInterval(c: number, n: number, z: number = Z95): Interval | null {
  assertCounts(n, c);
  if (!Number.isFinite(z) || z <= 0) throw new RangeError(`z must be positive, got ${z}`);
  if (n === 0) return null;
  const p = c / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    low: c === 0 ? 0 : Math.max(0, centre - half),
    high: c === n ? 1 : Math.min(1, centre + half),
  };
}

/**
 * Newcombe's hybrid score interval (his method 10) for p1 − p2 of two independent proportions
 * c1/n1 and c2/n2, from their Wilson intervals [l1, u1] and [l2, u2]:
 *
 *   low  = d − √((p1 − l1)² + (u2 − p2)²),   high = d + √((u1 − p1)² + (p2 − l2)²)
 *
 * null when either n is 0. Not degenerate when both arms pass (or fail) every run: 4/4 vs 4/4 →
 * [−0.49, +0.49], where a bootstrap gives [0, 0].
 */
export function newcombeInterval(
  c1: number,
  n1: number,
  c2: number,
  n2: number,
  z: number = Z95,
): Interval | null {
  const w1 = wilsonInterval(c1, n1, z);
  const w2 = wilsonInterval(c2, n2, z);
  if (!w1 || !w2) return null;
  const p1 = c1 / n1;
  const p2 = c2 / n2;
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: d + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}
