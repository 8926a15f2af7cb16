import { withAgentCall, type AgentCall } from "../agents/call.js";
import type { AgentDriver } from "../agents/types.js";
import { killMarked, newRunMarker, runProcess, RUN_MARKER_VAR } from "../util/process.js";
import { errorMessage } from "../core/errors.js";
import type { HelperSandbox, LaunchSpec } from "../sandbox/types.js";
import type { ActiveJudgeConfig } from "./config.js";
import { JUDGE_PLACEHOLDER_KEY } from "./env.js";
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
    const cred = o.config.credential;
    try {
      return await withAgentCall(
        {
          driver: o.driver,
          bin: o.bin,
          name: "judge",
          experimentId: o.experimentId,
          tmpBase: o.scratchDir,
          endpoint: {
            baseUrl: o.config.baseUrl ?? undefined,
            apiKey:
              cred?.kind === "api_key" ? cred.value : cred ? undefined : JUDGE_PLACEHOLDER_KEY,
            authToken: cred?.kind === "token" ? cred.value : undefined,
          },
          agent: {
            hostEnv: o.hostEnv,
            model: o.config.model,
            declared: { COMET_EVAL_AGENT_ROLE: "judge" },
            // The judge fails fast: the caller retries a failed call once (run-judge.ts).
            maxRetries: 0,
            tools: "none",
          },
          sandboxFor: judgeSandbox(o.sandboxFor),
        },
        (call) => judgeOnce(o, call, prompt, signal),
      );
    } catch (e) {
      if (e instanceof JudgeSandboxError)
        return { ok: false, error: `${who} sandbox: ${e.message}` };
      throw e;
    }
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
  const marker = newRunMarker();
  const spec: LaunchSpec = {
    cmd: o.bin,
    args: [...prepared.baseArgs, ...cmd.args],
    cwd: call.dirs.workspace,
    env: { ...prepared.env, [RUN_MARKER_VAR]: marker },
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
    ...(cmd.stdin !== undefined ? { stdin: cmd.stdin } : {}),
  });
  // A contained launch (a PID namespace of its own) left nothing running.
  if (launched.contained !== true) await killMarked(marker);
  if (proc.spawnError) return { ok: false, error: `could not start ${o.bin}: ${proc.spawnError}` };
  if (proc.killedFor === "timeout")
    return { ok: false, error: `timeout after ${Math.round(o.config.timeoutMs / 1000)}s` };
  if (proc.killedFor === "abort") return { ok: false, error: "judge call cancelled" };
  const decoder = o.driver.decoder();
  for (const line of Buffer.concat(out).toString("utf8").split("\n")) decoder.pushLine(line);
  const e = decoder.finish();
  const last = e.results[e.results.length - 1];
  if (last?.is_error) {
    const why = last.result ?? last.terminal_reason ?? "unknown error";
    return { ok: false, error: `${who} reported an error: ${why.slice(0, 300)}` };
  }
  if (last === undefined || e.result_text === null) {
    const tail = stderr.replace(/\s+/g, " ").trim().slice(-300);
    return {
      ok: false,
      error: `${who} exited ${String(proc.exitCode ?? proc.signal)} without a final answer${tail ? `: ${tail}` : ""}`,
    };
  }
  return {
    ok: true,
    text: e.result_text,
    tokens: e.tokens ? { input: e.tokens.input, output: e.tokens.output } : null,
    costUsd: e.total_cost_usd,
  };
}
