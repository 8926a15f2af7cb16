/**
 * The verdict band of a comparison (docs/statistics.md §9): improved, non_inferior, regressed or
 * inconclusive, from the task-clustered paired bootstrap interval of Δ pass rate against the
 * non-inferiority margin, the rubric regressions, and the exclusion-imbalance guard. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import {
  bootstrapPairedDifference,
  fisherExact,
  intervalBand,
  newcombeInterval,
  pooledPassRate,
  repsNeeded,
  repsNeededNonInferiority,
  sequentialInterval,
  type Band,
  type PerTaskOutcomes,
} from "../../stats/index.js";
import { groupBy, sortByRep } from "../group.js";
import { metricSuccess } from "../outcomes.js";
import { alignArms, type ArmOutcomes } from "./paired.js";
import { signed } from "./fmt.js";
import {
  ALPHA,
  BOOTSTRAP_LEVEL,
  BOOTSTRAP_REPLICATES,
  MAX_EXCLUDED_SHARE,
  POWER,
  type DataQualityRow,
  type PairedSection,
  type Roles,
} from "./types.js";

export const DEFAULT_MARGIN = 0.05;
/** Fisher's exact p below this, or a gap in excluded shares of at least IMBALANCE_GAP: inconclusive. */
const IMBALANCE_P = 0.1;
const IMBALANCE_GAP = 0.1;

export type { Band } from "../../stats/index.js";

export interface ExclusionBalance {
  candidate: { excluded: number; raw: number; share: number | null };
  baseline: { excluded: number; raw: number; share: number | null };
  /** |candidate share − baseline share| */
  gap: number | null;
  /** Fisher's exact test, two-sided, excluded vs kept by arm */
  fisher_p: number;
  imbalanced: boolean;
}

export interface DeltaWithInterval {
  delta: number | null;
  ci: { low: number; high: number; level: number } | null;
}

export interface RunsNeeded {
  /** the test the count is for: show an improvement, show non-inferiority, or show the regression */
  goal: "improvement" | "non_inferiority" | "regression" | null;
  /** runs per treatment that test needs in all (null: no number of runs resolves it) */
  per_treatment_total: number | null;
  /** how many more runs per treatment than the arms have now (0: already enough) */
  more_per_treatment: number | null;
  /** the same spread over the tasks compared: more repetitions per task */
  more_per_task: number | null;
}

export interface Lift {
  /** intent to treat: every analysis-set run of both arms (the verdict's delta) */
  itt: DeltaWithInterval;
  /** per protocol: only the candidate's runs that invoked one of its Skills, vs every baseline run */
  per_protocol: DeltaWithInterval & { runs: number };
  /** share of analysis-set runs that invoked one of the arm's installed Skills (null: installs none) */
  invocation_rate: { candidate: number | null; baseline: number | null };
  /** the candidate invoked its Skill in fewer than half its runs */
  silent_bypass: boolean;
}

export interface BandVerdict {
  band: Band;
  /** one sentence */
  reason: string;
  delta: number | null;
  ci: { low: number; high: number; level: number } | null;
  margin: number;
  exclusion: ExclusionBalance;
  /** Δ pass rate counting every excluded run (both arms) as a failure */
  worst_case: DeltaWithInterval & { candidate_rate: number | null; baseline_rate: number | null };
  runs_needed: RunsNeeded;
}

function exclusionBalance(cq: DataQualityRow, bq: DataQualityRow): ExclusionBalance {
  const gap =
    cq.excluded_share === null || bq.excluded_share === null
      ? null
      : Math.abs(cq.excluded_share - bq.excluded_share);
  const fisher_p = fisherExact(
    cq.excluded,
    cq.raw - cq.excluded,
    bq.excluded,
    bq.raw - bq.excluded,
  );
  return {
    candidate: { excluded: cq.excluded, raw: cq.raw, share: cq.excluded_share },
    baseline: { excluded: bq.excluded, raw: bq.raw, share: bq.excluded_share },
    gap,
    fisher_p,
    imbalanced: fisher_p < IMBALANCE_P || (gap !== null && gap >= IMBALANCE_GAP - 1e-12),
  };
}

/** Per-task outcomes of one arm over every run, an excluded run counting as a failure. */
function worstCaseOutcomes(reports: RunDigest[], treatment: string): ArmOutcomes {
  const byTask = groupBy(
    reports.filter((r) => r.treatment === treatment),
    (r) => r.task,
  );
  const tasks = [...byTask.keys()];
  const outcomes: PerTaskOutcomes = [...byTask.values()].map((rs) =>
    sortByRep(rs).map(
      (r) => r.sample_quality.include_in_analysis && metricSuccess(r, "overall") === true,
    ),
  );
  return { tasks, outcomes };
}

function arm(
  reports: RunDigest[],
  treatment: string,
  keep: (r: RunDigest) => boolean = () => true,
): ArmOutcomes {
  const rs = reports.filter(
    (r) => r.treatment === treatment && r.sample_quality.include_in_analysis && keep(r),
  );
  const byTask = groupBy(rs, (r) => r.task);
  const tasks = [...byTask.keys()];
  const outcomes: PerTaskOutcomes = [...byTask.values()].map((runs) =>
    sortByRep(runs).map((r) => metricSuccess(r, "overall") === true),
  );
  return { tasks, outcomes };
}

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
): { delta: number; ci: { low: number; high: number; level: number } } | null {
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
  };
}

/** Runs and passes per task, as the sequential rule takes them. */
function counts(o: PerTaskOutcomes): { n: number[]; c: number[] } {
  return { n: o.map((x) => x.length), c: o.map((x) => x.filter(Boolean).length) };
}

function pairedDelta(
  a: ArmOutcomes,
  b: ArmOutcomes,
  seed: number,
  sequential: { alpha_look: number } | null = null,
): DeltaWithInterval & { runs: number } {
  const al = alignArms(a, b);
  const runs = al.a.reduce((s, x) => s + x.length, 0);
  if (al.tasks.length === 0) return { delta: null, ci: null, runs };
  const v = verdictInterval(al.a, al.b, seed, sequential);
  return { delta: v?.delta ?? null, ci: v?.ci ?? null, runs };
}

/** Δ pass rate counting every excluded run as a failure, both arms (the worst case of dropping them). */
function worstCase(reports: RunDigest[], roles: Roles, seed: number): BandVerdict["worst_case"] {
  const a = worstCaseOutcomes(reports, roles.candidate);
  const b = worstCaseOutcomes(reports, roles.baseline);
  const d = pairedDelta(a, b, seed);
  const al = alignArms(a, b);
  return {
    delta: d.delta,
    ci: d.ci,
    candidate_rate: al.tasks.length ? pooledPassRate(al.a) : null,
    baseline_rate: al.tasks.length ? pooledPassRate(al.b) : null,
  };
}

const installed = (r: RunDigest): string[] => r.skill_sources.map((s) => s.name);
const invokedOwn = (r: RunDigest): boolean => {
  const own = installed(r);
  return (r.events_summary?.skills_invoked ?? []).some((s) => own.includes(s));
};

function invocationRate(reports: RunDigest[], treatment: string): number | null {
  const rs = reports.filter(
    (r) => r.treatment === treatment && r.sample_quality.include_in_analysis,
  );
  if (rs.length === 0 || rs.every((r) => installed(r).length === 0)) return null;
  return rs.filter(invokedOwn).length / rs.length;
}

/** Lift over all runs (intent to treat) and over the candidate's runs that invoked its Skill (per protocol). */
export function liftOf(reports: RunDigest[], roles: Roles, seed: number): Lift {
  const base = arm(reports, roles.baseline);
  const itt = pairedDelta(arm(reports, roles.candidate), base, seed);
  const pp = pairedDelta(arm(reports, roles.candidate, invokedOwn), base, seed);
  const candidate = invocationRate(reports, roles.candidate);
  return {
    itt: { delta: itt.delta, ci: itt.ci },
    per_protocol: pp,
    invocation_rate: { candidate, baseline: invocationRate(reports, roles.baseline) },
    silent_bypass: candidate !== null && candidate < 0.5,
  };
}

function runsNeeded(p: PairedSection, margin: number): RunsNeeded {
  const none: RunsNeeded = {
    goal: null,
    per_treatment_total: null,
    more_per_treatment: null,
    more_per_task: null,
  };
  const pa = p.candidate_pass_rate;
  const pb = p.baseline_pass_rate;
  if (pa === null || pb === null || p.tasks.length === 0) return none;
  const d = pa - pb;
  const goal: RunsNeeded["goal"] =
    d > 0 ? "improvement" : d > -margin ? "non_inferiority" : "regression";
  const total =
    goal === "non_inferiority"
      ? repsNeededNonInferiority(pa, pb, margin, ALPHA, POWER)
      : repsNeeded(pa, pb, ALPHA, POWER);
  if (total === null) return { ...none, goal };
  const have = Math.min(p.candidate_runs, p.baseline_runs);
  const more = Math.max(0, total - have);
  return {
    goal,
    per_treatment_total: total,
    more_per_treatment: more,
    more_per_task: Math.ceil(more / p.tasks.length),
  };
}

const pct = (x: number | null): string => (x === null ? "—" : `${Math.round(100 * x)}%`);
const f2 = (x: number): string => x.toFixed(2);
const ciText = (ci: BandVerdict["ci"]): string =>
  ci ? `[${signed(ci.low)}, ${signed(ci.high)}]` : "—";

export interface BandInput {
  reports: RunDigest[];
  roles: Roles;
  paired: PairedSection;
  candidateQuality: DataQualityRow;
  baselineQuality: DataQualityRow;
  regressions: Array<{ dimension: string; delta: number }>;
  margin: number;
  seed: number;
  /** a look of `run --until-decided`: the nominal two-sided level it may spend (§12) */
  sequential?: { alpha_look: number } | null | undefined;
}

/** The band and its one-sentence reason (docs/statistics.md §9, first rule that applies). */
export function decideBand(i: BandInput): BandVerdict {
  const { candidate: c, baseline: b } = i.roles;
  const p = i.paired;
  const itt = pairedDelta(
    arm(i.reports, i.roles.candidate),
    arm(i.reports, i.roles.baseline),
    i.seed,
    i.sequential ?? null,
  );
  const delta = itt.delta;
  const ci = itt.ci;
  const exclusion = exclusionBalance(i.candidateQuality, i.baselineQuality);
  const base = {
    delta,
    ci,
    margin: i.margin,
    exclusion,
    worst_case: worstCase(i.reports, i.roles, i.seed),
    runs_needed: runsNeeded(p, i.margin),
  };
  const out = (band: Band, reason: string): BandVerdict => ({ ...base, band, reason });
  const dText = `Δ pass rate ${signed(delta)} ${ciText(ci)}`;
  if (p.tasks.length === 0 || delta === null || ci === null)
    return out(
      "inconclusive",
      `No task has analysis-set runs under both \`${c}\` and \`${b}\`, so there is nothing to compare.`,
    );
  if (exclusion.imbalanced)
    return out(
      "inconclusive",
      `The arms lost different shares of runs to exclusion (\`${c}\` ${exclusion.candidate.excluded}/${exclusion.candidate.raw}, \`${b}\` ${exclusion.baseline.excluded}/${exclusion.baseline.raw}; Fisher p = ${exclusion.fisher_p.toFixed(3)}, gap ${pct(exclusion.gap)}), so the analysis-set ${dText} may come from what was dropped.`,
    );
  const noisy = [i.candidateQuality, i.baselineQuality].filter(
    (q) => q.excluded_share !== null && q.excluded_share > MAX_EXCLUDED_SHARE,
  );
  if (noisy.length > 0)
    return out(
      "inconclusive",
      `More than half of the runs were excluded as infrastructure noise (${noisy.map((q) => `\`${q.treatment}\` ${q.excluded}/${q.raw}`).join(", ")}), so the ${dText} rests on too little.`,
    );
  const byInterval = intervalBand(ci.low, ci.high, i.margin);
  const regress = i.regressions.map((r) => `${r.dimension} (Δ ${signed(r.delta)})`).join(", ");
  if (byInterval === "regressed")
    return out(
      "regressed",
      `\`${c}\` passes less often than \`${b}\`: ${dText} lies entirely below 0.`,
    );
  if (i.regressions.length > 0 && byInterval === "improved")
    return out(
      "inconclusive",
      `Mixed: \`${c}\` passes more often (${dText}, above 0) but its rubric regresses on ${regress}, beyond the tolerance.`,
    );
  if (i.regressions.length > 0)
    return out(
      "regressed",
      `\`${c}\` regresses on the rubric: ${regress} below \`${b}\` beyond the tolerance, and the pass rate shows no improvement (${dText}).`,
    );
  if (byInterval === "improved")
    return out(
      "improved",
      `\`${c}\` passes more often than \`${b}\`: ${dText} lies entirely above 0.`,
    );
  if (byInterval === "non_inferior")
    return out(
      "non_inferior",
      `\`${c}\` is no worse than \`${b}\` by more than the margin: ${dText} stays above −${f2(i.margin)}.`,
    );
  return out(
    "inconclusive",
    `Not resolved at this sample size: ${dText} reaches below −${f2(i.margin)} and above 0, so neither a regression beyond the margin nor an improvement can be ruled out.`,
  );
}

const BAND_TITLE: Record<Band, string> = {
  improved: "✅ **Improved**",
  non_inferior: "☑️ **Non-inferior**",
  regressed: "❌ **Regressed**",
  inconclusive: "⚠️ **Inconclusive**",
};

/** The headline: the band and its reason (markdown). */
export function bandHeadline(v: Pick<BandVerdict, "band" | "reason">): string {
  return `${BAND_TITLE[v.band]}: ${v.reason}`;
}
