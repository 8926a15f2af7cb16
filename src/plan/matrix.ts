/**
 * The run matrix: tasks × treatments × agents × repetitions, in a stable order
 * (task, then treatment in suite order, then agent, then rep). Each run's agent is settled
 * here: the treatment's own `agent:` when it pins one (or several), else `--agent`
 * (docs/agents.md, "Treatments that pin their agent"). Pure.
 */
export interface RunSpec {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
  /** The agent driver this run uses (`claude`, `codex`, ...; docs/agents.md). */
  agent: string;
}

/**
 * `<task>-<treatment>-r<rep>`; a treatment that runs on several agents adds `@<agent>` to the
 * treatment part (`@` is not allowed in names, so such ids never collide with single-agent ones).
 */
function runId(task: string, treatment: string, rep: number, agent: string | null): string {
  return `${task}-${treatment}${agent === null ? "" : `@${agent}`}-r${rep}`;
}

export interface PlanInput {
  /** Selected task names, in suite order, with each task's default treatments. */
  tasks: { name: string; default_treatments: string[] }[];
  /** All treatments available, in suite order. */
  treatments: string[];
  /** Treatments picked with --treatment; null = none given. */
  treatmentFilter: string[] | null;
  count: number;
  /** The agents of each treatment (its pin, else the `--agent` default); absent: `claude`. */
  agentsOf?: (treatment: string) => readonly string[];
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
    for (const tr of chosen) {
      const agents = p.agentsOf?.(tr) ?? ["claude"];
      for (const agent of agents)
        for (let rep = 1; rep <= p.count; rep++)
          runs.push({
            run_id: runId(t.name, tr, rep, agents.length > 1 ? agent : null),
            task: t.name,
            treatment: tr,
            rep,
            agent,
          });
    }
  }
  return runs;
}
