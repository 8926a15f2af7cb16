/**
 * Trigger statistics (docs/triggers.md): per query the trigger rate over its repetitions; per
 * description variant precision, recall, F1 and the false-trigger rate with Wilson intervals,
 * and which other Skills took the queries; between variants a paired comparison per query.
 * Invalid probes are never counted as "not triggered": they are left out of every rate and
 * reported on their own. Pure.
 */
import {
  bootstrapPairedDifference,
  discordantPairs,
  mcnemarExact,
  pooledPassRate,
  signTest,
  taskSignCounts,
  wilsonInterval,
  type Interval,
  type PerTaskOutcomes,
} from "../stats/index.js";
import { f2 } from "../util/format.js";
import type { ProbeRecord, TriggerQuery } from "./types.js";

const ALPHA = 0.05;
const BOOTSTRAP_REPLICATES = 2000;

export interface Rate {
  value: number | null;
  /** 95% Wilson interval; null when there is nothing to count. */
  ci: Interval | null;
  /** Numerator and denominator, so every rate can be checked by hand. */
  count: number;
  of: number;
}

export interface QueryStats {
  id: string;
  query: string;
  should_trigger: boolean;
  /** Probes with an answer (invalid ones excluded). */
  runs: number;
  /** Probes where the Skill under test was chosen. */
  triggered: number;
  /** Probes still invalid after their re-runs (not in `runs`). */
  invalid: number;
  /** Probes where another Skill was chosen, by Skill. */
  other_skills: Record<string, number>;
  /** triggered / runs; null when no probe of the query gave an answer. */
  rate: number | null;
  rate_ci: Interval | null;
  /** Probes that did the right thing: triggered when it should, stayed quiet when it should not. */
  correct: number;
}

export interface ConfusionRow {
  skill: string;
  /** Probes of should-trigger queries this Skill took instead of the target (lost recall). */
  took_positive: number;
  /** Probes of should-not-trigger queries it took (where the target rightly stayed quiet). */
  took_negative: number;
  /** Query ids it took at least once. */
  queries: string[];
}

export interface VariantStats {
  variant: string;
  queries: QueryStats[];
  /** Counted over probes: true/false positives and negatives of the Skill under test. */
  counts: { tp: number; fp: number; tn: number; fn: number };
  precision: Rate;
  recall: Rate;
  f1: number | null;
  false_trigger_rate: Rate;
  /** Probes that did the right thing, over all probes with an answer. */
  accuracy: Rate;
  confusion: ConfusionRow[];
  /** Invalid attempts, re-run or not. */
  invalid_runs: number;
  /** Probes that were still invalid after their last re-run (left out of every rate). */
  invalid_probes: number;
  /** Probes that needed at least one re-run. */
  rerun_probes: number;
  probes: number;
}

function rate(count: number, of: number): Rate {
  return { value: of === 0 ? null : count / of, ci: wilsonInterval(count, of), count, of };
}

/** The statistics of one description variant from its probe records. */
export function variantStats(
  variant: string,
  queries: TriggerQuery[],
  records: ProbeRecord[],
): VariantStats {
  const mine = records.filter((r) => r.variant === variant);
  const counts = { tp: 0, fp: 0, tn: 0, fn: 0 };
  const confusion = new Map<string, ConfusionRow>();
  const perQuery: QueryStats[] = queries.map((q) => {
    const rs = mine.filter((r) => r.query_id === q.id).sort((a, b) => a.rep - b.rep);
    const s: QueryStats = {
      id: q.id,
      query: q.query,
      should_trigger: q.should_trigger,
      runs: 0,
      triggered: 0,
      invalid: 0,
      other_skills: {},
      rate: null,
      rate_ci: null,
      correct: 0,
    };
    for (const r of rs) {
      const o = r.outcome;
      if (o.kind === "invalid") {
        s.invalid++;
        continue;
      }
      s.runs++;
      const hit = o.kind === "target";
      if (hit) s.triggered++;
      if (q.should_trigger) {
        if (hit) counts.tp++;
        else counts.fn++;
      } else if (hit) counts.fp++;
      else counts.tn++;
      if (hit === q.should_trigger) s.correct++;
      if (o.kind === "other") {
        s.other_skills[o.skill] = (s.other_skills[o.skill] ?? 0) + 1;
        const row = confusion.get(o.skill) ?? {
          skill: o.skill,
          took_positive: 0,
          took_negative: 0,
          queries: [],
        };
        if (q.should_trigger) row.took_positive++;
        else row.took_negative++;
        if (!row.queries.includes(q.id)) row.queries.push(q.id);
        confusion.set(o.skill, row);
      }
    }
    s.rate = s.runs === 0 ? null : s.triggered / s.runs;
    s.rate_ci = wilsonInterval(s.triggered, s.runs);
    return s;
  });
  const precision = rate(counts.tp, counts.tp + counts.fp);
  const recall = rate(counts.tp, counts.tp + counts.fn);
  const p = precision.value;
  const r = recall.value;
  const f1 = p === null || r === null ? null : p + r === 0 ? 0 : (2 * p * r) / (p + r);
  const answered = perQuery.reduce((n, q) => n + q.runs, 0);
  return {
    variant,
    queries: perQuery,
    counts,
    precision,
    recall,
    f1,
    false_trigger_rate: rate(counts.fp, counts.fp + counts.tn),
    accuracy: rate(
      perQuery.reduce((n, q) => n + q.correct, 0),
      answered,
    ),
    confusion: [...confusion.values()].sort(
      (a, b) =>
        b.took_positive + b.took_negative - (a.took_positive + a.took_negative) ||
        a.skill.localeCompare(b.skill),
    ),
    invalid_runs: mine.reduce(
      (n, r) => n + r.attempts.filter((a) => a.outcome.kind === "invalid").length,
      0,
    ),
    invalid_probes: mine.filter((r) => r.outcome.kind === "invalid").length,
    rerun_probes: mine.filter((r) => r.attempts.length > 1).length,
    probes: mine.length,
  };
}

/** Per query, in repetition order: did each answered probe do the right thing? */
function correctnessByQuery(
  queries: TriggerQuery[],
  records: ProbeRecord[],
  variant: string,
): PerTaskOutcomes {
  return queries.map((q) =>
    records
      .filter((r) => r.variant === variant && r.query_id === q.id && r.outcome.kind !== "invalid")
      .sort((a, b) => a.rep - b.rep)
      .map((r) => (r.outcome.kind === "target") === q.should_trigger),
  );
}

export interface VariantComparison {
  /** The variant with the higher accuracy (then F1, then recall); null on a tie. */
  better: string | null;
  candidate: string;
  baseline: string;
  candidate_accuracy: number | null;
  baseline_accuracy: number | null;
  /** Δ accuracy (candidate − baseline) with a paired-by-query bootstrap interval. */
  delta_accuracy: { estimate: number; low: number; high: number } | null;
  /** Queries where the candidate did the right thing more often (pos) or less often (neg). */
  sign_test: { pos: number; neg: number; ties: number; p: number };
  /** Probes paired by query and repetition number. */
  mcnemar: {
    pairs: number;
    both_correct: number;
    candidate_only: number;
    baseline_only: number;
    both_wrong: number;
    p: number;
  } | null;
  distinguishable: boolean;
  conclusion: string;
}

function rankKey(s: VariantStats): number[] {
  return [s.accuracy.value ?? -1, s.f1 ?? -1, s.recall.value ?? -1];
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The best variant against each other one, on the same queries: Δ accuracy with a paired
 * bootstrap interval, a per-query sign test and an exact McNemar test on probes paired by
 * repetition. "Distinguishable from noise" needs both the interval to exclude 0 and the
 * sign test's p < 0.05, as in treatment comparisons (docs/statistics.md).
 */
export function compareVariants(
  queries: TriggerQuery[],
  records: ProbeRecord[],
  stats: VariantStats[],
  seed = 1,
): VariantComparison[] {
  if (stats.length < 2) return [];
  const ranked = [...stats].sort((a, b) => compareKeys(rankKey(b), rankKey(a)));
  const best = ranked[0] as VariantStats;
  return ranked.slice(1).map((other) => {
    const a = correctnessByQuery(queries, records, best.variant);
    const b = correctnessByQuery(queries, records, other.variant);
    const boot = bootstrapPairedDifference(a, b, pooledPassRate, {
      seed,
      replicates: BOOTSTRAP_REPLICATES,
    });
    const sc = taskSignCounts(a, b);
    const sign = { pos: sc.pos, neg: sc.neg, ties: sc.ties, p: signTest(sc.pos, sc.neg) };
    const dp = discordantPairs(a, b);
    const mcnemar =
      dp.pairs === 0
        ? null
        : {
            pairs: dp.pairs,
            both_correct: dp.both_pass,
            candidate_only: dp.a_only,
            baseline_only: dp.b_only,
            both_wrong: dp.both_fail,
            p: mcnemarExact(dp.a_only, dp.b_only),
          };
    const delta = boot ? { estimate: boot.estimate, low: boot.low, high: boot.high } : null;
    const tie = compareKeys(rankKey(best), rankKey(other)) === 0;
    const distinguishable =
      !tie && delta !== null && (delta.low > 0 || delta.high < 0) && sign.p < ALPHA;
    const better = tie ? null : best.variant;
    const head = tie
      ? `${best.variant} and ${other.variant} trigger equally well on these queries (accuracy ${f2(best.accuracy.value)}).`
      : `${best.variant} triggers better than ${other.variant}: accuracy ${f2(best.accuracy.value)} vs ${f2(other.accuracy.value)} (recall ${f2(best.recall.value)} vs ${f2(other.recall.value)}, false-trigger rate ${f2(best.false_trigger_rate.value)} vs ${f2(other.false_trigger_rate.value)}).`;
    const interval = delta
      ? `[${delta.low >= 0 ? "+" : ""}${delta.low.toFixed(2)}, ${delta.high >= 0 ? "+" : ""}${delta.high.toFixed(2)}]`
      : "n/a";
    const noise = tie
      ? ""
      : distinguishable
        ? ` The difference is distinguishable from noise: the 95% interval of Δ accuracy ${interval} excludes 0 and the per-query sign test gives p = ${sign.p.toPrecision(2)} < ${ALPHA}.`
        : ` The difference is not distinguishable from noise at this sample size (needs a 95% interval of Δ accuracy that excludes 0 — here ${interval} — and a per-query sign-test p < ${ALPHA} — here ${sign.p.toPrecision(2)}${sign.pos + sign.neg < 6 ? "; with fewer than 6 queries that differ, the sign test cannot reach it: add queries, not only repetitions" : ""}).`;
    return {
      better,
      candidate: best.variant,
      baseline: other.variant,
      candidate_accuracy: best.accuracy.value,
      baseline_accuracy: other.accuracy.value,
      delta_accuracy: delta,
      sign_test: sign,
      mcnemar,
      distinguishable,
      conclusion: head + noise,
    };
  });
}
