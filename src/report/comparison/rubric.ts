import type { RunDigest } from "../../core/digest.js";
import { mean, stdev } from "../../stats/index.js";
import { orderDimensions } from "../format.js";
import {
  DIMENSION_PASS_SCORE,
  REGRESSION_TOLERANCE,
  type DimensionCell,
  type RubricSection,
  type Roles,
} from "./types.js";

/** A Δ below −tolerance is a regression; the epsilon keeps 0.85 − 0.90 (= −0.0500…04) from counting. */
function isRegression(delta: number | null): boolean {
  return delta !== null && delta < -REGRESSION_TOLERANCE - 1e-9;
}

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
 * dimension, and has n = 0 when every run scored N/A). Overall = mean weighted_score.
 */
export function rubricSection(
  analysis: RunDigest[],
  treatments: string[],
  roles: Roles,
): RubricSection {
  const withRubric = analysis.filter((r) => r.rubric !== null);
  const names = orderDimensions(
    withRubric.flatMap((r) => r.rubric?.dimensions.map((d) => d.name) ?? []),
  );
  const dimensions = names.map((name) => {
    const cells: Record<string, DimensionCell | null> = {};
    for (const t of treatments) {
      const dims = withRubric
        .filter((r) => r.treatment === t)
        .flatMap((r) => r.rubric?.dimensions.filter((d) => d.name === name) ?? []);
      cells[t] =
        dims.length === 0
          ? null
          : dimensionCell(dims.map((d) => d.score).filter((s): s is number => s !== null));
    }
    const delta = deltaOf(cells, roles);
    return { name, cells, delta, regression: isRegression(delta) };
  });
  const overallCells: Record<string, DimensionCell | null> = {};
  for (const t of treatments) {
    const scores = withRubric.filter((r) => r.treatment === t).map((r) => r.rubric?.weighted_score);
    const nums = scores.filter((s): s is number => typeof s === "number");
    overallCells[t] = nums.length === 0 ? null : dimensionCell(nums);
  }
  const weights = names.map((name) => {
    const ws: number[] = [];
    for (const r of withRubric)
      for (const d of r.rubric?.dimensions ?? [])
        if (d.name === name && !ws.includes(d.weight)) ws.push(d.weight);
    return { name, weights: ws.sort((a, b) => a - b) };
  });
  const profiles = [
    ...new Set(
      withRubric.map((r) => r.rubric?.profile).filter((p): p is string => p !== undefined),
    ),
  ];
  const distribution = treatments.every(
    (t) => analysis.filter((r) => r.treatment === t).length >= 2,
  );
  return {
    distribution,
    profiles,
    dimensions,
    overall: { cells: overallCells, delta: deltaOf(overallCells, roles) },
    weights,
  };
}
