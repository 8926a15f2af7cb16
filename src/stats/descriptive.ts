/**
 * Descriptive statistics over plain arrays. Pure.
 */

/** Arithmetic mean; empty -> null. */
export function mean(xs: number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (n - 1 denominator); fewer than 2 values -> null. */
export function stdev(xs: number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs) ?? 0;
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  return Math.sqrt(ss / (xs.length - 1));
}

/**
 * Share of tasks whose runs disagree (at least one pass and at least one fail).
 * Tasks with fewer than 2 runs cannot flip and are left out of the denominator;
 * no such task at all -> null.
 */
export function flipRate(perTask: boolean[][]): number | null {
  let eligible = 0;
  let flipped = 0;
  for (const runs of perTask) {
    if (runs.length < 2) continue;
    eligible++;
    if (runs.includes(true) && runs.includes(false)) flipped++;
  }
  return eligible === 0 ? null : flipped / eligible;
}
