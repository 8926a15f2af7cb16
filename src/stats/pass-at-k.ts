/**
 * pass@k and pass^k estimators over n runs of which c passed. Pure.
 *
 * None of these clamp k: k > n returns null ("not estimable from this many runs"),
 * and the caller chooses the k set with `defaultKs`. Counts that cannot come from
 * data (negative, fractional, c > n, k < 1) throw a RangeError.
 */
import { InputError } from "../core/errors.js";
import { assertCounts, assertK } from "./validate.js";

/**
 * Unbiased pass@k (Chen et al. 2021): 1 - C(n-c, k) / C(n, k), the probability that
 * at least one of k runs drawn without replacement from the n observed passes.
 * Computed as 1 - prod_{i=n-c+1..n} (1 - k/i): no factorials, stable for large n.
 */
export function passAtK(n: number, c: number, k: number): number | null {
  assertCounts(n, c);
  assertK(k);
  if (n === 0 || k > n) return null;
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * The seeds' pass^k ("all observed runs passed"): 1 iff c == n and n >= 1, else 0.
 * It does not depend on k; n = 0 -> null.
 */
export function passHatKStrict(n: number, c: number): number | null {
  assertCounts(n, c);
  if (n === 0) return null;
  return c === n ? 1 : 0;
}

/**
 * Unbiased pass^k (tau-bench, Inspect `pass_k_{k}`): C(c, k) / C(n, k), the
 * probability that k runs drawn without replacement from the n observed all pass.
 * Computed as prod_{i=0..k-1} (c-i)/(n-i).
 */
export function passHatKUnbiased(n: number, c: number, k: number): number | null {
  assertCounts(n, c);
  assertK(k);
  if (n === 0 || k > n) return null;
  if (c < k) return 0;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return p;
}

const DEFAULT_KS = [1, 2, 5] as const;

/**
 * The k set for a table whose largest run count is maxN: {1, 2, 5} (or the requested
 * list, de-duplicated and sorted) keeping only k <= maxN; never empty (falls back to
 * [1], as the original harness does). A requested k that is not a positive integer is
 * an InputError (the list comes from the user, e.g. `--ks`).
 */
export function defaultKs(maxN: number, requested?: number[]): number[] {
  if (requested !== undefined) {
    for (const k of requested) {
      if (!Number.isInteger(k) || k < 1) {
        throw new InputError(`ks: every k must be a positive integer, got ${k}`, { field: "ks" });
      }
    }
  }
  const source = requested ?? [...DEFAULT_KS];
  const ks = [...new Set(source)].filter((k) => k <= maxN).sort((a, b) => a - b);
  return ks.length > 0 ? ks : [1];
}
