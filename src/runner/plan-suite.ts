/**
 * What `runSuite` settles first from a loaded suite and the run options, before anything is
 * started: the count and concurrency (flags, then skillbench.yaml), the runs selected, the frozen
 * baseline of `--baseline-from`, the runs to plan and the settings every run's plan is made from
 * (its sandbox probe, agents and simulator prompts are filled in later by runSuite).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { agentsOfTreatments } from "../plan/agents.js";
import type { PlanSettings } from "../plan/run-plan.js";
import { selectRuns } from "../plan/select.js";
import { loadSuiteProfiles } from "../scoring/index.js";
import type { Suite } from "../suite/index.js";
import { loadFrozenBaseline, type FrozenBaseline } from "./baseline-from.js";
import { checkPlans, positiveInt, refuseSharedIds } from "./preflight.js";
import type { RunOptions } from "./run-options.js";

export interface SuitePlan {
  count: number;
  concurrency: number;
  /** the selected tasks' names */
  taskNames: string[];
  /** every selected run (the frozen baseline's arm included) */
  specs: ReturnType<typeof selectRuns>["specs"];
  frozen: FrozenBaseline | null;
  /** the runs this experiment plans (without the frozen baseline's arm) */
  planned: ReturnType<typeof selectRuns>["specs"];
  model: string | null;
  settings: PlanSettings;
}

export async function planSuite(
  suite: Suite,
  opts: RunOptions,
  hostEnv: Record<string, string | undefined>,
  cwd: string,
): Promise<SuitePlan> {
  const cfg = suite.config;
  const count =
    positiveInt("--count", opts.count) ?? positiveInt("count", cfg.count, "skillbench.yaml") ?? 1;
  const concurrency =
    positiveInt("--concurrency", opts.concurrency) ??
    positiveInt("concurrency", cfg.concurrency, "skillbench.yaml") ??
    1;
  const { taskNames, specs } = selectRuns(suite, {
    task: opts.task,
    treatment: opts.treatment,
    count,
    agentsOf: agentsOfTreatments(suite, opts),
  });

  // --baseline-from DIR: the baseline arm comes from an earlier results folder, not from agents.
  const frozen = opts.baselineFrom
    ? await loadFrozenBaseline(path.resolve(cwd, opts.baselineFrom), taskNames)
    : null;
  const planned = frozen ? specs.filter((r) => r.treatment !== frozen.treatment) : specs;
  refuseSharedIds(planned);
  const model = opts.model ?? cfg.model ?? hostEnv.ANTHROPIC_MODEL ?? null;
  const settings: PlanSettings = {
    suite,
    profiles: await loadSuiteProfiles(suite.profiles),
    profileOverride: opts.profile ?? cfg.profile ?? null,
    timeoutSecOverride: opts.timeoutSec ?? cfg.timeout_sec ?? null,
    sandbox: {
      cli: opts.sandbox ?? null,
      suite: cfg.sandbox ?? null,
      probe: null,
      hasDockerfile: (t) =>
        t.environment_dir !== null && existsSync(path.join(t.environment_dir, "Dockerfile")),
    },
    interaction: { cli: opts.interaction, simulatorModel: opts.simulatorModel ?? null },
    agents: {},
    model,
  };
  checkPlans(settings, planned);
  return { count, concurrency, taskNames, specs, frozen, planned, model, settings };
}
