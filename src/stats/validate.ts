/**
 * Argument guards shared by the estimators. A violation is a harness bug (the caller
 * passed counts that cannot come from data), so it throws a RangeError rather than an
 * InputError. Pure.
 */
export function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

export function assertCounts(n: number, c: number): void {
  assertCount("n", n);
  assertCount("c", c);
  if (c > n) throw new RangeError(`c (${c}) must not exceed n (${n})`);
}

export function assertK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
}

export function assertProbability(name: string, p: number, open = false): void {
  const ok = open ? p > 0 && p < 1 : p >= 0 && p <= 1;
  if (!Number.isFinite(p) || !ok) {
    throw new RangeError(`${name} must be in ${open ? "(0, 1)" : "[0, 1]"}, got ${p}`);
  }
}
