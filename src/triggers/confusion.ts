/**
 * Catalog-wide trigger statistics (docs/triggers.md, "A catalog of Skills"): every query of every
 * Skill asked with all of them installed together, so a probe's answer is which Skill the agent
 * chose (or none). The confusion matrix counts answered probes by the Skill the query was written
 * for (its row; "none" for a should-not-trigger query, meant for no Skill) and the Skill chosen
 * (its column); precision and recall of each Skill are read off it. Invalid probes are left out
 * of every cell, as in a single Skill's statistics. Pure.
 */
import { wilsonInterval } from "../stats/index.js";
import type { Rate } from "./stats.js";
import type { ProbeOutcome } from "./types.js";

/** The label of "no Skill" in rows and columns. */
export const NONE = "none";

/** One answered or invalid probe, as the matrix needs it. */
export interface CatalogObservation {
  /** The Skill the query was written for; null for a should-not-trigger query. */
  expected: string | null;
  outcome: ProbeOutcome;
}

export interface ConfusionMatrix {
  /** The catalog's Skills in order, then "none". */
  rows: string[];
  /** The catalog's Skills, then any other Skill chosen (neighbours, decoys, the agent's own), then "none". */
  columns: string[];
  /** `cells[r][c]`: answered probes of row `rows[r]` where the agent chose `columns[c]`. */
  cells: number[][];
  /** Probes still invalid after their re-runs (in no cell). */
  invalid: number;
}

export interface SkillTriggerStats {
  skill: string;
  /** Probes of its queries where it was chosen. */
  tp: number;
  /** Probes of its queries where another Skill, or none, was chosen. */
  fn: number;
  /** Probes of other rows (other Skills' queries, or none's) where it was chosen. */
  fp: number;
  precision: Rate;
  recall: Rate;
  f1: number | null;
}

function rate(count: number, of: number): Rate {
  return { value: of === 0 ? null : count / of, ci: wilsonInterval(count, of), count, of };
}

/**
 * The Skill an answered probe chose: its name, or "none"; null for an invalid probe. In a catalog
 * every probe runs without a target (`target` is the name no Skill has), so a choice is `other`.
 */
export function chosenLabel(o: ProbeOutcome, target: string): string | null {
  switch (o.kind) {
    case "other":
      return o.skill;
    case "target":
      return target;
    case "none":
      return NONE;
    case "invalid":
      return null;
  }
}

/** The confusion matrix of a catalog's probes. `skills`: the catalog, in report order. */
export function confusionMatrix(
  skills: readonly string[],
  observations: readonly CatalogObservation[],
): ConfusionMatrix {
  const rows = [...skills, NONE];
  const extra = new Set<string>();
  for (const o of observations) {
    const c = chosenLabel(o.outcome, "");
    if (c !== null && c !== NONE && !skills.includes(c)) extra.add(c);
  }
  const columns = [...skills, ...[...extra].sort(), NONE];
  const cells = rows.map(() => columns.map(() => 0));
  let invalid = 0;
  for (const o of observations) {
    const c = chosenLabel(o.outcome, "");
    if (c === null) {
      invalid++;
      continue;
    }
    const r = rows.indexOf(o.expected ?? NONE);
    if (r < 0) throw new Error(`a query written for ${o.expected ?? NONE}, not in the catalog`);
    const row = cells[r] as number[];
    const k = columns.indexOf(c);
    row[k] = (row[k] ?? 0) + 1;
  }
  return { rows, columns, cells, invalid };
}

const cell = (m: ConfusionMatrix, row: string, col: string): number =>
  m.cells[m.rows.indexOf(row)]?.[m.columns.indexOf(col)] ?? 0;

/** Precision and recall of each Skill of the catalog (its row and its column of the matrix). */
export function skillStats(m: ConfusionMatrix, skills: readonly string[]): SkillTriggerStats[] {
  return skills.map((s) => {
    const tp = cell(m, s, s);
    const rowTotal = m.cells[m.rows.indexOf(s)]?.reduce((a, b) => a + b, 0) ?? 0;
    const k = m.columns.indexOf(s);
    const colTotal = m.cells.reduce((a, r) => a + (r[k] ?? 0), 0);
    const precision = rate(tp, colTotal);
    const recall = rate(tp, rowTotal);
    const p = precision.value;
    const r = recall.value;
    const f1 = p === null || r === null ? null : p + r === 0 ? 0 : (2 * p * r) / (p + r);
    return { skill: s, tp, fn: rowTotal - tp, fp: colTotal - tp, precision, recall, f1 };
  });
}

/** Answered probes on the diagonal (the Skill written for chosen, or none for "none"). */
export function matrixAccuracy(m: ConfusionMatrix): Rate {
  let right = 0;
  let all = 0;
  for (const [r, row] of m.cells.entries()) {
    const label = m.rows[r] as string;
    right += row[m.columns.indexOf(label)] ?? 0;
    all += row.reduce((a, b) => a + b, 0);
  }
  return rate(right, all);
}
