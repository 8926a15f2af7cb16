/**
 * Student's t distribution for whole degrees of freedom. Pure.
 */

/**
 * P(|T| ≤ t) for T ~ t(df), from the finite series for whole df (Abramowitz & Stegun 26.7.3–4),
 * written in θ = atan(t/√df) ∈ [0, π/2): odd df: (2/π)(θ + sinθ cosθ (1 + (2/3)cos²θ + …)); even
 * df: sinθ (1 + (1/2)cos²θ + (1·3)/(2·4)cos⁴θ + …).
 */
function centralMass(theta: number, df: number): number {
  const s = Math.sin(theta);
  const c2 = Math.cos(theta) ** 2;
  if (df % 2 === 0) {
    let term = 1;
    let sum = 1;
    for (let j = 2; j <= df - 2; j += 2) {
      term *= (c2 * (j - 1)) / j;
      sum += term;
    }
    return s * sum;
  }
  if (df === 1) return (2 / Math.PI) * theta;
  let term = 1;
  let sum = 1;
  for (let j = 3; j <= df - 2; j += 2) {
    term *= (c2 * (j - 1)) / j;
    sum += term;
  }
  return (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
}

/**
 * The two-sided critical value t such that P(|T| > t) = alpha for T ~ t(df): 12.706 for
 * alpha 0.05 and df 1, 4.303 (df 2), 2.571 (df 5), 2.228 (df 10). Bisection on θ (the mass is
 * monotone in it), so even an alpha of 1e−5 with df 1 is exact to float precision.
 */
export function tCritical(alpha: number, df: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`df must be a positive whole number, got ${df}`);
  let lo = 0;
  let hi = Math.PI / 2;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (1 - centralMass(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(df) * Math.tan((lo + hi) / 2);
}
