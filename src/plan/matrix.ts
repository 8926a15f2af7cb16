/**
 * The run matrix: tasks × treatments × agents × repetitions, in a stable order
 * (task, then treatment in suite order, then agent, then rep). Each run's agent is settled
 * here: the treatment's own `agent:` when it pins one (or several), else `--agent`
 * (docs/agents.md, "Treatments that pin their agent"). Pure.
 */
import { defaultAgent } from "../agents/registry.js";
import { InputError } from "../core/errors.js";

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

/**
 * The most runs one plan may hold. Every planned run is an object in memory (and a run folder, a
 * report, a line of the index once it runs); a mistyped `--count 1000000000` must be refused with
 * a message, not run node out of memory. The run index and the reports are measured up to
 * 100,000 runs (docs/ARCHITECTURE.md).
 */
export const MAX_PLANNED_RUNS = 100_000;

/** The treatments a task runs under: the filter, else its default_treatments that exist, else all. */
function chosenTreatments(p: PlanInput, t: PlanInput["tasks"][number]): string[] {
  if (p.treatmentFilter) return p.treatmentFilter;
  const defaults = p.treatments.filter((n) => t.default_treatments.includes(n));
  return defaults.length > 0 ? defaults : p.treatments;
}

/** How many runs planRuns would return, without building them. */
function plannedRunCount(p: PlanInput): number {
  let n = 0;
  for (const t of p.tasks)
    for (const tr of chosenTreatments(p, t))
      n += (p.agentsOf?.(tr) ?? [defaultAgent().name]).length * p.count;
  return n;
}

/** The refusal of a plan of more than MAX_PLANNED_RUNS runs; null when it fits. */
function planSizeError(p: PlanInput, field: string): InputError | null {
  const n = plannedRunCount(p);
  if (n <= MAX_PLANNED_RUNS) return null;
  return new InputError(
    `${field} ${p.count}: the plan would hold ${n.toLocaleString("en-US")} runs (${p.tasks.length} task(s) × their treatments and agents × ${p.count} repetitions), more than the ${MAX_PLANNED_RUNS.toLocaleString("en-US")} one experiment may hold: lower ${field}, or select fewer tasks or treatments (--task, --treatment)`,
    { field },
  );
}

export function planRuns(p: PlanInput, field = "--count"): RunSpec[] {
  const tooBig = planSizeError(p, field);
  if (tooBig) throw tooBig;
  const runs: RunSpec[] = [];
  for (const t of p.tasks) {
    const chosen = chosenTreatments(p, t);
    for (const tr of chosen) {
      const agents = p.agentsOf?.(tr) ?? [defaultAgent().name];
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
