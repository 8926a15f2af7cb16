/**
 * Sample-size planning for comparing two pass rates. Pure.
 */
import { normalQuantile } from "./normal.js";
import { assertProbability } from "./validate.js";

/**
 * Runs per treatment needed for a two-sided test at level alpha to detect the
 * difference between pass rates p1 and p2 with the given power (two independent
 * proportions, normal approximation without continuity correction):
 *
 *   n = ( z_{1-α/2} sqrt(2 p̄ q̄) + z_{1-β} sqrt(p1 q1 + p2 q2) )² / (p1 - p2)²,
 *   p̄ = (p1 + p2)/2, q = 1 - p
 *
 * rounded up. p1 == p2 -> null (no finite n resolves a zero difference).
 * The count is for independent runs; repeated runs of the same tasks are
 * correlated, so treat it as a lower bound.
 */
export function repsNeeded(p1: number, p2: number, alpha = 0.05, power = 0.8): number | null {
  assertProbability("p1", p1);
  assertProbability("p2", p2);
  assertProbability("alpha", alpha, true);
  assertProbability("power", power, true);
  if (p1 === p2) return null;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const pbar = (p1 + p2) / 2;
  const root =
    za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  const n = (root * root) / ((p1 - p2) * (p1 - p2));
  // Shave float noise so an exact integer result (e.g. 93.0000000001) is not bumped.
  return Math.max(1, Math.ceil(n - 1e-9));
}
