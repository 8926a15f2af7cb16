import type { RunDigest } from "../core/digest.js";

export interface Cell {
  task: string;
  treatment: string;
  runs: RunDigest[];
}

/** Treatments in the experiment's order (CONTROL first when present), then any others seen. */
export function treatmentOrder(reports: RunDigest[], declared: string[] = []): string[] {
  const seen = new Set(reports.map((r) => r.treatment));
  const out = declared.filter((t) => seen.has(t));
  for (const r of reports) if (!out.includes(r.treatment)) out.push(r.treatment);
  return out;
}

export function taskOrder(reports: RunDigest[]): string[] {
  const out: string[] = [];
  for (const r of reports) if (!out.includes(r.task)) out.push(r.task);
  return out;
}

/** One cell per task × treatment, runs sorted by rep. */
export function groupCells(reports: RunDigest[], treatments: string[]): Cell[] {
  const cells: Cell[] = [];
  for (const task of taskOrder(reports))
    for (const treatment of treatments) {
      const runs = reports
        .filter((r) => r.task === task && r.treatment === treatment)
        .sort((a, b) => a.rep - b.rep);
      if (runs.length > 0) cells.push({ task, treatment, runs });
    }
  return cells;
}

export function dimScore(r: RunDigest, dim: string): number | null | undefined {
  const d = r.rubric?.dimensions.find((x) => x.name === dim);
  return d === undefined ? undefined : d.score;
}
