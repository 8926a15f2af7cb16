import type { AgentDriver, ResolvedBinary } from "../agents/index.js";
import type { Suite } from "../suite/index.js";
import type { Redactor } from "../util/redact.js";
import type { RubricProfile } from "../scoring/index.js";
import type { SandboxChoice, SandboxProbe } from "../sandbox/index.js";
import type { JudgeCache, JudgeConfig } from "../judge/index.js";
import type { ModelApiRecord } from "../core/report.js";

type Role = "subject" | "simulator" | "judge";

export interface Endpoint {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  authToken?: string | undefined;
}

/** One agent the plan uses: its driver, binary and version, resolved once per experiment. */
export interface AgentSetup {
  driver: AgentDriver;
  bin: ResolvedBinary;
  version: string | null;
}

/** The agent a planned run uses (settled by the plan: src/plan/matrix.ts). */
export function agentOf(ctx: RunContext, run: { agent: string; run_id: string }): AgentSetup {
  const a = ctx.agents[run.agent];
  if (a === undefined) throw new Error(`${run.run_id}: agent ${run.agent} was not resolved`);
  return a;
}

/** Everything a run needs from the experiment around it. */
export interface RunContext {
  experimentId: string;
  outDir: string;
  suite: Suite;
  /**
   * The subject agents (src/agents) by driver name: every agent-specific step of a run goes
   * through the one its plan names (`agentOf`).
   */
  agents: Record<string, AgentSetup>;
  /** The simulated user's agent (`--simulator-agent`, default Claude Code); an error when its binary is missing. */
  simulatorAgent: { driver: AgentDriver; bin: ResolvedBinary } | { error: string };
  /** Retries the agent CLI makes on a failing model request; undefined: the CLI's default. */
  agentRetries?: number | undefined;
  endpoint: (
    run: { task: string; treatment: string; rep: number; agent?: string | undefined },
    role: Role,
  ) => Endpoint;
  model: string | null;
  profileOverride: string | null;
  /** The suite's own profiles (profiles/*.toml), over the built-ins. */
  suiteProfiles: Record<string, RubricProfile>;
  declaredEnv: Record<string, string>;
  /** Extra environment for one run's subject agent (telemetry trace context). */
  agentEnv?:
    | ((run: { experimentId: string; runId: string; agent: string }) => Record<string, string>)
    | undefined;
  passEnv: string[];
  hostEnv: Record<string, string | undefined>;
  redact: Redactor;
  timeoutSecOverride: number | null;
  keepWorkspaces: boolean;
  tmpBase?: string | undefined;
  /** Dual-agent settings from the command line and the environment. */
  interaction: {
    cli: {
      mode?: string | undefined;
      maxTurns?: number | undefined;
      simulatorPrompt?: string | undefined;
      decisionPatterns?: readonly string[] | undefined;
    };
    envPromptFileText: string | null;
    suitePromptFileText: string | null;
    simulatorModel: string | null;
  };
  /** --sandbox (or the suite's/task's setting) and what this machine offers. */
  sandbox: { cli: SandboxChoice | null; suite: SandboxChoice | null; probe: SandboxProbe | null };
  /** A line for the user (e.g. which sandbox was chosen and why). */
  note: (message: string) => void;
  /** The LLM judge (disabled unless asked for) and its answer cache. */
  judgeFor: (run: { task: string; treatment: string; rep: number }) => JudgeConfig;
  judgeCache: JudgeCache | null;
  /** Under the scripted model: what the server did with this run's requests (else absent). */
  modelApi?:
    | ((run: {
        task: string;
        treatment: string;
        rep: number;
        agent?: string | undefined;
      }) => ModelApiRecord)
    | undefined;
  /** Aborted on the second Ctrl-C: running agents are killed. */
  signal: AbortSignal;
}
