/**
 * The simulated user: one fresh, stateless agent call (`claude -p` by default) per decision point.
 * It runs in an empty folder of its own (no Skills, no CLAUDE.md, never the
 * subject's workspace), with its own config, HOME and tmp dirs, without
 * `--resume`, without session transcripts on disk, and with the file and shell
 * tools denied. Its stream goes to its own file, never the subject's. Under a sandbox (`launcher`,
 * started by the runner around these folders: docs/sandbox.md) each call runs inside it.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { defaultAgent } from "../agents/registry.js";
import type { AgentDriver, AgentEndpoint, AgentEnvRequest } from "../agents/types.js";
import type { Launcher } from "../sandbox/types.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import type { CallContext, Simulate, SimulatorReply } from "./loop.js";

interface SimulatorDirs {
  /** An empty folder used only as the simulator's cwd; emptied before every call. */
  cwd: string;
  home: string;
  configDir: string;
  tmpDir: string;
}

/** The simulator's environment inputs but its folders and model: the driver's `prepare` gets them. */
type SimulatorEnv = Pick<AgentEnvRequest, "hostEnv" | "declared" | "passEnv"> & AgentEndpoint;

export interface SimulatorOptions {
  /** The simulated user's agent (`--simulator-agent`); default: the registry's default agent. */
  driver?: AgentDriver | undefined;
  bin: string;
  /** Host env, the simulator's endpoint and credential, declared vars. */
  env: SimulatorEnv;
  dirs: SimulatorDirs;
  /** The run's simulator.jsonl. */
  stdout: RedactingLineWriter;
  /** Where its stderr goes; discarded when absent. */
  stderr?: RedactingLineWriter | undefined;
  /** `--simulator-model`; default: the endpoint's default model. */
  model?: string | undefined;
  /** Limit for one simulator call; the loop's remaining time caps it further. */
  timeoutMs: number;
  /** Runs each call inside the simulator's sandbox; absent: on the host. */
  launcher?: Launcher | undefined;
}

export function makeSimulator(opts: SimulatorOptions): Simulate {
  const driver = opts.driver ?? defaultAgent();
  return async (input: string, _turn: number, ctx: CallContext): Promise<SimulatorReply> => {
    // Emptied, not removed: a docker sandbox has the folder itself mounted.
    await mkdir(opts.dirs.cwd, { recursive: true });
    for (const e of await readdir(opts.dirs.cwd))
      await rm(path.join(opts.dirs.cwd, e), { recursive: true, force: true });
    for (const d of [opts.dirs.cwd, opts.dirs.home, opts.dirs.configDir, opts.dirs.tmpDir])
      await mkdir(d, { recursive: true });
    const prepared = await driver.prepare({
      hostEnv: opts.env.hostEnv,
      dirs: { home: opts.dirs.home, config: opts.dirs.configDir, tmp: opts.dirs.tmpDir },
      endpoint: {
        baseUrl: opts.env.baseUrl,
        apiKey: opts.env.apiKey,
        authToken: opts.env.authToken,
      },
      model: opts.model,
      declared: opts.env.declared,
      passEnv: opts.env.passEnv,
      tools: "talk-only",
    });
    const sink = opts.stderr ?? new RedactingLineWriter("/dev/null", (s) => s);
    try {
      const r = await driver.runTurn({
        bin: opts.bin,
        workspace: opts.dirs.cwd,
        prompt: input,
        env: prepared.env,
        baseArgs: prepared.baseArgs,
        model: opts.model,
        timeoutMs: Math.min(opts.timeoutMs, ctx.timeoutMs ?? opts.timeoutMs),
        signal: ctx.signal,
        stdout: opts.stdout,
        stderr: sink,
        launcher: opts.launcher,
      });
      return {
        text: r.result_text,
        session_id: r.session_id,
        outcome: r.outcome,
        detail: r.detail,
      };
    } finally {
      if (!opts.stderr) await sink.close();
    }
  };
}
