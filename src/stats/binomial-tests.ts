/**
 * Exact two-sided binomial tests for paired pass/fail data. Pure.
 */
import { assertCount } from "./validate.js";

/**
 * Two-sided exact p-value for x successes in n trials under p = 0.5:
 * min(1, 2 * P(X <= min(x, n-x))). Summed in log space so n in the thousands
 * neither overflows nor underflows to a wrong answer.
 */
function binomialTwoSidedHalf(x: number, n: number): number {
  if (n === 0) return 1;
  const m = Math.min(x, n - x);
  let logPmf = -n * Math.LN2; // P(X = 0)
  let tail = 0;
  for (let i = 0; i <= m; i++) {
    tail += Math.exp(logPmf);
    logPmf += Math.log((n - i) / (i + 1));
  }
  return Math.min(1, 2 * tail);
}

/**
 * McNemar's exact test on the discordant pairs of a paired design: b = pairs where
 * only treatment A passed, c = pairs where only B passed. Under H0 (no difference)
 * b ~ Binomial(b + c, 1/2). Returns the two-sided p-value; b + c = 0 -> 1.
 */
export function mcnemarExact(b: number, c: number): number {
  assertCount("b", b);
  assertCount("c", c);
  return binomialTwoSidedHalf(b, b + c);
}

/**
 * Two-sided sign test: pos tasks improved, neg tasks got worse (ties dropped before
 * calling). Same null distribution as McNemar: pos ~ Binomial(pos + neg, 1/2).
 */
export function signTest(pos: number, neg: number): number {
  assertCount("pos", pos);
  assertCount("neg", neg);
  return binomialTwoSidedHalf(pos, pos + neg);
}
