import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defaultAgent } from "../agents/registry.js";
import { errorMessage } from "../core/errors.js";
import { tempStem } from "../util/temp-names.js";
import { killMarked, newRunMarker, runProcess, RUN_MARKER_VAR } from "../util/process.js";
import type { HelperSandbox, LaunchSpec } from "../sandbox/types.js";
import type { ActiveJudgeConfig } from "./config.js";
import { buildJudgeEnv } from "./env.js";
import type { JudgeReply, JudgeTransport } from "./types.js";

/**
 * The judge through the `claude` CLI (docs/judge.md, Transports: the `claude` CLI): `claude -p ""`
 * with the prompt on stdin, no tools, no session kept, in a private empty cwd
 * with a private HOME/config/tmp, and the judge's own environment; inside `sandboxFor`'s sandbox
 * (the run's kind, around those private folders) when given.
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
  return async (prompt, signal): Promise<JudgeReply> => {
    const parent = o.scratchDir ?? os.tmpdir();
    await mkdir(parent, { recursive: true });
    const root = await mkdtemp(path.join(parent, tempStem("judge", o.experimentId, process.pid)));
    let box: Awaited<ReturnType<HelperSandbox>> | null = null;
    try {
      const dirs = {
        cwd: path.join(root, "cwd"),
        home: path.join(root, "home"),
        cfg: path.join(root, "config"),
        tmp: path.join(root, "tmp"),
      };
      await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
      const env = await buildJudgeEnv({
        hostEnv: o.hostEnv,
        config: o.config,
        home: dirs.home,
        configDir: dirs.cfg,
        tmpDir: dirs.tmp,
      });
      const marker = newRunMarker();
      const spec: LaunchSpec = {
        cmd: o.bin,
        args: judgeCliArgs(o.config.model),
        cwd: dirs.cwd,
        env: { ...env, [RUN_MARKER_VAR]: marker },
      };
      if (o.sandboxFor) {
        try {
          box = await o.sandboxFor({
            dirs: { root, workspace: dirs.cwd, home: dirs.home, config: dirs.cfg, tmp: dirs.tmp },
            agentBin: o.bin,
            modelEndpoint: o.config.baseUrl ?? undefined,
          });
        } catch (e) {
          return { ok: false, error: `judge sandbox: ${errorMessage(e)}` };
        }
      }
      const launched = box ? box.launcher(spec) : spec;
      const out: Buffer[] = [];
      let stderr = "";
      const proc = await runProcess({
        cmd: launched.cmd,
        args: launched.args,
        cwd: launched.cwd,
        env: launched.env,
        timeoutMs: o.config.timeoutMs,
        signal,
        stdin: prompt,
        onStdout: (c) => {
          out.push(c);
        },
        onStderr: (c) => {
          if (stderr.length < 4000) stderr += c.toString("utf8");
        },
      });
      // A contained launch (a PID namespace of its own) left nothing running.
      if (launched.contained !== true) await killMarked(marker);
      if (proc.spawnError)
        return { ok: false, error: `could not start ${o.bin}: ${proc.spawnError}` };
      if (proc.killedFor === "timeout")
        return { ok: false, error: `timeout after ${Math.round(o.config.timeoutMs / 1000)}s` };
      if (proc.killedFor === "abort") return { ok: false, error: "judge call cancelled" };
      const reply = replyFromStream(Buffer.concat(out).toString("utf8"));
      if (reply) return reply;
      const tail = stderr.replace(/\s+/g, " ").trim().slice(-300);
      return {
        ok: false,
        error: `claude judge exited ${String(proc.exitCode ?? proc.signal)} without a result event${tail ? `: ${tail}` : ""}`,
      };
    } finally {
      await box?.stop();
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    }
  };
}
