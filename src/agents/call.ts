/**
 * One agent called outside a run (docs/ARCHITECTURE.md, "Running an agent outside a run"): the
 * task generator of `eval --generate`, the query generator and the probes of `triggers`, the
 * judge through an agent CLI. Each call gets a private tree named by `tempStem` with the owning
 * pid (so the sweep of a later command and `doctor --fix` remove it after a kill -9), filled by
 * the caller, a sandbox started around it (when one is given), the driver's environment for
 * each turn, and everything stopped and removed when the call ends, however it ends.
 */
import type { HelperSandbox, Launcher } from "../sandbox/types.js";
import { createRunDirs, removeRunDirs, type RunDirs } from "../util/run-dirs.js";
import { askAgent, type AskResult } from "./ask.js";
import type { AgentDriver, AgentEndpoint, AgentEnvRequest, PreparedAgent } from "./types.js";

export interface AgentCallOptions {
  driver: AgentDriver;
  bin: string;
  /** The folder's name: `tempStem(name, experimentId, pid)`. */
  name: string;
  experimentId?: string | undefined;
  /** Where the folder goes (default the OS temp dir). */
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

/** A turn of the call: what `askAgent` takes that the call does not already know. */
export interface AgentCallTurn {
  prompt: string;
  /** Default: the call's endpoint. */
  endpoint?: AgentEndpoint | undefined;
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
  /** One turn (`askAgent`) with a freshly prepared environment. */
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
  return {
    dirs,
    launcher,
    prepare,
    close,
    ask: async (t) => {
      const prepared = await prepare(t.endpoint);
      return askAgent({
        driver: o.driver,
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
        stdoutFile: t.stdoutFile,
        stderrFile: t.stderrFile,
        redact: t.redact,
        launcher,
      });
    },
  };
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
