import { selectNames, type Suite } from "../suite/index.js";
import { planRuns, type RunSpec } from "./matrix.js";

export interface Selection {
  /** The selected tasks, in suite order. */
  taskNames: string[];
  /** The runs: selected tasks × their treatments × agents × models × repetitions, in a stable order. */
  specs: RunSpec[];
}

/**
 * The runs a request selects (`--task`, `--treatment`, `--count`, else the suite's own
 * settings): what `run` executes and `run --dry-run`, `list` and `validate` show. Pure; an
 * unknown name is an InputError naming the field.
 */
export function selectRuns(
  suite: Suite,
  req: {
    task?: string | undefined;
    treatment?: string | undefined;
    count: number;
    /** The agents of each treatment (src/plan/agents.ts); absent: `claude` for every one. */
    agentsOf?: ((treatment: string) => readonly string[]) | undefined;
    /** The models of each treatment (src/plan/models.ts); absent: the agent's own, `[null]`. */
    modelsOf?: ((treatment: string) => readonly (string | null)[]) | undefined;
  },
): Selection {
  const cfg = suite.config;
  const taskNames = selectNames(
    "task",
    suite.tasks.map((t) => t.name),
    req.task ?? cfg.task ?? undefined,
  );
  const treatmentFilterText = req.treatment ?? cfg.treatment ?? undefined;
  const treatmentFilter = treatmentFilterText
    ? selectNames(
        "treatment",
        suite.treatments.map((t) => t.name),
        treatmentFilterText,
      )
    : null;
  const specs = planRuns({
    tasks: suite.tasks
      .filter((t) => taskNames.includes(t.name))
      .map((t) => ({ name: t.name, default_treatments: t.metadata.default_treatments })),
    treatments: suite.treatments.map((t) => t.name),
    treatmentFilter,
    count: req.count,
    ...(req.agentsOf ? { agentsOf: req.agentsOf } : {}),
    ...(req.modelsOf ? { modelsOf: req.modelsOf } : {}),
  });
  return { taskNames, specs };
}
