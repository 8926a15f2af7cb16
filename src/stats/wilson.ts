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
