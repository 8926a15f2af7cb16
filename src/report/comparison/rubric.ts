import type { RunDigest } from "../../core/digest.js";
import { mean, stdev } from "../../stats/index.js";
import { orderDimensions } from "../format.js";
import { dimensionTests } from "./rubric-tests.js";
import { ALPHA, DIMENSION_PASS_SCORE, REGRESSION_TOLERANCE } from "./tuning.js";
import type { DimensionCell, RubricSection, Roles } from "./types.js";

function dimensionCell(scores: number[]): DimensionCell {
  return {
    n: scores.length,
    mean: mean(scores),
    stdev: stdev(scores),
    pass_rate:
      scores.length === 0
        ? null
        : scores.filter((s) => s >= DIMENSION_PASS_SCORE).length / scores.length,
  };
}

function deltaOf(cells: Record<string, DimensionCell | null>, roles: Roles): number | null {
  const a = cells[roles.candidate]?.mean;
  const b = cells[roles.baseline]?.mean;
  return a === null || a === undefined || b === null || b === undefined ? null : a - b;
}

/**
 * Rubric dimensions per treatment over the analysis set: mean, stdev and pass% of the
 * scored runs (N/A scores left out; a cell is null when no run of the treatment has the
 * dimension, and has n = 0 when every run scored N/A). Overall = mean weighted_score. Each
 * dimension the candidate and the baseline both scored, and each judge dimension, gets its
 * regression test (rubric-tests.ts): a regression only when its interval lies below −tolerance.
 */
export function rubricSection(
  analysis: RunDigest[],
  treatments: string[],
  roles: Roles,
): RubricSection {
  // One pass over the runs: per dimension and treatment, how many runs' dimensions carry the
  // name and their non-N/A scores (in run order, as the means and stdevs add them); per
  // treatment the weighted scores and the run count; per dimension the weights seen.
  type Acc = { dims: number; scores: number[] };
  const byName = new Map<string, Map<string, Acc>>();
  const weightsOf = new Map<string, Set<number>>();
  const overallScores = new Map<string, number[]>();
  const runsOf = new Map<string, number>();
  const profileSet = new Set<string>();
  // Runs share their rubric object (a packed digest's is the very object every run with the same
  // scores holds, store/packed-digests.ts): the first run with a rubric and treatment finds (or
  // makes) its dimensions' accumulators and notes its profile and weights, in run order; the
  // others only add to them.
  const accsOf = new Map<string, Map<NonNullable<RunDigest["rubric"]>, Acc[]>>();
  const accsFor = (rubric: NonNullable<RunDigest["rubric"]>, treatment: string): Acc[] => {
    let byRubric = accsOf.get(treatment);
    if (!byRubric)
      accsOf.set(treatment, (byRubric = new Map<NonNullable<RunDigest["rubric"]>, Acc[]>()));
    let accs = byRubric.get(rubric);
    if (accs) return accs;
    profileSet.add(rubric.profile);
    accs = rubric.dimensions.map((d) => {
      let perT = byName.get(d.name);
      if (!perT) byName.set(d.name, (perT = new Map<string, Acc>()));
      let acc = perT.get(treatment);
      if (!acc) perT.set(treatment, (acc = { dims: 0, scores: [] }));
      let ws = weightsOf.get(d.name);
      if (!ws) weightsOf.set(d.name, (ws = new Set<number>()));
      ws.add(d.weight);
      return acc;
    });
    byRubric.set(rubric, accs);
    return accs;
  };
  for (const r of analysis) {
    const treatment = r.treatment;
    runsOf.set(treatment, (runsOf.get(treatment) ?? 0) + 1);
    const rubric = r.rubric;
    if (rubric === null) continue;
    if (typeof rubric.weighted_score === "number") {
      const o = overallScores.get(treatment);
      if (o) o.push(rubric.weighted_score);
      else overallScores.set(treatment, [rubric.weighted_score]);
    }
    const accs = accsFor(rubric, treatment);
    const dims = rubric.dimensions;
    for (let i = 0; i < dims.length; i++) {
      const acc = accs[i] as Acc;
      acc.dims++;
      const score = (dims[i] as (typeof dims)[number]).score;
      if (score !== null) acc.scores.push(score);
    }
  }
  const names = orderDimensions(byName.keys());
  const judgeNames: string[] = [];
  for (const r of analysis)
    for (const d of r.judge?.dimensions ?? [])
      if (!judgeNames.includes(d.name)) judgeNames.push(d.name);
  const tests = dimensionTests(
    analysis,
    roles,
    { rubric: names, judge: judgeNames },
    REGRESSION_TOLERANCE,
    ALPHA,
  );
  const testOf = (source: "rubric" | "judge", name: string) =>
    tests.find((t) => t.source === source && t.name === name)?.test ?? null;
  const dimensions = names.map((name) => {
    const perT = byName.get(name);
    const cells: Record<string, DimensionCell | null> = {};
    for (const t of treatments) {
      const acc = perT?.get(t);
      cells[t] = acc === undefined || acc.dims === 0 ? null : dimensionCell(acc.scores);
    }
    const delta = deltaOf(cells, roles);
    const test = testOf("rubric", name);
    return { name, cells, delta, regression: test?.status === "regression", test };
  });
  const judgeMean = (t: string, name: string): number | null =>
    mean(
      analysis
        .filter((r) => r.treatment === t)
        .map((r) => r.judge?.dimensions.find((d) => d.name === name)?.score)
        .filter((x): x is number => typeof x === "number"),
    );
  const judge = judgeNames.flatMap((name) => {
    const test = testOf("judge", name);
    return test
      ? [
          {
            name,
            candidate: judgeMean(roles.candidate, name),
            baseline: judgeMean(roles.baseline, name),
            regression: test.status === "regression",
            test,
          },
        ]
      : [];
  });
  const overallCells: Record<string, DimensionCell | null> = {};
  for (const t of treatments) {
    const nums = overallScores.get(t);
    overallCells[t] = nums === undefined || nums.length === 0 ? null : dimensionCell(nums);
  }
  const weights = names.map((name) => ({
    name,
    weights: [...(weightsOf.get(name) ?? [])].sort((a, b) => a - b),
  }));
  const profiles = [...profileSet];
  const distribution = treatments.every((t) => (runsOf.get(t) ?? 0) >= 2);
  return {
    distribution,
    profiles,
    dimensions,
    overall: { cells: overallCells, delta: deltaOf(overallCells, roles) },
    weights,
    judge,
  };
}
