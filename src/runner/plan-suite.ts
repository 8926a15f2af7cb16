/**
 * What `runSuite` settles first from a loaded suite and the run options, before anything is
 * started: the count and concurrency (flags, then skillbench.yaml), the runs selected, the frozen
 * baseline of `--baseline-from`, the runs to plan, and the one function that builds the settings
 * every run's plan is made from (`planSettings`: its sandbox probe, agents and simulator prompts
 * are learnt later, so runSuite builds the settings the runs use once they are known).
 */
import path from "node:path";
import { agentsOfTreatments } from "../plan/agents.js";
import { modelsOfTreatments, parseModelList } from "../plan/models.js";
import type { PlanSettings } from "../plan/run-plan.js";
import { selectRuns } from "../plan/select.js";
import { shardRuns } from "../plan/shard.js";
import type { SandboxProbe } from "../sandbox/index.js";
import { loadSuiteProfiles, type RubricProfile } from "../scoring/index.js";
import { hasDockerfile, type Suite } from "../suite/index.js";
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
  /** the runs this invocation plans (without the frozen baseline's arm; with --shard, its slice) */
  planned: ReturnType<typeof selectRuns>["specs"];
  /** the whole plan `planned` is a slice of (the same runs without --shard) */
  wholePlan: ReturnType<typeof selectRuns>["specs"];
  model: string | null;
  /** the suite's profiles over the built-ins */
  profiles: Record<string, RubricProfile>;
}

/** What runSuite learns after the suite is planned, before the runs' plans are settled. */
export interface LearntSettings {
  /** what this machine's sandboxes offer (null: not probed) */
  probe: SandboxProbe | null;
  /** the resolved agents by driver name */
  agents: PlanSettings["agents"];
  /** BENCH_SIMULATOR_PROMPT_FILE's text, and the suite's simulator instruction file's */
  envPromptFileText: string | null;
  suitePromptFileText: string | null;
}

/** Nothing learnt yet: the pre-flight check's settings (its plans carry no binary or version). */
const NOTHING_LEARNT: LearntSettings = {
  probe: null,
  agents: {},
  envPromptFileText: null,
  suitePromptFileText: null,
};

/**
 * The settings every run's plan is settled from: built here and nowhere else, and frozen, so
 * every plan of an experiment is settled from the same values (the flags, then skillbench.yaml).
 */
export function planSettings(
  suite: Suite,
  opts: Pick<RunOptions, "profile" | "timeoutSec" | "sandbox" | "interaction" | "simulatorModel">,
  profiles: Record<string, RubricProfile>,
  model: string | null,
  learnt: LearntSettings,
): PlanSettings {
  const cfg = suite.config;
  return Object.freeze({
    suite,
    profiles,
    profileOverride: opts.profile ?? cfg.profile ?? null,
    timeoutSecOverride: opts.timeoutSec ?? cfg.timeout_sec ?? null,
    sandbox: Object.freeze({
      cli: opts.sandbox ?? null,
      suite: cfg.sandbox ?? null,
      probe: learnt.probe,
      hasDockerfile,
    }),
    interaction: Object.freeze({
      cli: opts.interaction,
      simulatorModel: opts.simulatorModel ?? null,
      envPromptFileText: learnt.envPromptFileText,
      suitePromptFileText: learnt.suitePromptFileText,
    }),
    agents: Object.freeze({ ...learnt.agents }),
    model,
  });
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
  // The default model list (`--model a,b`; plan/models.ts); a single id is the one model as before.
  const models = parseModelList(opts.model ?? cfg.model ?? hostEnv.ANTHROPIC_MODEL ?? null);
  const { taskNames, specs } = selectRuns(suite, {
    task: opts.task,
    treatment: opts.treatment,
    count,
    agentsOf: agentsOfTreatments(suite, opts),
    modelsOf: modelsOfTreatments(suite, models),
  });

  // --baseline-from DIR: the baseline arm comes from an earlier results folder, not from agents.
  const frozen = opts.baselineFrom
    ? await loadFrozenBaseline(path.resolve(cwd, opts.baselineFrom), taskNames)
    : null;
  const wholePlan = frozen ? specs.filter((r) => r.treatment !== frozen.treatment) : specs;
  refuseSharedIds(wholePlan);
  // --shard I/N: this invocation's slice of the whole plan (plan/shard.ts).
  const planned = opts.shard ? shardRuns(wholePlan, opts.shard) : wholePlan;
  // The experiment's model (metadata.json's `model`, the estimate's default): the first default.
  const model = models[0] ?? null;
  const profiles = await loadSuiteProfiles(suite.profiles);
  checkPlans(planSettings(suite, opts, profiles, model, NOTHING_LEARNT), planned);
  return { count, concurrency, taskNames, specs, frozen, planned, wholePlan, model, profiles };
}
