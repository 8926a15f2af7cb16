/**
 * One agent called outside a run (docs/ARCHITECTURE.md, "Running an agent outside a run"): the
 * task generator of `eval --generate`, the query generator and the probes of `triggers`, the
 * judge through an agent CLI, a run's simulated user (its folders and sandbox). Each call gets a
 * private tree named by `tempStem` with the owning pid (so the sweep of a later command and
 * `doctor --fix` remove it after a kill -9), filled by the caller, a sandbox started around it
 * (when one is given), the driver's environment for each turn, and everything stopped and
 * removed when the call ends, however it ends.
 */
import { parseEvidenceFile } from "../evidence/file.js";
import type { HelperSandbox, Launcher } from "../sandbox/types.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import { createRunDirs, removeRunDirs, type RunDirs } from "../util/run-dirs.js";
import type { AskResult } from "./ask.js";
import type { AgentDriver, AgentEndpoint, AgentEnvRequest, PreparedAgent } from "./types.js";

export interface AgentCallOptions {
  driver: AgentDriver;
  bin: string;
  /** The folder's name: `tempStem(name, experimentId, pid)`, under `tmpBase` (default the OS temp dir). */
  name: string;
  experimentId?: string | undefined;
  tmpBase?: string | undefined;
  /** The model endpoint of its turns (unless a turn names its own) and of its sandbox. */
  endpoint: AgentEndpoint;
  /** What `driver.prepare` is given besides the folders and the endpoint. */
  agent: Omit<AgentEnvRequest, "dirs" | "endpoint">;
  /** Fills the workspace before the sandbox starts. */
  setup?: ((dirs: RunDirs) => Promise<void>) | undefined;
  /** The sandbox the call runs in; absent: on the host. */
  sandboxFor?: HelperSandbox | undefined;
  /** Leave the folder in place (`triggers --keep-workspaces`). */
  keep?: boolean | undefined;
}

/** One turn of a call; its transcript goes to `stdoutFile` (redacted as it streams). */
export interface AgentCallTurn {
  prompt: string;
  /** Default: the call's endpoint. */
  endpoint?: AgentEndpoint | undefined;
  /** A session to carry on (the repair turn), when the agent gave one. */
  resume?: string | undefined;
  extraArgs?: string[] | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  stdoutFile: string;
  stderrFile: string;
  redact: (s: string) => string;
}

export interface AgentCall {
  dirs: RunDirs;
  /** The sandbox's launcher; undefined on the host. */
  launcher: Launcher | undefined;
  /** The driver's private state and environment for one process (written into the call's folders). */
  prepare(endpoint?: AgentEndpoint): Promise<PreparedAgent>;
  /** One turn of the driver, freshly prepared: its final text and what it cost. Never throws for the agent's failures. */
  ask(t: AgentCallTurn): Promise<AskResult>;
  /** Stop the sandbox and remove the folder (unless `keep`). Never throws. */
  close(): Promise<void>;
}

/**
 * Make the call's folder (filled by `setup`) and start its sandbox; `close()` stops and removes
 * both (in a `finally`). What fails on the way is undone before the error is thrown.
 */
export async function openAgentCall(o: AgentCallOptions): Promise<AgentCall> {
  const dirs = await createRunDirs(o.name, o.tmpBase, o.experimentId);
  let box: Awaited<ReturnType<HelperSandbox>> | undefined;
  const close = async (): Promise<void> => {
    await box?.stop().catch(() => undefined);
    if (!o.keep) await removeRunDirs(dirs).catch(() => undefined);
  };
  try {
    await o.setup?.(dirs);
    box = await o.sandboxFor?.({ dirs, agentBin: o.bin, modelEndpoint: o.endpoint.baseUrl });
  } catch (e) {
    await close();
    throw e;
  }
  const launcher = box?.launcher;
  const prepare = (endpoint?: AgentEndpoint): Promise<PreparedAgent> =>
    o.driver.prepare({
      ...o.agent,
      dirs: { home: dirs.home, config: dirs.config, tmp: dirs.tmp },
      endpoint: endpoint ?? o.endpoint,
    });
  const ask = async (t: AgentCallTurn): Promise<AskResult> => {
    const prepared = await prepare(t.endpoint);
    const stdout = new RedactingLineWriter(t.stdoutFile, t.redact);
    const stderr = new RedactingLineWriter(t.stderrFile, t.redact);
    let turn;
    try {
      turn = await o.driver.runTurn({
        bin: o.bin,
        workspace: dirs.workspace,
        prompt: t.prompt,
        env: prepared.env,
        baseArgs: prepared.baseArgs,
        extraArgs: t.extraArgs,
        resume: t.resume,
        model: o.agent.model,
        timeoutMs: t.timeoutMs,
        signal: t.signal,
        stdout,
        stderr,
        launcher,
      });
    } finally {
      await stdout.close();
      await stderr.close();
    }
    const ws = { workspace: dirs.workspace };
    const ev = await parseEvidenceFile(t.stdoutFile, ws, o.driver.decoder(ws));
    return {
      text: turn.outcome === "completed" ? turn.result_text : null,
      outcome: turn.outcome,
      detail: turn.detail,
      sessionId: turn.session_id,
      costUsd: ev.total_cost_usd,
      tokens: ev.tokens ? { input: ev.tokens.input, output: ev.tokens.output } : null,
      durationMs: turn.duration_ms,
    };
  };
  return { dirs, launcher, prepare, ask, close };
}

/** `body` with an open call, closed however it ends. */
export async function withAgentCall<T>(
  o: AgentCallOptions,
  body: (call: AgentCall) => Promise<T>,
): Promise<T> {
  const call = await openAgentCall(o);
  try {
    return await body(call);
  } finally {
    await call.close();
  }
}
