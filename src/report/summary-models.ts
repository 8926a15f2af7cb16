import type { RunDigest } from "../core/digest.js";
import { cell, pct, table } from "./format.js";

/**
 * summary.md by model (docs/agents.md, "Models as a matrix axis"): with runs of several models,
 * each task × treatment cell is split by model (a Model column), the header names every model,
 * and a table gives each treatment's pass rate per model. With one model nothing changes. Pure.
 */

const nameOf = (r: RunDigest): string => r.model ?? "CLI default";

/** The models of the runs, first seen first (`CLI default`: none asked for). */
export function modelsOfRuns(reports: readonly RunDigest[]): string[] {
  const names = new Set<string>();
  for (const r of reports) names.add(nameOf(r));
  return [...names];
}

/** Each cell split by model when `multi`; else each cell as it was (model null). */
export function splitCellsByModel<C extends { runs: RunDigest[] }>(
  cells: C[],
  multi: boolean,
): Array<C & { model: string | null }> {
  if (!multi) return cells.map((c) => ({ ...c, model: null }));
  return cells.flatMap((c) =>
    modelsOfRuns(c.runs).map((model) => ({
      ...c,
      model,
      runs: c.runs.filter((r) => nameOf(r) === model),
    })),
  );
}

/** `## Aggregated by Treatment and Model`: runs passed per treatment on each model. */
export function aggregatedByModel(reports: readonly RunDigest[], treatments: string[]): string[] {
  const models = modelsOfRuns(reports);
  const rows: string[][] = [];
  for (const t of treatments)
    for (const m of models) {
      let runs = 0;
      let passed = 0;
      for (const r of reports)
        if (r.treatment === t && nameOf(r) === m) {
          runs++;
          if (r.passed) passed++;
        }
      if (runs > 0) rows.push([cell(t), cell(m), `${passed}/${runs}`, pct(passed, runs)]);
    }
  return [
    "## Aggregated by Treatment and Model",
    "",
    "_Each model's runs alone; comparison_report.md compares the treatments on each model (By model)._",
    "",
    table(["Treatment", "Model", "Passed", "Pass rate"], rows),
    "",
  ];
}
