import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TurnResult } from "../agents/index.js";
import {
  makeClaudeSimulator,
  resolveInteraction,
  runInteractionLoop,
  taskInteractionSettings,
  type InteractionRecord,
} from "../interaction/index.js";
import type { RunSpec } from "../plan/matrix.js";
import type { TaskSpec } from "../suite/index.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import type { RunDirs } from "../workspace/prepare.js";
import { tempStem } from "../util/temp-names.js";
import type { RunContext } from "./context.js";
import type { AgentSummary } from "./evaluate.js";
import type { Launcher } from "../sandbox/index.js";

export interface AgentPhaseInput {
  ctx: RunContext;
  spec: RunSpec;
  task: TaskSpec;
  profileName: string;
  dirs: RunDirs;
  prompt: string;
  stdout: RedactingLineWriter;
  stderr: RedactingLineWriter;
  simulatorFile: string;
  /** Runs each subject turn inside the run's sandbox (one container for the whole loop). */
  launcher?: Launcher | undefined;
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
  const { ctx, spec, task, dirs } = a;
  const config = resolveInteraction({
    profile: a.profileName,
    task: taskInteractionSettings(task.interaction),
    cli: ctx.interaction.cli,
    envPromptFileText: ctx.interaction.envPromptFileText,
    suitePromptFileText: ctx.interaction.suitePromptFileText,
  });
  const envFor = (role: "subject" | "simulator") => {
    const endpoint = ctx.endpoint(spec, role);
    return {
      hostEnv: ctx.hostEnv,
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      authToken: endpoint.authToken,
      declared: ctx.declaredEnv,
      passEnv: ctx.passEnv,
    };
  };
  const subject = await ctx.driver.prepare({
    hostEnv: ctx.hostEnv,
    dirs: { home: dirs.home, config: dirs.config, tmp: dirs.tmp },
    endpoint: ctx.endpoint(spec, "subject"),
    model: ctx.model ?? undefined,
    declared: {
      ...ctx.declaredEnv,
      ...(ctx.agentEnv?.({
        experimentId: ctx.experimentId,
        runId: spec.run_id,
        agent: ctx.driver.name,
      }) ?? {}),
    },
    passEnv: ctx.passEnv,
    maxRetries: ctx.agentRetries,
  });
  const timeoutMs = (ctx.timeoutSecOverride ?? task.environment.timeout_sec) * 1000;
  const state: { last: TurnResult | null } = { last: null };
  // The simulator's folders live outside the run root, which a sandboxed subject can write to:
  // nothing the subject leaves can reach the simulator (its settings, hooks or prompt).
  let simRoot: string | null = null;
  let simOut: RedactingLineWriter | null = null;
  let simDirs = { cwd: "", home: "", configDir: "", tmpDir: "" };
  const simAgent = ctx.simulatorAgent;
  if (config.mode === "auto_user" && "error" in simAgent)
    throw new Error(`the simulated user cannot run: ${simAgent.error}`);
  if (config.mode === "auto_user") {
    simRoot = await mkdtemp(
      path.join(os.tmpdir(), tempStem("simulator", ctx.experimentId, process.pid)),
    );
    simDirs = {
      cwd: path.join(simRoot, "cwd"),
      home: path.join(simRoot, "home"),
      configDir: path.join(simRoot, "config"),
      tmpDir: path.join(simRoot, "tmp"),
    };
    await Promise.all(Object.values(simDirs).map((d) => mkdir(d, { recursive: true })));
    simOut = new RedactingLineWriter(a.simulatorFile, ctx.redact);
  }
  try {
    const record = await runInteractionLoop({
      config,
      taskPrompt: a.prompt,
      subjectTurn: async (prompt, resume, _turn, call) => {
        const r = await ctx.driver.runTurn({
          bin: ctx.bin.path,
          workspace: dirs.workspace,
          prompt,
          env: subject.env,
          baseArgs: subject.baseArgs,
          resume: resume ?? undefined,
          model: ctx.model ?? undefined,
          timeoutMs: call.timeoutMs ?? timeoutMs,
          signal: call.signal ?? ctx.signal,
          stdout: a.stdout,
          stderr: a.stderr,
          launcher: a.launcher,
        });
        state.last = r;
        return r;
      },
      simulate:
        simOut && !("error" in simAgent)
          ? makeClaudeSimulator({
              driver: simAgent.driver,
              bin: simAgent.bin.path,
              env: envFor("simulator"),
              dirs: simDirs,
              stdout: simOut,
              model: ctx.interaction.simulatorModel ?? undefined,
              timeoutMs,
            })
          : () =>
              Promise.resolve({
                text: null,
                session_id: null,
                outcome: "spawn_error",
                detail: "no simulator in single-turn mode",
              }),
      signal: ctx.signal,
      deadlineMs: Date.now() + timeoutMs,
      log: (line) => a.stderr.write(`${line}\n`),
    });
    const lastTurn = state.last;
    const outcome = summaryOutcome(record, lastTurn);
    return {
      record,
      aborted: outcome === "aborted" || lastTurn?.outcome === "aborted",
      summary: {
        outcome,
        exit_code: lastTurn ? lastTurn.exit_code : null,
        detail:
          record.end_reason === "single_turn"
            ? (lastTurn?.detail ?? record.end_detail)
            : `${record.end_reason}: ${record.end_detail}`,
        interaction: { ...record, turns: record.turns.map((t) => ({ ...t })) },
      },
    };
  } finally {
    await simOut?.close();
    if (simRoot) await rm(simRoot, { recursive: true, force: true }).catch(() => undefined);
  }
}
