import { openAgentCall, type AgentCall } from "../agents/call.js";
import type { TurnResult } from "../agents/index.js";
import { makeSimulator, runInteractionLoop, type InteractionRecord } from "../interaction/index.js";
import type { RunPlan } from "../plan/run-plan.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import type { RunDirs } from "../workspace/prepare.js";
import { agentOf, runKey, type RunContext } from "./context.js";
import type { AgentSummary } from "./evaluate.js";
import type { Launcher } from "../sandbox/index.js";
import type { HelperSandbox } from "../sandbox/types.js";

export interface AgentPhaseInput {
  ctx: RunContext;
  plan: RunPlan;
  dirs: RunDirs;
  stdout: RedactingLineWriter;
  stderr: RedactingLineWriter;
  simulatorFile: string;
  /** Runs each subject turn inside the run's sandbox (one container for the whole loop). */
  launcher?: Launcher | undefined;
  /** The sandbox of the simulated user (one for the whole loop, around its own folders); none: on the host. */
  simulatorSandbox?: HelperSandbox | undefined;
  /**
   * The run's budget stop (runner/budget.ts): its signal kills the agent as a timeout does, and a
   * run it stopped ends with the outcome `budget`, never `aborted` (which would leave no report).
   */
  budget?: { signal: AbortSignal; stopped(): { detail: string } | null } | undefined;
}

export interface AgentPhaseResult {
  summary: AgentSummary;
  record: InteractionRecord;
  aborted: boolean;
}

/** The driver's word for the run, from how the loop ended and its last subject turn. */
function summaryOutcome(rec: InteractionRecord, last: TurnResult | null): string {
  switch (rec.end_reason) {
    case "timeout":
      return "timeout";
    case "simulator_error":
      return "simulator_error";
    case "aborted":
      return "aborted";
    default:
      return last?.outcome ?? "not_run";
  }
}

/**
 * Drive the subject: one turn (mode none), or the dual-agent loop (auto_user)
 * with a simulated user answering at decision points. The subject's turns all
 * append to one stdout; the simulator writes its own file.
 */
export async function runAgentPhase(a: AgentPhaseInput): Promise<AgentPhaseResult> {
  const { ctx, plan, dirs } = a;
  const { simulator_model: simulatorModel, ...config } = plan.interaction;
  const agent = agentOf(ctx, plan);
  const driver = agent.driver;
  const key = runKey(plan);
  const env = ctx.env;
  const envFor = (role: "subject" | "simulator") => {
    const endpoint = ctx.models.endpoint(key, role);
    return {
      hostEnv: env.host,
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      authToken: endpoint.authToken,
      declared: env.declared,
      passEnv: env.pass,
    };
  };
  const subject = await driver.prepare({
    hostEnv: env.host,
    dirs: { home: dirs.home, config: dirs.config, tmp: dirs.tmp },
    endpoint: ctx.models.endpoint(key, "subject"),
    model: plan.model ?? undefined,
    declared: {
      ...env.declared,
      ...(ctx.agent.extraEnv?.({
        experimentId: ctx.store.experimentId,
        runId: plan.run_id,
        agent: driver.name,
      }) ?? {}),
    },
    passEnv: env.pass,
    maxRetries: ctx.agent.retries,
  });
  const timeoutMs = plan.timeout_sec * 1000;
  // The run's own stop (its budget) beside Ctrl-C's: either kills the agent.
  const runSignal = a.budget ? AbortSignal.any([ctx.signal, a.budget.signal]) : ctx.signal;
  const state: { last: TurnResult | null } = { last: null };
  // The simulator's folders live outside the run root, which a sandboxed subject can write to:
  // nothing the subject leaves can reach the simulator (its settings, hooks or prompt). They and
  // its sandbox are one agent call (agents/call.ts) open for the whole loop; its turns are not the
  // call's `ask`: they all append to one simulator.jsonl and each starts in an emptied folder.
  let sim: AgentCall | null = null;
  let simOut: RedactingLineWriter | null = null;
  const simAgent = ctx.agent.simulator;
  if (config.mode === "auto_user" && "error" in simAgent)
    throw new Error(`the simulated user cannot run: ${simAgent.error}`);
  const simEnv = config.mode === "auto_user" ? envFor("simulator") : null;
  try {
    if (simEnv && !("error" in simAgent)) {
      // Made before the sandbox starts: a run whose simulator sandbox fails still has the file.
      simOut = new RedactingLineWriter(a.simulatorFile, env.redact);
      sim = await openAgentCall({
        driver: simAgent.driver,
        bin: simAgent.bin.path,
        name: "simulator",
        experimentId: ctx.store.experimentId,
        endpoint: ctx.models.endpoint(key, "simulator"),
        // What makeSimulator's `prepare` is given for each turn.
        agent: {
          hostEnv: simEnv.hostEnv,
          model: simulatorModel ?? undefined,
          declared: simEnv.declared,
          passEnv: simEnv.passEnv,
          tools: "talk-only",
        },
        sandboxFor: a.simulatorSandbox,
      });
    }
    const record = await runInteractionLoop({
      config,
      taskPrompt: plan.prompt,
      subjectTurn: async (prompt, resume, _turn, call) => {
        const r = await driver.runTurn({
          bin: agent.bin.path,
          workspace: dirs.workspace,
          prompt,
          env: subject.env,
          baseArgs: subject.baseArgs,
          resume: resume ?? undefined,
          model: plan.model ?? undefined,
          timeoutMs: call.timeoutMs ?? timeoutMs,
          signal: call.signal ?? runSignal,
          stdout: a.stdout,
          stderr: a.stderr,
          launcher: a.launcher,
        });
        state.last = r;
        return r;
      },
      simulate:
        sim && simOut && simEnv && !("error" in simAgent)
          ? makeSimulator({
              driver: simAgent.driver,
              bin: simAgent.bin.path,
              env: simEnv,
              dirs: {
                cwd: sim.dirs.workspace,
                home: sim.dirs.home,
                configDir: sim.dirs.config,
                tmpDir: sim.dirs.tmp,
              },
              stdout: simOut,
              model: simulatorModel ?? undefined,
              timeoutMs,
              launcher: sim.launcher,
            })
          : () =>
              Promise.resolve({
                text: null,
                session_id: null,
                outcome: "spawn_error",
                detail: "no simulator in single-turn mode",
              }),
      signal: runSignal,
      deadlineMs: Date.now() + timeoutMs,
      log: (line) => a.stderr.write(`${line}\n`),
    });
    const lastTurn = state.last;
    // A run its budget stopped is `budget` however its agent ended (killed, or done meanwhile),
    // unless Ctrl-C killed it too (then no report: --resume runs it again).
    const stop = ctx.signal.aborted ? null : (a.budget?.stopped() ?? null);
    const outcome = stop ? "budget" : summaryOutcome(record, lastTurn);
    return {
      record,
      aborted: !stop && (outcome === "aborted" || lastTurn?.outcome === "aborted"),
      summary: {
        outcome,
        exit_code: lastTurn ? lastTurn.exit_code : null,
        detail: stop
          ? `stopped by the budget: ${stop.detail}`
          : record.end_reason === "single_turn"
            ? (lastTurn?.detail ?? record.end_detail)
            : `${record.end_reason}: ${record.end_detail}`,
        interaction: { ...record, turns: record.turns.map((t) => ({ ...t })) },
      },
    };
  } finally {
    await sim?.close();
    await simOut?.close();
  }
}
