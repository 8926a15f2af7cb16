/**
 * The verdict band of a comparison (docs/statistics.md §9): improved, non_inferior, regressed or
 * inconclusive, from the task-clustered paired bootstrap interval of Δ pass rate against the
 * non-inferiority margin, the rubric regressions, and the exclusion-imbalance guard. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import {
  fisherExact,
  intervalBand,
  pooledPassRate,
  type Band,
  type PerTaskOutcomes,
} from "../../stats/index.js";
import { intervalMethod, verdictInterval } from "./interval.js";
import {
  armCounts,
  goalOf,
  runFactorToResolve,
  tasksToResolve,
  type ArmCounts,
} from "./projection.js";
import { groupBy, sortByRep } from "../../plan/group.js";
import { metricSuccess } from "../outcomes.js";
import { alignArms, type ArmOutcomes } from "./paired.js";
import { signed } from "./fmt.js";
import { MAX_EXCLUDED_SHARE } from "./tuning.js";
import { armLeakReason } from "./arm-integrity.js";
import type { ArmProblem } from "../../core/arm-integrity.js";
import type {
  BandRule,
  BandVerdict,
  DataQualityRow,
  DeltaWithInterval,
  ExclusionBalance,
  Lift,
  PairedSection,
  Roles,
  RunsNeeded,
} from "./types.js";

export const DEFAULT_MARGIN = 0.05;
/** Fisher's exact p below this, or a gap in excluded shares of at least IMBALANCE_GAP: inconclusive. */
const IMBALANCE_P = 0.1;
const IMBALANCE_GAP = 0.1;

export { verdictInterval } from "./interval.js";

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

/**
 * Δ pass rate counting every excluded run as a failure, both arms (the worst case of dropping
 * them), by the decision's method and level. With no run excluded it is the decision itself.
 */
function worstCase(
  reports: RunDigest[],
  roles: Roles,
  seed: number,
  decision: DeltaWithInterval,
  noneExcluded: boolean,
  sequential: { alpha_look: number } | null,
): BandVerdict["worst_case"] {
  const a = worstCaseOutcomes(reports, roles.candidate);
  const b = worstCaseOutcomes(reports, roles.baseline);
  const al = alignArms(a, b);
  const d = noneExcluded ? decision : pairedDelta(a, b, seed, sequential);
  return {
    delta: d.delta,
    ci: d.ci,
    candidate_rate: al.tasks.length ? pooledPassRate(al.a) : null,
    baseline_rate: al.tasks.length ? pooledPassRate(al.b) : null,
  };
}

const installed = (r: RunDigest): string[] => r.skill_sources.map((s) => s.name);

/**
 * The share of a treatment's analysis-set runs that invoked their own Skill (null: no run, or no
 * run installs one), and the runs that did (each run's transcript summary read once for both).
 */
function invocations(
  reports: RunDigest[],
  treatment: string,
): { rate: number | null; invoked: Set<RunDigest> } {
  const rs = reports.filter(
    (r) => r.treatment === treatment && r.sample_quality.include_in_analysis,
  );
  // Each distinct Skill list's names once: the runs of a treatment share it (on packed digests
  // it is the very array, store/packed-digests.ts).
  const namesOf = new Map<RunDigest["skill_sources"], string[]>();
  const hits = rs.filter((r) => {
    let own = namesOf.get(r.skill_sources);
    if (!own) namesOf.set(r.skill_sources, (own = installed(r)));
    const mine = own;
    return (r.events_summary?.skills_invoked ?? []).some((s) => mine.includes(s));
  });
  const invoked = new Set(hits);
  if (rs.length === 0 || rs.every((r) => r.skill_sources.length === 0))
    return { rate: null, invoked };
  return { rate: hits.length / rs.length, invoked };
}

/** The key files a run's Skills declare (report.json `skill_usage[].key_files`). */
const keyFilesOf = (r: RunDigest): string[] =>
  (r.skill_usage ?? []).flatMap((u) => u.key_files ?? []);
/** The run declares key files and read every one of them (null: it declares none). */
const keyRead = (r: RunDigest): boolean | null =>
  keyFilesOf(r).length === 0
    ? null
    : (r.skill_usage ?? []).every((u) =>
        (u.key_files ?? []).every((f) => u.files_read.includes(f)),
      );

/**
 * The candidate's lift split by whether its runs read the key files (`key_files:` in the eval
 * manifest, docs/statistics.md §9): each half of its runs against every baseline run, by the
 * same method as the per-protocol lift. Absent when none of its runs declares a key file.
 */
function keyFileLift(
  reports: RunDigest[],
  roles: Roles,
  base: ArmOutcomes,
  seed: number,
  sequential: { alpha_look: number } | null,
): Pick<Lift, "key_file"> {
  const keys = new Set(reports.filter((r) => r.treatment === roles.candidate).flatMap(keyFilesOf));
  if (keys.size === 0) return {};
  const half = (read: boolean) =>
    pairedDelta(
      arm(reports, roles.candidate, (r) => keyRead(r) === read),
      base,
      seed,
      sequential,
    );
  return { key_file: { key_files: [...keys], read: half(true), not_read: half(false) } };
}

/**
 * Lift over all runs (intent to treat: the decision's Δ and interval, `itt`) and over the
 * candidate's runs that invoked its Skill (per protocol, by the same method and level), and,
 * when its Skill declares key files, over the runs that read them and those that did not.
 */
export function liftOf(
  reports: RunDigest[],
  roles: Roles,
  seed: number,
  itt: DeltaWithInterval | null = null,
  sequential: { alpha_look: number } | null = null,
): Lift {
  const base = arm(reports, roles.baseline);
  const all = itt ?? pairedDelta(arm(reports, roles.candidate), base, seed, sequential);
  const cand = invocations(reports, roles.candidate);
  const pp = pairedDelta(
    arm(reports, roles.candidate, (r) => cand.invoked.has(r)),
    base,
    seed,
    sequential,
  );
  const candidate = cand.rate;
  return {
    itt: { delta: all.delta, ci: all.ci },
    per_protocol: pp,
    invocation_rate: { candidate, baseline: invocations(reports, roles.baseline).rate },
    silent_bypass: candidate !== null && candidate < 0.5,
    ...keyFileLift(reports, roles, base, seed, sequential),
  };
}

const f2 = (x: number): string => x.toFixed(2);

/**
 * What would resolve the comparison further, from the band and its rule (RunsNeeded): a band
 * that claims a difference needs nothing more; a data-quality band needs the exclusions fixed;
 * otherwise the decision's interval projected from the observed per-task rates (projection.ts):
 * the runs per task that would resolve the next claim, or, when the tasks disagree so that no
 * number of runs does, the tasks that would.
 */
function runsNeeded(
  p: PairedSection,
  arms: { a: ArmCounts; b: ArmCounts },
  band: Band,
  rule: BandRule,
  margin: number,
  alpha: number,
): RunsNeeded {
  const none = {
    goal: null,
    per_treatment_total: null,
    more_per_treatment: null,
    more_per_task: null,
  };
  const pa = p.candidate_pass_rate;
  const pb = p.baseline_pass_rate;
  if (pa === null || pb === null || p.tasks.length === 0 || rule === "no_common_task")
    return { ...none, status: "nothing", text: "Nothing to resolve: no task has runs under both." };
  if (rule === "arm_leak")
    return {
      ...none,
      status: "data_quality",
      text: "More runs do not resolve this while a Skill reaches an arm without it (see Arm integrity): remove the leak, then run again.",
    };
  if (rule === "exclusion_imbalance" || rule === "excluded_majority")
    return {
      ...none,
      status: "data_quality",
      text: "More runs do not resolve this while runs are excluded: remove what excluded them (see Excluded runs), then run again.",
    };
  const decided = { ...none, status: "decided" as const, more_per_treatment: 0, more_per_task: 0 };
  if (rule === "rubric_mixed")
    return {
      ...decided,
      text: "None: both results are resolved (the pass rate improves, the rubric regresses); weigh them, more runs will not.",
    };
  if (band === "improved" || band === "regressed")
    return { ...decided, text: `None: the band is decided (${band}).` };
  const goal = goalOf(pa - pb, margin);
  if (goal === "non_inferiority" && band === "non_inferior")
    return {
      ...decided,
      goal,
      text: "None: non-inferiority is shown, and the observed rates suggest no improvement to look for.",
    };
  const goalText = goal.replace("_", "-");
  const tasks = p.tasks.length;
  // runs per task and treatment now (the smaller arm's, on average)
  const perTask = Math.max(1, Math.round(Math.min(p.candidate_runs, p.baseline_runs) / tasks));
  const rates = `${f2(pa)} vs ${f2(pb)}`;
  const f = runFactorToResolve(arms.a, arms.b, goal, margin, alpha, 2);
  if (f !== null) {
    const more = perTask * (f - 1);
    return {
      goal,
      status: "more_runs",
      per_treatment_total: perTask * f * tasks,
      more_per_treatment: more * tasks,
      more_per_task: more,
      text: `About ${more} more runs per task and treatment (${more * tasks} more per treatment, ${perTask * f * tasks} in all) would show ${goalText} if the observed rates (${rates}) hold: the decision's interval projected at those runs (a lower bound, with no margin for chance).`,
    };
  }
  const needed = tasksToResolve(arms.a, arms.b, goal, margin, alpha, 1);
  if (needed !== null)
    return {
      ...none,
      goal,
      status: "more_tasks",
      text: `Add tasks, not only runs: the tasks disagree, so no number of runs per task resolves it at ${tasks} task(s) (the interval is task-clustered); about ${needed} tasks as spread as these would show ${goalText} at ${perTask} run(s) per task, if the observed rates (${rates}) hold.`,
    };
  return {
    ...none,
    goal,
    status: "no_runs",
    text: `Neither more runs nor more tasks like these would show ${goalText}: the observed rates (${rates}) sit too close to the line it must clear.`,
  };
}

const pct = (x: number | null): string => (x === null ? "—" : `${Math.round(100 * x)}%`);

/** "+0.67 [+0.00, +1.00]": a Δ with its interval, as every report prints the decision's. */
export function deltaText(delta: number | null, ci: { low: number; high: number } | null): string {
  return `${signed(delta)} ${ci ? `[${signed(ci.low)}, ${signed(ci.high)}]` : "—"}`;
}

/** The short value of "More runs needed" (its sentence is `runs_needed.text`). */
export function runsNeededValue(rn: RunsNeeded): string {
  switch (rn.status) {
    case "decided":
      return "none (decided)";
    case "more_runs":
      return `${rn.more_per_treatment ?? "—"} per treatment (≈ ${rn.more_per_task ?? "—"} per task)`;
    case "more_tasks":
      return "add tasks";
    case "no_runs":
    case "data_quality":
    case "nothing":
      return "—";
  }
}

export interface BandInput {
  reports: RunDigest[];
  roles: Roles;
  /** its `delta_pass_rate` is the decision's interval (pairedSection, by verdictInterval) */
  paired: PairedSection;
  candidateQuality: DataQualityRow;
  baselineQuality: DataQualityRow;
  regressions: Array<{ dimension: string; delta: number }>;
  /** rubric dimensions whose Δ is below −tolerance but whose interval does not resolve it */
  unresolved?:
    | Array<{ dimension: string; delta: number; ci: { low: number; high: number } | null }>
    | undefined;
  margin: number;
  seed: number;
  settings: { replicates: number; level: number };
  /** a look of `run --until-decided`: the nominal two-sided level it may spend (§12) */
  sequential?: { alpha_look: number } | null | undefined;
  /** `arm_leak` problems of the compared arms (arm-integrity.ts): the band is inconclusive (statistics.md, "Arm integrity") */
  armLeaks?: readonly ArmProblem[] | undefined;
}

/** The noise sentence of a pooled comparison whose arms mix agents. */
export const MIXED_AGENTS_NOISE =
  "The pooled Δ pass rate mixes agents and decides nothing: each agent's comparison is its own (by_agent).";

/** The noise sentence of a pooled comparison whose arms mix models. */
export const MIXED_MODELS_NOISE =
  "The pooled Δ pass rate mixes models and decides nothing: each model's comparison is its own (by_model).";

/** The noise sentence, from the band's rule and the decision's interval (never against the band). */
function noiseSentence(band: Band, rule: BandRule, dText: string, excludesZero: boolean): string {
  switch (rule) {
    case "no_common_task":
      return "Nothing to compare.";
    case "exclusion_imbalance":
    case "excluded_majority":
      return excludesZero
        ? `The interval excludes 0 (Δ pass rate ${dText}), but the verdict claims no difference: the excluded runs may account for it.`
        : `The difference is not distinguishable from noise (Δ pass rate ${dText} includes 0), and the excluded runs leave the verdict inconclusive anyway.`;
    case "rubric_mixed":
      return `The pass-rate interval excludes 0 (Δ pass rate ${dText}), but a rubric regression keeps the verdict inconclusive: the two resolved results point different ways.`;
    case "mixed_agents":
      return MIXED_AGENTS_NOISE;
    case "mixed_models":
      return MIXED_MODELS_NOISE;
    case "arm_leak":
      return `Whatever the Δ pass rate (${dText}), it does not measure the Skill: a Skill leaked into an arm without it.`;
    case "rubric":
      return `The pass-rate difference is not distinguishable from noise (Δ pass rate ${dText} includes 0); the band comes from the rubric regressions.`;
    case "interval":
      return band === "improved" || band === "regressed"
        ? `The difference is distinguishable from noise: Δ pass rate ${dText} excludes 0.`
        : `The difference is not distinguishable from noise at this sample size: Δ pass rate ${dText} includes 0.`;
  }
}

/** The band and its one-sentence reason (docs/statistics.md §9, first rule that applies). */
export function decideBand(i: BandInput): BandVerdict {
  const { candidate: c, baseline: b } = i.roles;
  const p = i.paired;
  const seq = i.sequential ?? null;
  const decision: DeltaWithInterval = p.delta_pass_rate
    ? {
        delta: p.delta_pass_rate.estimate,
        ci: {
          low: p.delta_pass_rate.low,
          high: p.delta_pass_rate.high,
          level: p.delta_pass_rate.level,
        },
      }
    : { delta: null, ci: null };
  const { delta, ci } = decision;
  const exclusion = exclusionBalance(i.candidateQuality, i.baselineQuality);
  const aligned = alignArms(arm(i.reports, c), arm(i.reports, b));
  const projectionArms = { a: armCounts(aligned.a), b: armCounts(aligned.b) };
  const alphaOf = seq ? seq.alpha_look : 1 - i.settings.level;
  const noneExcluded = exclusion.candidate.excluded === 0 && exclusion.baseline.excluded === 0;
  const method = intervalMethod(
    { replicates: i.settings.replicates, seed: i.seed, level: i.settings.level },
    seq,
  );
  const dText = deltaText(delta, ci);
  const excludesZero = ci !== null && (ci.low > 0 || ci.high < 0);
  const out = (band: Band, rule: BandRule, reason: string): BandVerdict => ({
    band,
    reason,
    rule,
    delta,
    ci,
    method,
    noise: noiseSentence(band, rule, dText, excludesZero),
    margin: i.margin,
    exclusion,
    worst_case: worstCase(i.reports, i.roles, i.seed, decision, noneExcluded, seq),
    runs_needed: runsNeeded(p, projectionArms, band, rule, i.margin, alphaOf),
  });
  const dPhrase = `Δ pass rate ${dText}`;
  if (p.tasks.length === 0 || delta === null || ci === null)
    return out(
      "inconclusive",
      "no_common_task",
      `No task has analysis-set runs under both \`${c}\` and \`${b}\`, so there is nothing to compare.`,
    );
  const leaks = i.armLeaks ?? [];
  if (leaks.length > 0) return out("inconclusive", "arm_leak", armLeakReason(leaks));
  if (exclusion.imbalanced)
    return out(
      "inconclusive",
      "exclusion_imbalance",
      `The arms lost different shares of runs to exclusion (\`${c}\` ${exclusion.candidate.excluded}/${exclusion.candidate.raw}, \`${b}\` ${exclusion.baseline.excluded}/${exclusion.baseline.raw}; Fisher p = ${exclusion.fisher_p.toFixed(3)}, gap ${pct(exclusion.gap)}), so the analysis-set ${dPhrase} may come from what was dropped.`,
    );
  const noisy = [i.candidateQuality, i.baselineQuality].filter(
    (q) => q.excluded_share !== null && q.excluded_share > MAX_EXCLUDED_SHARE,
  );
  if (noisy.length > 0)
    return out(
      "inconclusive",
      "excluded_majority",
      `More than half of the runs were excluded as infrastructure noise (${noisy.map((q) => `\`${q.treatment}\` ${q.excluded}/${q.raw}`).join(", ")}), so the ${dPhrase} rests on too little.`,
    );
  const byInterval = intervalBand(ci.low, ci.high, i.margin);
  const regress = i.regressions.map((r) => `${r.dimension} (Δ ${signed(r.delta)})`).join(", ");
  const unresolved = i.unresolved ?? [];
  const open =
    unresolved.length > 0
      ? ` Unresolved rubric dimensions (mean Δ below the tolerance, interval not; they do not move the band): ${unresolved.map((r) => `${r.dimension} (Δ ${signed(r.delta)}${r.ci ? ` [${signed(r.ci.low)}, ${signed(r.ci.high)}]` : ", no spread to estimate"})`).join(", ")}.`
      : "";
  if (byInterval === "regressed")
    return out(
      "regressed",
      "interval",
      `\`${c}\` passes less often than \`${b}\`: ${dPhrase} lies entirely below 0.${open}`,
    );
  if (i.regressions.length > 0 && byInterval === "improved")
    return out(
      "inconclusive",
      "rubric_mixed",
      `Mixed: \`${c}\` passes more often (${dPhrase}, above 0) but its rubric regresses on ${regress}, each interval below the tolerance (Holm-corrected over the dimensions).`,
    );
  if (i.regressions.length > 0)
    return out(
      "regressed",
      "rubric",
      `\`${c}\` regresses on the rubric: ${regress} below \`${b}\`, each interval below the tolerance (Holm-corrected over the dimensions), and the pass rate shows no improvement (${dPhrase}).${open}`,
    );
  if (byInterval === "improved")
    return out(
      "improved",
      "interval",
      `\`${c}\` passes more often than \`${b}\`: ${dPhrase} lies entirely above 0.${open}`,
    );
  if (byInterval === "non_inferior")
    return out(
      "non_inferior",
      "interval",
      `\`${c}\` is no worse than \`${b}\` by more than the margin: ${dPhrase} stays above −${f2(i.margin)}.${open}`,
    );
  return out(
    "inconclusive",
    "interval",
    `Not resolved at this sample size: ${dPhrase} reaches below −${f2(i.margin)} and above 0, so neither a regression beyond the margin nor an improvement can be ruled out.${open}`,
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
