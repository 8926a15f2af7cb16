/**
 * Fisher's exact test on a 2x2 table. Pure.
 */
import { assertCount } from "./validate.js";

function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/**
 * Two-sided p-value of Fisher's exact test for the table
 *
 *          | yes | no
 *   row 1  |  a  |  b
 *   row 2  |  c  |  d
 *
 * = the sum of the hypergeometric probabilities (margins fixed) of every table no more likely
 * than the observed one (with a relative tolerance of 1e-7, as R's fisher.test). An empty row or
 * column gives 1.
 * Example: a=2, b=1, c=0, d=3 → p = 0.4; a=0, b=10, c=5, d=5 → p = 0.0325.
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const [k, v] of Object.entries({ a, b, c, d })) assertCount(k, v);
  const r1 = a + b;
  const r2 = c + d;
  const c1 = a + c;
  const n = r1 + r2;
  if (r1 === 0 || r2 === 0 || c1 === 0 || c1 === n) return 1;
  const base =
    logFactorial(r1) + logFactorial(r2) + logFactorial(c1) + logFactorial(n - c1) - logFactorial(n);
  const logP = (x: number): number =>
    base -
    logFactorial(x) -
    logFactorial(r1 - x) -
    logFactorial(c1 - x) -
    logFactorial(r2 - c1 + x);
  const observed = logP(a);
  const lo = Math.max(0, c1 - r2);
  const hi = Math.min(r1, c1);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    if (lp <= observed + 1e-7 * Math.abs(observed) + 1e-12) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
