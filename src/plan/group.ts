import type { RunDigest } from "../core/digest.js";

export interface Cell {
  task: string;
  treatment: string;
  runs: RunDigest[];
}

/** Treatments in the experiment's order (CONTROL first when present), then any others seen. */
export function treatmentOrder(reports: RunDigest[], declared: string[] = []): string[] {
  const seen = new Set<string>();
  for (const r of reports) seen.add(r.treatment);
  const out = declared.filter((t) => seen.has(t));
  const listed = new Set(out);
  // A Set iterates in insertion order: the others in first-seen order.
  for (const t of seen) if (!listed.has(t)) out.push(t);
  return out;
}

export function taskOrder(reports: RunDigest[]): string[] {
  const seen = new Set<string>();
  for (const r of reports) seen.add(r.task);
  return [...seen];
}

/** Sort runs by rep in place (stable: equal reps keep their order); most arrive sorted already. */
export function sortByRep<T extends { rep: number }>(runs: T[]): T[] {
  for (let i = 1; i < runs.length; i++)
    if ((runs[i] as T).rep < (runs[i - 1] as T).rep) return runs.sort((a, b) => a.rep - b.rep);
  return runs;
}

/**
 * The runs grouped by a key, each group in the runs' order; the groups in first-seen order
 * (a Map iterates in insertion order). One pass, in place of a filter per key.
 */
export function groupBy<T>(runs: Iterable<T>, key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of runs) {
    const k = key(r);
    const g = out.get(k);
    if (g) g.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/**
 * Rows found by three keys (e.g. task, treatment, Skill), kept in the order they were first
 * asked for: nested Maps, so no key text is built per lookup (the reports look rows up once per
 * run, at 10,000 runs and more).
 */
export class RowsByKeys<V> {
  /** every row, in first-seen order */
  readonly rows: V[] = [];
  private readonly byFirst = new Map<string, Map<string, Map<string, V>>>();

  /** The row of (a, b, c); `make` makes it the first time. */
  get(a: string, b: string, c: string, make: () => V): V {
    let byB = this.byFirst.get(a);
    if (!byB) this.byFirst.set(a, (byB = new Map<string, Map<string, V>>()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map<string, V>()));
    let row = byC.get(c);
    if (row === undefined) {
      byC.set(c, (row = make()));
      this.rows.push(row);
    }
    return row;
  }
}

/**
 * The runs sorted by task (in `tasks`' order), then treatment (in `treatments`' order; one not
 * listed comes first), then rep; stable. Equal to sorting by those indexOf positions, in linear
 * time plus a sort of each task × treatment group by rep.
 */
export function sortRuns<T extends { task: string; treatment: string; rep: number }>(
  runs: readonly T[],
  tasks: readonly string[],
  treatments: readonly string[],
): T[] {
  const taskAt = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (!taskAt.has(t)) taskAt.set(t, i);
  });
  const treatmentAt = new Map<string, number>();
  treatments.forEach((t, i) => {
    if (!treatmentAt.has(t)) treatmentAt.set(t, i);
  });
  // Buckets by (task index, treatment index); index -1 (not listed) sorts before 0.
  const buckets = new Map<number, T[]>();
  const width = treatments.length + 1;
  for (const r of runs) {
    const k = ((taskAt.get(r.task) ?? -1) + 1) * width + (treatmentAt.get(r.treatment) ?? -1) + 1;
    const b = buckets.get(k);
    if (b) b.push(r);
    else buckets.set(k, [r]);
  }
  const keys = [...buckets.keys()].sort((a, b) => a - b);
  const out: T[] = [];
  for (const k of keys) for (const r of sortByRep(buckets.get(k) as T[])) out.push(r);
  return out;
}

/** One cell per task × treatment, runs sorted by rep. */
export function groupCells(reports: RunDigest[], treatments: string[]): Cell[] {
  const byTask = groupBy(reports, (r) => r.task);
  const cells: Cell[] = [];
  for (const [task, taskRuns] of byTask) {
    const byTreatment = groupBy(taskRuns, (r) => r.treatment);
    for (const treatment of treatments) {
      const runs = byTreatment.get(treatment);
      if (runs) cells.push({ task, treatment, runs: sortByRep([...runs]) });
    }
  }
  return cells;
}
