/**
 * `judge calibrate`'s statistics (docs/judge.md, "Calibration"): the judge's scores of a results
 * folder against human labels, per judge dimension. Pure: reports and labels in, the calibration
 * record out.
 */
import type { JudgeBlock } from "../../core/judge.js";
import { InputError } from "../../core/errors.js";
import {
  bootstrapUnits,
  cohensKappa,
  confusionMatrix,
  krippendorffAlpha,
  type Rating,
} from "../../stats/agreement.js";
import type { JudgeIdentity } from "./identity.js";
import type { Labels } from "./labels.js";
import { JUDGE_CALIBRATION_SCHEMA, type Estimate, type JudgeCalibration } from "./schema.js";

export interface CalibrationRun {
  run_id: string;
  judge: JudgeBlock | null;
}

export interface CalibrationOptions {
  /** Ordered levels on 0..1 both scales map to (default 3: 0, 0.5, 1, the prompt's anchors). */
  levels?: number;
  replicates?: number;
  seed?: number;
  /** Interval coverage (default 0.95). */
  level?: number;
  experimentId?: string | null;
  createdAt: string;
}

const DEFAULT_LEVELS = 3;
const JUDGE = "judge";

/** The level of a score on 0..1: the nearest of `levels` equally spaced points. */
export function levelOf(score: number, levels: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * (levels - 1));
}

function estimate<T>(
  units: readonly T[],
  statistic: (s: readonly T[]) => number | null,
  o: { replicates: number; seed: number; level: number },
): Estimate {
  const point = units.length === 0 ? null : statistic(units);
  const b = point === null ? null : bootstrapUnits(units, statistic, o);
  return {
    estimate: point,
    low: b?.low ?? null,
    high: b?.high ?? null,
    valid_replicates: b?.valid_replicates ?? 0,
  };
}

export function buildJudgeCalibration(
  runs: readonly CalibrationRun[],
  labels: Labels,
  identity: JudgeIdentity,
  opts: CalibrationOptions,
): JudgeCalibration {
  const levels = opts.levels ?? DEFAULT_LEVELS;
  const boot = {
    replicates: opts.replicates ?? 2000,
    seed: opts.seed ?? 1,
    level: opts.level ?? 0.95,
  };
  const byId = new Map(runs.map((r) => [r.run_id, r]));
  const judged = (r: CalibrationRun | undefined): JudgeBlock | null =>
    r?.judge && r.judge.status === "enabled_and_successful" ? r.judge : null;
  const notes: string[] = [];

  // Every label names a stored run and a dimension the judge scores in this folder.
  for (const l of labels.runs) {
    if (!byId.has(l.run_id))
      throw new InputError(
        `${labels.file}:${l.line}: run_id: no run ${l.run_id} in this results folder`,
        { file: labels.file, line: l.line, field: "run_id" },
      );
    if (!identity.rubric.dimensions.includes(l.dimension))
      throw new InputError(
        `${labels.file}:${l.line}: dimension: ${l.dimension} is not a judge dimension here (the judge scored: ${identity.rubric.dimensions.join(", ")})`,
        { file: labels.file, line: l.line, field: "dimension" },
      );
  }
  const raters = [...new Set(labels.runs.map((l) => l.rater))].sort();
  if (raters.includes(JUDGE))
    throw new InputError(
      `${labels.file}: rater: "${JUDGE}" names the judge itself; call the human raters something else`,
      { file: labels.file, field: "rater" },
    );

  const dimensions = [...new Set(labels.runs.map((l) => l.dimension))].sort();
  const dimensionRecords = dimensions.map((dim) => {
    // One unit per labelled run: the judge's level, then each rater's (null: not labelled).
    const ids = [
      ...new Set(labels.runs.filter((l) => l.dimension === dim).map((l) => l.run_id)),
    ].sort();
    const units: Rating[][] = ids.map((id) => {
      const score = judged(byId.get(id))?.dimensions.find((d) => d.name === dim)?.score;
      const row: Rating[] = [score === undefined || score === null ? null : levelOf(score, levels)];
      for (const rater of raters) {
        const l = labels.runs.find(
          (x) => x.run_id === id && x.dimension === dim && x.rater === rater,
        );
        row.push(l === undefined ? null : levelOf(l.label, levels));
      }
      return row;
    });
    const unjudged = units.filter((u) => u[0] === null).length;
    if (unjudged > 0)
      notes.push(
        `${dim}: ${unjudged} labelled run(s) have no judge score (the judge failed or was skipped there); they count only among the human raters`,
      );
    // Per rater: only the raters who labelled this dimension.
    const labelledBy = new Set(labels.runs.filter((l) => l.dimension === dim).map((l) => l.rater));
    const raterRecords = raters.flatMap((rater, r) => {
      if (!labelledBy.has(rater)) return [];
      const pairs = units
        .map((u) => [u[0] ?? null, u[r + 1] ?? null] as const)
        .filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null);
      const js = (s: readonly (readonly [number, number])[]): Rating[] => s.map((p) => p[0]);
      const hs = (s: readonly (readonly [number, number])[]): Rating[] => s.map((p) => p[1]);
      return [
        {
          rater,
          units: pairs.length,
          kappa: estimate(pairs, (s) => cohensKappa(js(s), hs(s), levels), boot),
          weighted_kappa: estimate(
            pairs,
            (s) => cohensKappa(js(s), hs(s), levels, "quadratic"),
            boot,
          ),
          confusion: confusionMatrix(js(pairs), hs(pairs), levels).counts,
          agreement: estimate(pairs, (s) => confusionMatrix(js(s), hs(s), levels).agreement, boot),
        },
      ];
    });
    return {
      name: dim,
      units: units.filter((u) => u.filter((v) => v !== null).length >= 2).length,
      alpha_ordinal: estimate(units, (s) => krippendorffAlpha(s, levels, "ordinal"), boot),
      alpha_nominal: estimate(units, (s) => krippendorffAlpha(s, levels, "nominal"), boot),
      raters: raterRecords,
    };
  });

  // The judge against itself: its samples of one run as raters of that run.
  const repeatability = identity.rubric.dimensions.map((dim) => {
    const scored = runs
      .map((r) => judged(r)?.dimensions.find((d) => d.name === dim))
      .filter((d) => d !== undefined && d.samples.length >= 2);
    const units: Rating[][] = scored.map((d) => (d?.samples ?? []).map((s) => levelOf(s, levels)));
    return {
      dimension: dim,
      runs: scored.length,
      samples_per_run: Math.max(0, ...scored.map((d) => d?.samples.length ?? 0)),
      alpha_ordinal: estimate(units, (s) => krippendorffAlpha(s, levels, "ordinal"), boot),
      mean_stdev:
        scored.length === 0
          ? null
          : scored.reduce((a, d) => a + (d?.spread.stdev ?? 0), 0) / scored.length,
    };
  });

  return {
    schema: JUDGE_CALIBRATION_SCHEMA,
    created_at: opts.createdAt,
    experiment_id: opts.experimentId ?? null,
    labels_file: labels.file,
    judge: identity,
    levels,
    bootstrap: boot,
    raters,
    dimensions: dimensionRecords,
    repeatability,
    pairwise: {
      labels: labels.pairs.length,
      // Pair labels are not yet compared with the pairwise judge's results (pairwise.json,
      // docs/judge.md): they are read, checked and counted only.
      judged_pairs: 0,
      note:
        labels.pairs.length === 0
          ? "no pair labels"
          : "no pairwise judge results in this results folder: the pair labels were checked and counted, not compared",
    },
    notes,
  };
}
