import {
  bootstrapPairedDifference,
  discordantPairs,
  flipRate,
  mcnemarExact,
  pooledPassRate,
  repsNeeded,
  signTest,
  taskSignCounts,
  type PerTaskOutcomes,
} from "../../stats/index.js";
import { f2 } from "../format.js";
import { interval, pValue, signed } from "./fmt.js";
import {
  ALPHA,
  BOOTSTRAP_LEVEL,
  BOOTSTRAP_REPLICATES,
  POWER,
  type PairedSection,
  type Roles,
} from "./types.js";

export interface ArmOutcomes {
  tasks: string[];
  outcomes: PerTaskOutcomes;
}

/** The two arms restricted to the tasks both have, in the candidate's task order. */
export function alignArms(
  a: ArmOutcomes,
  b: ArmOutcomes,
): { tasks: string[]; a: PerTaskOutcomes; b: PerTaskOutcomes } {
  const at = (arm: ArmOutcomes): Map<string, number> => {
    const m = new Map<string, number>();
    arm.tasks.forEach((t, i) => {
      if (!m.has(t)) m.set(t, i);
    });
    return m;
  };
  const atA = at(a);
  const atB = at(b);
  const tasks = a.tasks.filter((t) => atB.has(t));
  const pick = (arm: ArmOutcomes, m: Map<string, number>): PerTaskOutcomes =>
    tasks.map((t) => arm.outcomes[m.get(t) ?? -1] ?? []);
  return { tasks, a: pick(a, atA), b: pick(b, atB) };
}

/** Smallest number of tasks t with 2 · 0.5^t < alpha: below it the sign test never rejects. */
export function signTestMinTasks(alpha: number): number {
  let t = 1;
  while (signTest(t, 0) >= alpha) t++;
  return t;
}

function conclusion(p: Omit<PairedSection, "conclusion">): string {
  const { candidate: c, baseline: b } = p;
  if (p.tasks.length === 0)
    return `No task has analysis-set runs under both \`${c}\` and \`${b}\`: nothing to compare.`;
  const d = p.delta_pass_rate;
  const sign = p.sign_test;
  const size = `${p.tasks.length} task(s), ${p.candidate_runs} vs ${p.baseline_runs} run(s)`;
  const head = p.distinguishable
    ? `With ${size}, the difference in pass rate (${signed(d?.estimate)}) is distinguishable from noise: the 95% interval ${interval(d)} excludes 0 and the sign test gives p = ${pValue(sign?.p)} < ${ALPHA}.`
    : `With ${size}, the difference in pass rate (${signed(d?.estimate)}) is not distinguishable from noise at this sample size (needs a 95% interval that excludes 0 — here ${interval(d)} — and a sign-test p < ${ALPHA} — here ${pValue(sign?.p)}).`;
  const floor =
    !p.distinguishable && p.tasks.length < p.sign_test_min_tasks
      ? ` With fewer than ${p.sign_test_min_tasks} tasks the sign test cannot reach p < ${ALPHA} whatever the results: add tasks, not only runs.`
      : "";
  const need =
    p.reps_needed === null
      ? "The observed pass rates are equal, so no number of runs would resolve a difference of this size."
      : (() => {
          const have = Math.min(p.candidate_runs, p.baseline_runs);
          const more = Math.max(0, p.reps_needed - have);
          const perTask = Math.ceil(more / Math.max(1, p.tasks.length));
          return more === 0
            ? `A two-proportion test for a difference of this size (${f2(p.candidate_pass_rate)} vs ${f2(p.baseline_pass_rate)}) needs about ${p.reps_needed} runs per treatment, which the arms already have (α = ${ALPHA}, power ${POWER}).`
            : `Resolving a difference of this size (${f2(p.candidate_pass_rate)} vs ${f2(p.baseline_pass_rate)}) needs about ${more} more runs per treatment (≈ ${perTask} more per task; ${p.reps_needed} in all, two-proportion test, α = ${ALPHA}, power ${POWER}; a lower bound, since runs of one task are correlated).`;
        })();
  return `${head}${floor} ${need}`;
}

/**
 * Candidate vs baseline on the tasks both have (overall metric, analysis set): Δ pooled
 * pass rate with a paired-by-task bootstrap interval, the per-task sign test, the exact
 * McNemar test on runs paired by repetition number, flip rates and runs needed. Pure.
 */
export function pairedSection(
  roles: Roles,
  cand: ArmOutcomes,
  base: ArmOutcomes,
  flips: Record<string, PerTaskOutcomes>,
  seed: number,
): PairedSection {
  const { tasks, a, b } = alignArms(cand, base);
  const runs = (o: PerTaskOutcomes): number => o.reduce((s, x) => s + x.length, 0);
  const pa = tasks.length === 0 ? null : pooledPassRate(a);
  const pb = tasks.length === 0 ? null : pooledPassRate(b);
  const boot =
    tasks.length === 0
      ? null
      : bootstrapPairedDifference(a, b, pooledPassRate, {
          seed,
          replicates: BOOTSTRAP_REPLICATES,
          level: BOOTSTRAP_LEVEL,
        });
  const sc = taskSignCounts(a, b);
  const sign =
    tasks.length === 0
      ? null
      : { pos: sc.pos, neg: sc.neg, ties: sc.ties, p: signTest(sc.pos, sc.neg) };
  const dp = discordantPairs(a, b);
  const mcnemar =
    dp.pairs === 0
      ? null
      : {
          pairs: dp.pairs,
          both_pass: dp.both_pass,
          candidate_only: dp.a_only,
          baseline_only: dp.b_only,
          both_fail: dp.both_fail,
          p: mcnemarExact(dp.a_only, dp.b_only),
        };
  const flip_rate: Record<string, number | null> = {};
  for (const [t, o] of Object.entries(flips)) flip_rate[t] = flipRate(o);
  const delta_pass_rate = boot
    ? {
        estimate: boot.estimate,
        low: boot.low,
        high: boot.high,
        valid_replicates: boot.valid_replicates,
      }
    : null;
  const distinguishable =
    delta_pass_rate !== null &&
    sign !== null &&
    (delta_pass_rate.low > 0 || delta_pass_rate.high < 0) &&
    sign.p < ALPHA;
  const body: Omit<PairedSection, "conclusion"> = {
    candidate: roles.candidate,
    baseline: roles.baseline,
    tasks,
    candidate_runs: runs(a),
    baseline_runs: runs(b),
    candidate_pass_rate: pa,
    baseline_pass_rate: pb,
    delta_pass_rate,
    sign_test: sign,
    mcnemar,
    flip_rate,
    distinguishable,
    sign_test_min_tasks: signTestMinTasks(ALPHA),
    reps_needed: pa === null || pb === null ? null : repsNeeded(pa, pb, ALPHA, POWER),
  };
  return { ...body, conclusion: conclusion(body) };
}
