/**
 * Turning two treatments' per-task outcomes into the counts the paired tests need.
 * `a[i]` and `b[i]` are the runs of the same task i under treatments A and B. Pure.
 */
import type { PerTaskOutcomes } from "./task-statistics.js";

export interface DiscordantCounts {
  /** Run pairs considered: sum over tasks of min(runs in A, runs in B). */
  pairs: number;
  both_pass: number;
  /** Only A passed (McNemar's b). */
  a_only: number;
  /** Only B passed (McNemar's c). */
  b_only: number;
  both_fail: number;
}

function assertSameTasks(a: PerTaskOutcomes, b: PerTaskOutcomes): void {
  if (a.length !== b.length) {
    throw new RangeError(
      `paired comparison needs the same tasks in both arms (${a.length} vs ${b.length})`,
    );
  }
}

/**
 * Pairs run r of task i in A with run r of task i in B (r < min of the two run
 * counts; extra runs of the longer arm are ignored) and counts the 2x2 table. Feed
 * a_only/b_only to `mcnemarExact`. Note: several pairs from one task are not
 * independent, so with many runs per task prefer `taskSignCounts` + `signTest` or the
 * paired bootstrap.
 */
export function discordantPairs(a: PerTaskOutcomes, b: PerTaskOutcomes): DiscordantCounts {
  assertSameTasks(a, b);
  const out: DiscordantCounts = { pairs: 0, both_pass: 0, a_only: 0, b_only: 0, both_fail: 0 };
  for (let i = 0; i < a.length; i++) {
    const ra = a[i] ?? [];
    const rb = b[i] ?? [];
    const m = Math.min(ra.length, rb.length);
    for (let r = 0; r < m; r++) {
      const pa = ra[r] === true;
      const pb = rb[r] === true;
      out.pairs++;
      if (pa && pb) out.both_pass++;
      else if (pa) out.a_only++;
      else if (pb) out.b_only++;
      else out.both_fail++;
    }
  }
  return out;
}

export interface SignCounts {
  /** Tasks where A's pass rate is higher than B's. */
  pos: number;
  /** Tasks where A's pass rate is lower. */
  neg: number;
  ties: number;
  /** Tasks skipped because one arm has no runs. */
  skipped: number;
}

/** Per-task comparison of pass rates (A vs B) for the sign test; ties are counted, not tested. */
export function taskSignCounts(a: PerTaskOutcomes, b: PerTaskOutcomes): SignCounts {
  assertSameTasks(a, b);
  const out: SignCounts = { pos: 0, neg: 0, ties: 0, skipped: 0 };
  for (let i = 0; i < a.length; i++) {
    const ra = a[i] ?? [];
    const rb = b[i] ?? [];
    if (ra.length === 0 || rb.length === 0) {
      out.skipped++;
      continue;
    }
    // Compare ca/na with cb/nb exactly by cross-multiplying.
    const lhs = ra.filter(Boolean).length * rb.length;
    const rhs = rb.filter(Boolean).length * ra.length;
    if (lhs > rhs) out.pos++;
    else if (lhs < rhs) out.neg++;
    else out.ties++;
  }
  return out;
}
