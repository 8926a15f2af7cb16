/**
 * The run matrix: tasks × treatments × agents × models × repetitions, in a stable order
 * (task, then treatment in suite order, then agent, then model, then rep). Each run's agent and
 * model are settled here: the treatment's own `agent:` / `model:` when it pins one (or several),
 * else `--agent` / `--model` (docs/agents.md, "Treatments that pin their agent" and "Models as a
 * matrix axis"). Pure.
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
  /** The model this run asks its agent for; null: the agent's own default (no `--model`). */
  model: string | null;
}

/**
 * `<task>-<treatment>-r<rep>`; a treatment that runs on several agents adds `@<agent>` to the
 * treatment part (`@` is not allowed in names, so such ids never collide with single-agent ones),
 * and one that runs on several models adds `~<model>` after it (`~` is not allowed in names
 * either, nor in agent names, so a model part is never read as a name's or an agent's).
 */
function runId(
  task: string,
  treatment: string,
  rep: number,
  agent: string | null,
  model: string | null,
): string {
  const a = agent === null ? "" : `@${agent}`;
  const m = model === null ? "" : `~${modelSlug(model)}`;
  return `${task}-${treatment}${a}${m}-r${rep}`;
}

/**
 * A model id as a run id holds it (a folder name): characters a name may hold are kept, any other
 * (`/`, `:`, `@`, ...) becomes `_`, so `openai/gpt-4.1` → `openai_gpt-4.1`. Two models of one
 * treatment that read the same this way are refused by `planRuns`.
 */
export function modelSlug(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]/g, "_");
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
  /**
   * The models of each treatment (its `model:` pin, else the `--model` default list; null: the
   * agent's own default); absent: `[null]` for every one.
   */
  modelsOf?: (treatment: string) => readonly (string | null)[];
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
      n +=
        (p.agentsOf?.(tr) ?? [defaultAgent().name]).length *
        (p.modelsOf?.(tr) ?? [null]).length *
        p.count;
  return n;
}

/** The refusal of a plan of more than MAX_PLANNED_RUNS runs; null when it fits. */
function planSizeError(p: PlanInput, field: string): InputError | null {
  const n = plannedRunCount(p);
  if (n <= MAX_PLANNED_RUNS) return null;
  return new InputError(
    `${field} ${p.count}: the plan would hold ${n.toLocaleString("en-US")} runs (${p.tasks.length} task(s) × their treatments, agents and models × ${p.count} repetitions), more than the ${MAX_PLANNED_RUNS.toLocaleString("en-US")} one experiment may hold: lower ${field}, or select fewer tasks or treatments (--task, --treatment)`,
    { field },
  );
}

/** Whether a run's id names its model (`~<model>`): its treatment runs on several models. */
export function runIdNamesModel(run: {
  run_id: string;
  rep: number;
  model: string | null;
}): boolean {
  return run.model !== null && run.run_id.endsWith(`~${modelSlug(run.model)}-r${run.rep}`);
}

/** Two models of one treatment whose run-id parts would be equal (`a/b`, `a:b`): refused. */
function refuseSameSlug(treatment: string, models: readonly (string | null)[]): void {
  if (models.length < 2) return;
  const seen = new Map<string, string>();
  for (const m of models) {
    const slug = m === null ? "" : modelSlug(m);
    const other = seen.get(slug);
    if (other !== undefined)
      throw new InputError(
        `treatment ${treatment}: models ${JSON.stringify(other)} and ${JSON.stringify(m)} would share the run ids' model part ~${slug} (characters other than letters, digits, '.', '_' and '-' read as '_'); run them as two experiments`,
        { field: "model" },
      );
    seen.set(slug, m ?? "");
  }
}

export function planRuns(p: PlanInput, field = "--count"): RunSpec[] {
  const tooBig = planSizeError(p, field);
  if (tooBig) throw tooBig;
  const runs: RunSpec[] = [];
  for (const t of p.tasks) {
    const chosen = chosenTreatments(p, t);
    for (const tr of chosen) {
      const agents = p.agentsOf?.(tr) ?? [defaultAgent().name];
      const models = p.modelsOf?.(tr) ?? [null];
      refuseSameSlug(tr, models);
      for (const agent of agents)
        for (const model of models)
          for (let rep = 1; rep <= p.count; rep++)
            runs.push({
              run_id: runId(
                t.name,
                tr,
                rep,
                agents.length > 1 ? agent : null,
                models.length > 1 ? model : null,
              ),
              task: t.name,
              treatment: tr,
              rep,
              agent,
              model,
            });
    }
  }
  return runs;
}
