/**
 * The run matrix: tasks × treatments × repetitions, in a stable order
 * (task, then treatment in suite order, then rep). Pure.
 */
export interface RunSpec {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
}

function runId(task: string, treatment: string, rep: number): string {
  return `${task}-${treatment}-r${rep}`;
}

export interface PlanInput {
  /** Selected task names, in suite order, with each task's default treatments. */
  tasks: { name: string; default_treatments: string[] }[];
  /** All treatments available, in suite order. */
  treatments: string[];
  /** Treatments picked with --treatment; null = none given. */
  treatmentFilter: string[] | null;
  count: number;
}

export function planRuns(p: PlanInput): RunSpec[] {
  const runs: RunSpec[] = [];
  for (const t of p.tasks) {
    let chosen: string[];
    if (p.treatmentFilter) chosen = p.treatmentFilter;
    else {
      // The task's default_treatments when it names any that exist, else every treatment.
      const defaults = p.treatments.filter((n) => t.default_treatments.includes(n));
      chosen = defaults.length > 0 ? defaults : p.treatments;
    }
    for (const tr of chosen)
      for (let rep = 1; rep <= p.count; rep++)
        runs.push({ run_id: runId(t.name, tr, rep), task: t.name, treatment: tr, rep });
  }
  return runs;
}
