import type { Fault } from "./script.js";

/**
 * The fault to play on the `attempt`-th (1-based) request for a step, or null for
 * the normal reply. Faults are played in order, each for `times` attempts
 * (null = every remaining attempt). Pure.
 */
export function faultForAttempt(faults: readonly Fault[], attempt: number): Fault | null {
  let remaining = attempt;
  for (const f of faults) {
    if (f.times === null || remaining <= f.times) return f;
    remaining -= f.times;
  }
  return null;
}
