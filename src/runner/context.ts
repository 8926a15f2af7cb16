import type { PricingTable } from "../cost/pricing.js";
import type { AgentDriver, ResolvedBinary } from "../agents/index.js";
import type { Suite } from "../suite/index.js";
import type { Redactor } from "../util/redact.js";
import type { RubricProfile } from "../scoring/index.js";
import type { createSandbox, LocalModelServer } from "../sandbox/index.js";
import type { JudgeCache, JudgeConfig } from "../judge/index.js";
import type { ModelApiRecord } from "../core/report.js";
import type { RunKeyRecord } from "../core/run-key.js";
import { runIdNamesModel } from "../plan/matrix.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { RunBudget } from "./budget.js";

type Role = "subject" | "simulator" | "judge";
/**
 * Which run a model endpoint, judge or model-API record is for; the agent keeps apart the runs of
 * a treatment that runs on several agents, the model those of one that runs on several models.
 */
export type RunKey = {
  task: string;
  treatment: string;
  rep: number;
  agent?: string | undefined;
  model?: string | undefined;
};

/**
 * The key of a planned run: its task, treatment, rep and agent, and its model when its treatment
 * runs on several (its run id then names it: a one-model run keeps the key, and so the scripted
 * endpoint's URL, it had before models were an axis).
 */
export function runKey(plan: {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
  agent: { name: string };
  model: string | null;
}): RunKey {
  const key = { task: plan.task, treatment: plan.treatment, rep: plan.rep, agent: plan.agent.name };
  return runIdNamesModel(plan) && plan.model !== null ? { ...key, model: plan.model } : key;
}

/** One agent the plans use: its driver, binary and version, resolved once per experiment. */
export interface AgentSetup {
  driver: AgentDriver;
  bin: ResolvedBinary;
  version: string | null;
}

/** The agent a planned run uses (settled in its plan: src/plan/run-plan.ts). */
export function agentOf(
  ctx: Pick<RunContext, "agent">,
  plan: { agent: { name: string }; run_id: string },
): AgentSetup {
  const a = ctx.agent.setups[plan.agent.name];
  if (a === undefined) throw new Error(`${plan.run_id}: agent ${plan.agent.name} was not resolved`);
  return a;
}

export interface Endpoint {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  authToken?: string | undefined;
}

/**
 * The services a run is executed with, injected by `runSuite` (or a test). Everything decided
 * about the run itself is in its `RunPlan` (src/plan/run-plan.ts); these are the parts of the
 * world around it.
 */
export interface RunContext {
  /** Where the run's records go (store/): the experiment and its results folder. */
  store: { experimentId: string; outDir: string };
  /** Prices a run's tokens when its agent reports no cost (docs/cost.md); absent: not priced. */
  pricing?: PricingTable | null | undefined;
  /** The suite the plans were settled from (task and treatment specs) and its profiles. */
  suite: { spec: Suite; profiles: Record<string, RubricProfile> };
  /** The subject agents (src/agents): every agent-specific step of a run goes through its own. */
  agent: {
    /**
     * The agents the plans use, by driver name, each resolved once (preflight.ts
     * `resolveAgents`); a run's is the one its plan names (`agentOf`).
     */
    setups: Record<string, AgentSetup>;
    /** Retries the agent CLI makes on a failing model request; undefined: the CLI's default. */
    retries?: number | undefined;
    /** The simulated user's agent (`--simulator-agent`); an error when its binary is missing. */
    simulator: { driver: AgentDriver; bin: ResolvedBinary } | { error: string };
    /** Extra environment for one run's subject agent (telemetry trace context). */
    extraEnv?:
      | ((run: { experimentId: string; runId: string; agent: string }) => Record<string, string>)
      | undefined;
  };
  /** The model endpoint of each role, and (under the scripted model) what it did for a run. */
  models: {
    endpoint: (run: RunKey, role: Role) => Endpoint;
    /** The scripted model server when it runs in this process (its sandboxes' relays hand it their connections). */
    local?: LocalModelServer | undefined;
    api?: ((run: RunKey) => ModelApiRecord) | undefined;
  };
  /** The sandbox factory (src/sandbox). */
  sandboxes: { create: typeof createSandbox };
  /** The host environment, what reaches agents from it, and the redactor of saved files. */
  env: {
    host: Record<string, string | undefined>;
    declared: Record<string, string>;
    pass: string[];
    redact: Redactor;
  };
  /** The LLM judge (disabled unless asked for) and its answer cache. */
  judge: { configFor: (run: RunKey) => JudgeConfig; cache: JudgeCache | null };
  /** The run's temporary folders: where (default the OS's) and whether they are kept. */
  workspaces: { keep: boolean; tmpBase?: string | undefined };
  clock: () => Date;
  /** A line for the user (e.g. which sandbox was chosen and why). */
  note: (message: string) => void;
  /** Aborted on the second Ctrl-C: running agents are killed. */
  signal: AbortSignal;
  /** A finished run's content key (docs/reuse.md) from its plan and the docker image it ran in. */
  runKey?: ((plan: RunPlan, image: string | null) => RunKeyRecord) | undefined;
  /** The budgets and their metering (runner/budget.ts); absent: no budget was given. */
  budget?: RunBudget | undefined;
}
