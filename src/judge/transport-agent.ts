import { withAgentCall, type AgentCall, type AgentCallOptions } from "../agents/call.js";
import type { AgentDriver } from "../agents/types.js";
import { killMarked, newRunMarker, runProcess, RUN_MARKER_VAR } from "../util/process.js";
import { errorMessage } from "../core/errors.js";
import type { HelperSandbox, LaunchSpec } from "../sandbox/types.js";
import type { ActiveJudgeConfig } from "./config.js";
import { judgeEndpoint } from "./env.js";
import type { JudgeReply, JudgeTransport } from "./types.js";

/**
 * The judge through any agent's CLI (`--judge-agent`, docs/judge.md): one first turn with no
 * tools (the driver's `tools: "none"`), in a private empty folder with a private HOME, config and
 * temp folder, an environment built by the driver from nothing but PATH, the locale and the
 * judge's own endpoint and credential (never the subject's), and no session kept past the call.
 * The reply is read by the agent's own decoder. Claude Code keeps its stdin transport
 * (transport-cli.ts); these CLIs take the prompt as an argument, so a prompt longer than an
 * argument may be is refused rather than cut. With `sandboxFor`, each call runs in a sandbox of the
 * run's kind around its private folders. The folders, the environment and the sandbox are one
 * agent call (agents/call.ts), as for the generators and the trigger probes.
 */

/** Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN); stay below it. */
const MAX_PROMPT_BYTES = 120_000;

/** The call's sandbox did not start: a failed judge call, not an error of the run. */
class JudgeSandboxError extends Error {}

function judgeSandbox(sandboxFor: HelperSandbox | undefined): HelperSandbox | undefined {
  if (sandboxFor === undefined) return undefined;
  return (helper) =>
    sandboxFor(helper).catch((e: unknown) => {
      throw new JudgeSandboxError(errorMessage(e));
    });
}

export interface AgentTransportOptions {
  driver: AgentDriver;
  bin: string;
  config: ActiveJudgeConfig;
  hostEnv: Record<string, string | undefined>;
  scratchDir?: string | undefined;
  /** Named in each call's folder with this process's pid (`skillbench-judge-x<id>-p<pid>-…`). */
  experimentId?: string | undefined;
  /** The sandbox each call runs in (docs/sandbox.md); absent: on the host. */
  sandboxFor?: HelperSandbox | undefined;
}

export function agentTransport(o: AgentTransportOptions): JudgeTransport {
  const who = `${o.driver.name} judge`;
  return async (prompt, signal): Promise<JudgeReply> => {
    const bytes = Buffer.byteLength(prompt);
    if (bytes > MAX_PROMPT_BYTES)
      return {
        ok: false,
        error: `${who}: the prompt (${bytes} bytes) is longer than ${o.driver.displayName}'s command line takes (${MAX_PROMPT_BYTES})`,
      };
    const agent = {
      hostEnv: o.hostEnv,
      model: o.config.model,
      declared: { COMET_EVAL_AGENT_ROLE: "judge" },
      // The judge fails fast: the caller retries a failed call once (run-judge.ts).
      maxRetries: 0,
      tools: "none" as const,
    };
    return judgeCall(o, agent, who, (call) => judgeOnce(o, call, prompt, signal));
  };
}

/**
 * One judge request as an agent call (agents/call.ts) named `judge`: the call's folders, its
 * sandbox and their removal. A sandbox that does not start is a failed judge call
 * (`<who> sandbox: …`), not an error of the run. Shared with the default agent's CLI judge
 * (transport-cli.ts).
 */
export async function judgeCall(
  o: AgentTransportOptions,
  agent: AgentCallOptions["agent"],
  who: string,
  body: (call: AgentCall) => Promise<JudgeReply>,
): Promise<JudgeReply> {
  try {
    return await withAgentCall(
      {
        driver: o.driver,
        bin: o.bin,
        name: "judge",
        experimentId: o.experimentId,
        tmpBase: o.scratchDir,
        endpoint: judgeEndpoint(o.config),
        agent,
        sandboxFor: judgeSandbox(o.sandboxFor),
      },
      body,
    );
  } catch (e) {
    if (e instanceof JudgeSandboxError) return { ok: false, error: `${who} sandbox: ${e.message}` };
    throw e;
  }
}

/** What the judge's process printed, or why there is nothing to read. */
type JudgeOutput = { stdout: string; stderr: string; exit: string } | { error: string };

/** The judge's one process in the call's folder (and sandbox), with nothing of it left running. */
export async function runJudgeProcess(
  o: AgentTransportOptions,
  call: AgentCall,
  launch: { args: string[]; env: Record<string, string>; stdin?: string | undefined },
  signal: AbortSignal | undefined,
): Promise<JudgeOutput> {
  const marker = newRunMarker();
  const spec: LaunchSpec = {
    cmd: o.bin,
    args: launch.args,
    cwd: call.dirs.workspace,
    env: { ...launch.env, [RUN_MARKER_VAR]: marker },
  };
  const launched = call.launcher ? call.launcher(spec) : spec;
  const out: Buffer[] = [];
  let stderr = "";
  const proc = await runProcess({
    cmd: launched.cmd,
    args: launched.args,
    cwd: launched.cwd,
    env: launched.env,
    timeoutMs: o.config.timeoutMs,
    signal,
    onStdout: (c) => {
      out.push(c);
    },
    onStderr: (c) => {
      if (stderr.length < 4000) stderr += c.toString("utf8");
    },
    ...(launch.stdin !== undefined ? { stdin: launch.stdin } : {}),
  });
  // A contained launch (a PID namespace of its own) left nothing running.
  if (launched.contained !== true) await killMarked(marker);
  if (proc.spawnError) return { error: `could not start ${o.bin}: ${proc.spawnError}` };
  if (proc.killedFor === "timeout")
    return { error: `timeout after ${Math.round(o.config.timeoutMs / 1000)}s` };
  if (proc.killedFor === "abort") return { error: "judge call cancelled" };
  return {
    stdout: Buffer.concat(out).toString("utf8"),
    stderr: stderr.replace(/\s+/g, " ").trim().slice(-300),
    exit: String(proc.exitCode ?? proc.signal),
  };
}

/** One tool-less first turn in the call's folder; its stdout read by the agent's own decoder. */
async function judgeOnce(
  o: AgentTransportOptions,
  call: AgentCall,
  prompt: string,
  signal: AbortSignal | undefined,
): Promise<JudgeReply> {
  const who = `${o.driver.name} judge`;
  const prepared = await call.prepare();
  const cmd = o.driver.command({ prompt, model: o.config.model });
  const run = await runJudgeProcess(
    o,
    call,
    { args: [...prepared.baseArgs, ...cmd.args], env: prepared.env, stdin: cmd.stdin },
    signal,
  );
  if ("error" in run) return { ok: false, error: run.error };
  const decoder = o.driver.decoder();
  for (const line of run.stdout.split("\n")) decoder.pushLine(line);
  const e = decoder.finish();
  const last = e.results[e.results.length - 1];
  if (last?.is_error) {
    const why = last.result ?? last.terminal_reason ?? "unknown error";
    return { ok: false, error: `${who} reported an error: ${why.slice(0, 300)}` };
  }
  if (last === undefined || e.result_text === null) {
    const tail = run.stderr;
    return {
      ok: false,
      error: `${who} exited ${run.exit} without a final answer${tail ? `: ${tail}` : ""}`,
    };
  }
  return {
    ok: true,
    text: e.result_text,
    tokens: e.tokens ? { input: e.tokens.input, output: e.tokens.output } : null,
    costUsd: e.total_cost_usd,
  };
}
