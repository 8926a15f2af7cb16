/**
 * The decision's interval for Δ pooled pass rate (docs/statistics.md §9), its name, and the
 * level's text. One function, so the verdict, the paired table, the lift, the worst case and the
 * A/A calibration all compute the same interval the same way. Pure.
 */
import {
  bootstrapPairedDifference,
  newcombeInterval,
  pooledPassRate,
  sequentialInterval,
  type PerTaskOutcomes,
} from "../../stats/index.js";
import { BOOTSTRAP_LEVEL, BOOTSTRAP_REPLICATES } from "./tuning.js";

const count = (o: PerTaskOutcomes): { c: number; n: number } => ({
  c: o.reduce((s, x) => s + x.filter(Boolean).length, 0),
  n: o.reduce((s, x) => s + x.length, 0),
});

/**
 * The verdict's interval for Δ pooled pass rate: the hull of the task-clustered paired bootstrap
 * interval and Newcombe's score interval. The bootstrap carries the task clustering; Newcombe's
 * keeps a small or all-pass sample from looking certain (a bootstrap of 4/4 vs 4/4 is [0, 0]).
 * A look of a sequential experiment (`sequential`: its nominal two-sided level, docs/statistics.md
 * §12) takes the bootstrap at that level and the hull with the sequential rule's own interval
 * (src/stats/sequential.ts), so a claim here is always a claim of that rule.
 */
export function verdictInterval(
  a: PerTaskOutcomes,
  b: PerTaskOutcomes,
  seed: number,
  sequential: { alpha_look: number } | null = null,
  replicates: number = BOOTSTRAP_REPLICATES,
): {
  delta: number;
  ci: { low: number; high: number; level: number };
  valid_replicates: number;
} | null {
  const level = sequential ? 1 - Math.max(sequential.alpha_look, 1e-12) : BOOTSTRAP_LEVEL;
  const boot = bootstrapPairedDifference(a, b, pooledPassRate, { seed, replicates, level });
  if (!boot) return null;
  const ca = count(a);
  const cb = count(b);
  const nc = sequential
    ? sequentialInterval(counts(a), counts(b), sequential.alpha_look)
    : newcombeInterval(ca.c, ca.n, cb.c, cb.n);
  return {
    delta: boot.estimate,
    ci: {
      low: Math.min(boot.low, nc?.low ?? boot.low),
      high: Math.max(boot.high, nc?.high ?? boot.high),
      level: sequential ? 1 - sequential.alpha_look : boot.level,
    },
    valid_replicates: boot.valid_replicates,
  };
}

/** 0.9974 → "99.74%", 0.99999 → "99.999%": enough digits to tell the level from 100%. */
export function levelText(level: number): string {
  const miss = 1 - level;
  const digits = miss <= 0 ? 2 : Math.min(12, Math.max(0, Math.ceil(-Math.log10(miss)) - 1));
  return `${(100 * level).toFixed(digits).replace(/\.0+$/, "")}%`;
}

/**
 * The name of the decision's interval (verdictInterval), as every report quotes it: its level
 * and how it is made.
 */
export function intervalMethod(
  settings: { replicates: number; seed: number; level: number },
  sequential: { alpha_look: number } | null,
): string {
  return sequential
    ? `${levelText(1 - sequential.alpha_look)} interval of this look of \`run --until-decided\` (α spent across the looks): the hull of the task-clustered paired bootstrap (tasks, then runs; ${settings.replicates} replicates, seed ${settings.seed}) and the sequential rule's task-clustered t and Newcombe intervals`
    : `${levelText(settings.level)} interval: the hull of the task-clustered paired bootstrap (tasks, then runs; ${settings.replicates} replicates, seed ${settings.seed}) and Newcombe's score interval`;
}

/** Runs and passes per task, as the sequential rule takes them. */
function counts(o: PerTaskOutcomes): { n: number[]; c: number[] } {
  return { n: o.map((x) => x.length), c: o.map((x) => x.filter(Boolean).length) };
}
