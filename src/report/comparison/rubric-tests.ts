/**
 * Rubric regressions under noise control (docs/statistics.md §9, "Rubric regressions"): for
 * every rubric dimension and every judge dimension, candidate − baseline mean score with a
 * task-clustered interval (stats/score-difference.ts), Holm-corrected over the dimensions tested;
 * a dimension regresses only when its interval lies below −tolerance. One whose mean Δ is below
 * −tolerance but whose interval does not resolve it is `unresolved`: it does not move the band,
 * and the verdict names it. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import { holm, regressionP, scoreDifference, scoreInterval } from "../../stats/index.js";
import { groupBy } from "../../plan/group.js";
import type { DimensionTest, Roles } from "./types.js";

/** Scores per task of one arm for one dimension (tasks in the order given). */
type Scores = (r: RunDigest) => number | null;

function perTask(byTask: Map<string, RunDigest[]>, tasks: string[], score: Scores): number[][] {
  return tasks.map((t) =>
    (byTask.get(t) ?? []).map(score).filter((x): x is number => typeof x === "number"),
  );
}

/**
 * Each rubric dimension's scores per task of one arm (by `names`, then tasks in the order given),
 * in one pass over the arm's runs: runs share their rubric object (on packed digests it is the
 * very object), so each distinct one's scores by name are found once. The scores perTask gives
 * with the rubric dimension's score of each name.
 */
function rubricPerTask(
  byTask: Map<string, RunDigest[]>,
  tasks: string[],
  names: string[],
): number[][][] {
  const out = names.map(() => tasks.map((): number[] => []));
  const scoresOf = new Map<NonNullable<RunDigest["rubric"]>, Array<number | null>>();
  tasks.forEach((t, ti) => {
    for (const r of byTask.get(t) ?? []) {
      const rubric = r.rubric;
      if (rubric === null) continue;
      let scores = scoresOf.get(rubric);
      if (!scores) {
        scores = names.map((n) => rubric.dimensions.find((d) => d.name === n)?.score ?? null);
        scoresOf.set(rubric, scores);
      }
      scores.forEach((x, k) => {
        if (typeof x === "number") (out[k]?.[ti] as number[]).push(x);
      });
    }
  });
  return out;
}

export interface TestedDimension {
  name: string;
  source: "rubric" | "judge";
  test: DimensionTest;
}

/**
 * The tests of every dimension (rubric, then judge) that both arms scored, Holm-corrected
 * together at `alpha` against the margin `tolerance`.
 */
export function dimensionTests(
  analysis: RunDigest[],
  roles: Roles,
  dims: { rubric: string[]; judge: string[] },
  tolerance: number,
  alpha: number,
): TestedDimension[] {
  // Each arm's runs by task once, for every dimension (tasks in the candidate's first-seen order).
  const cand = groupBy(
    analysis.filter((r) => r.treatment === roles.candidate),
    (r) => r.task,
  );
  const base = groupBy(
    analysis.filter((r) => r.treatment === roles.baseline),
    (r) => r.task,
  );
  const tasks = [...cand.keys()].filter((t) => base.has(t));
  const judgeScore =
    (name: string): Scores =>
    (r) =>
      r.judge?.dimensions.find((d) => d.name === name)?.score ?? null;
  const candRubric = rubricPerTask(cand, tasks, dims.rubric);
  const baseRubric = rubricPerTask(base, tasks, dims.rubric);
  const raw = [
    ...dims.rubric.map((name, k) => ({
      name,
      source: "rubric" as const,
      a: candRubric[k] ?? [],
      b: baseRubric[k] ?? [],
    })),
    ...dims.judge.map((name) => ({
      name,
      source: "judge" as const,
      a: perTask(cand, tasks, judgeScore(name)),
      b: perTask(base, tasks, judgeScore(name)),
    })),
  ].flatMap((x) => {
    const d = scoreDifference(x.a, x.b);
    return d ? [{ name: x.name, source: x.source, d, p: regressionP(d, tolerance) }] : [];
  });
  const steps = holm(
    raw.map((x) => x.p),
    alpha,
  );
  return raw.map((x, k) => {
    const step = steps[k];
    const below = x.d.delta < -tolerance - 1e-9;
    return {
      name: x.name,
      source: x.source,
      test: {
        delta: x.d.delta,
        tasks: x.d.tasks,
        p: x.p,
        ci: step ? scoreInterval(x.d, step.alpha) : null,
        status: step?.rejected ? "regression" : below ? "unresolved" : "none",
      },
    };
  });
}
