import {
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
import { pValue, signed } from "./fmt.js";
import { intervalMethod, verdictInterval } from "./interval.js";
import { ALPHA, BOOTSTRAP_LEVEL, BOOTSTRAP_REPLICATES, POWER } from "./tuning.js";
import type { PairedSection, Roles } from "./types.js";

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

const deltaOf = (d: PairedSection["delta_pass_rate"]): string =>
  d ? `${signed(d.estimate)} [${signed(d.low)}, ${signed(d.high)}]` : "—";

/**
 * The sign test's place beside the decision: reported, never deciding. When the interval claims a
 * difference the sign test does not confirm, say so (with fewer than sign_test_min_tasks tasks it
 * cannot, whatever the results).
 */
function signTestCaveat(
  p: Pick<PairedSection, "sign_test" | "distinguishable" | "tasks" | "sign_test_min_tasks">,
): string {
  const s = p.sign_test;
  if (!s) return "";
  const text = `the per-task sign test gives p = ${pValue(s.p)} (${s.pos} better, ${s.neg} worse, ${s.ties} tied)`;
  if (!p.distinguishable || s.p < ALPHA) return `Beside it, ${text}.`;
  return `Beside it, ${text}, which does not confirm it${p.tasks.length < p.sign_test_min_tasks ? ` (with fewer than ${p.sign_test_min_tasks} tasks it cannot reach p < ${ALPHA} whatever the results)` : ""}; the band rests on the interval.`;
}

/** The paired conclusion: the size, then the decision's noise sentence, the sign test beside it, and what would resolve it. */
export function pairedConclusion(
  p: Omit<PairedSection, "conclusion">,
  noise: string,
  runsNeeded: string,
): string {
  if (p.tasks.length === 0)
    return `No task has analysis-set runs under both \`${p.candidate}\` and \`${p.baseline}\`: nothing to compare.`;
  const size = `${p.tasks.length} task(s), ${p.candidate_runs} vs ${p.baseline_runs} run(s)`;
  return `With ${size}. ${noise} ${signTestCaveat(p)} ${runsNeeded}`.replace(/ +/g, " ").trim();
}

/** The interval-only reading (aligned comparisons, which have no band). */
function conclusion(p: Omit<PairedSection, "conclusion">): string {
  const { candidate: c, baseline: b } = p;
  if (p.tasks.length === 0)
    return `No task has analysis-set runs under both \`${c}\` and \`${b}\`: nothing to compare.`;
  const d = p.delta_pass_rate;
  const size = `${p.tasks.length} task(s), ${p.candidate_runs} vs ${p.baseline_runs} run(s)`;
  const head = p.distinguishable
    ? `With ${size}, the difference in pass rate is distinguishable from noise: Δ pass rate ${deltaOf(d)} excludes 0.`
    : `With ${size}, the difference in pass rate is not distinguishable from noise at this sample size: Δ pass rate ${deltaOf(d)} includes 0.`;
  const floor = ` ${signTestCaveat(p)}`;
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
 * pass rate with the decision's interval (interval.ts), the per-task sign test, the exact
 * McNemar test on runs paired by repetition number, flip rates and runs needed. Pure.
 */
export function pairedSection(
  roles: Roles,
  cand: ArmOutcomes,
  base: ArmOutcomes,
  flips: Record<string, PerTaskOutcomes>,
  seed: number,
  sequential: { alpha_look: number } | null = null,
): PairedSection {
  const { tasks, a, b } = alignArms(cand, base);
  const runs = (o: PerTaskOutcomes): number => o.reduce((s, x) => s + x.length, 0);
  const pa = tasks.length === 0 ? null : pooledPassRate(a);
  const pb = tasks.length === 0 ? null : pooledPassRate(b);
  // The decision's interval (interval.ts): the one interval of Δ pass rate every report prints.
  const boot = tasks.length === 0 ? null : verdictInterval(a, b, seed, sequential);
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
        estimate: boot.delta,
        low: boot.ci.low,
        high: boot.ci.high,
        level: boot.ci.level,
        valid_replicates: boot.valid_replicates,
        method: intervalMethod(
          { replicates: BOOTSTRAP_REPLICATES, seed, level: BOOTSTRAP_LEVEL },
          sequential,
        ),
      }
    : null;
  // The interval decides (as the band does); the sign test is reported beside it.
  const distinguishable =
    delta_pass_rate !== null && (delta_pass_rate.low > 0 || delta_pass_rate.high < 0);
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
