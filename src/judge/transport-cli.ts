import { defaultAgent } from "../agents/registry.js";
import type { HelperSandbox } from "../sandbox/types.js";
import type { ActiveJudgeConfig } from "./config.js";
import { buildJudgeEnv } from "./env.js";
import { judgeCall, runJudgeProcess, type AgentTransportOptions } from "./transport-agent.js";
import type { JudgeReply, JudgeTransport } from "./types.js";

/**
 * The judge through the `claude` CLI (docs/judge.md, Transports: the `claude` CLI): `claude -p ""`
 * with the prompt on stdin, no tools, no session kept, in a private empty cwd
 * with a private HOME/config/tmp, and the judge's own environment; inside `sandboxFor`'s sandbox
 * (the run's kind, around those private folders) when given. The folders, the sandbox and their
 * removal are one agent call (agents/call.ts), as for `--judge-agent` (transport-agent.ts); the
 * arguments, the environment (env.ts) and the reading of the reply are this CLI's own.
 */

function judgeCliArgs(model: string): string[] {
  return [
    "-p",
    "",
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
    "--model",
    model,
    "--tools",
    "",
    "--no-session-persistence",
  ];
}

/**
 * The last `result` event of a stream-json transcript as a reply; null when there is none. Pure:
 * the stream is read by the default agent's one decoder (Claude Code's, src/agents/claude).
 */
function replyFromStream(stdout: string): JudgeReply | null {
  const decoder = defaultAgent().decoder();
  for (const line of stdout.split("\n")) decoder.pushLine(line);
  const e = decoder.finish();
  const found = e.results[e.results.length - 1];
  if (found === undefined) return null;
  if (found.is_error) {
    const why = found.result ?? found.terminal_reason ?? "unknown error";
    return { ok: false, error: `claude judge reported an error: ${why.slice(0, 300)}` };
  }
  return {
    ok: true,
    text: found.result ?? "",
    tokens: e.tokens ? { input: e.tokens.input, output: e.tokens.output } : null,
    costUsd: e.total_cost_usd,
  };
}

export interface CliTransportOptions {
  bin: string;
  config: ActiveJudgeConfig;
  hostEnv: Record<string, string | undefined>;
  /** Where the private per-call folders go (removed after each call); default the OS temp dir. */
  scratchDir?: string | undefined;
  /** Named in each per-call folder with this process's pid (`skillbench-judge-x<id>-p<pid>-…`). */
  experimentId?: string | undefined;
  /** The sandbox each call runs in (docs/sandbox.md); absent: on the host. */
  sandboxFor?: HelperSandbox | undefined;
}

export function cliTransport(o: CliTransportOptions): JudgeTransport {
  const a: AgentTransportOptions = { ...o, driver: defaultAgent() };
  return (prompt, signal) =>
    judgeCall(a, { hostEnv: o.hostEnv, model: o.config.model }, "judge", async (call) => {
      // Not the call's `prepare`: the judge's environment is env.ts's (the retry knobs, its role).
      const env = await buildJudgeEnv({
        hostEnv: o.hostEnv,
        config: o.config,
        home: call.dirs.home,
        configDir: call.dirs.config,
        tmpDir: call.dirs.tmp,
      });
      const args = judgeCliArgs(o.config.model);
      const run = await runJudgeProcess(a, call, { args, env, stdin: prompt }, signal);
      if ("error" in run) return { ok: false, error: run.error };
      const reply = replyFromStream(run.stdout);
      if (reply) return reply;
      const tail = run.stderr;
      return {
        ok: false,
        error: `claude judge exited ${run.exit} without a result event${tail ? `: ${tail}` : ""}`,
      };
    });
}
