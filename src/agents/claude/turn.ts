import { randomUUID } from "node:crypto";
import os from "node:os";
import { killMarked, runProcess, RUN_MARKER_VAR } from "../../util/process.js";
import { RedactingLineWriter } from "../../util/redacting-writer.js";
import type { Launcher } from "../../sandbox/types.js";
import { StreamWatcher } from "./watcher.js";

/** How one agent process ended. Each failure mode is distinct and recorded. */
export type TurnOutcome =
  | "completed" // exit 0 and a result event with is_error false
  | "agent_error" // a result event with is_error true, or a non-zero exit after a result event
  | "crashed" // killed by a signal we did not send, or a non-zero exit with no result event
  | "no_result" // exit 0 but the stream has no result event
  | "empty_output" // the process printed nothing on stdout
  | "timeout" // killed by skillbench after the timeout
  | "aborted" // killed because the run was cancelled (Ctrl-C)
  | "spawn_error"; // the binary could not be started

export interface TurnRequest {
  bin: string;
  workspace: string;
  prompt: string;
  env: Record<string, string>;
  resume?: string | undefined;
  model?: string | undefined;
  appendSystemPrompt?: string | undefined;
  extraArgs?: string[];
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  stdout: RedactingLineWriter;
  stderr: RedactingLineWriter;
  /** Runs the agent inside a sandbox (src/sandbox); absent: spawned directly. */
  launcher?: Launcher | undefined;
}

export interface TurnResult {
  outcome: TurnOutcome;
  exit_code: number | null;
  signal: string | null;
  session_id: string | null;
  result_text: string | null;
  is_error: boolean | null;
  lines: number;
  duration_ms: number;
  /** The raw (redacted) stdout and stderr files this turn appended to. */
  stdout_file: string;
  stderr_file: string;
  /** Why, in words, for the report. */
  detail: string;
}

export function claudeArgs(
  r: Pick<TurnRequest, "prompt" | "resume" | "model" | "appendSystemPrompt" | "extraArgs">,
): string[] {
  const args = [
    "-p",
    r.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
  ];
  if (r.model) args.push("--model", r.model);
  if (r.resume) args.push("--resume", r.resume);
  if (r.appendSystemPrompt) args.push("--append-system-prompt", r.appendSystemPrompt);
  args.push(...(r.extraArgs ?? []));
  return args;
}

/** The signal behind a `128 + N` exit status (as sandboxes report one), else null. */
function signalOfStatus(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const hit = Object.entries(os.constants.signals).find(([, n]) => n === code - 128);
  return hit ? (hit[0] as NodeJS.Signals) : null;
}

/** Run one `claude -p` turn; never throws. */
export async function runClaudeTurn(r: TurnRequest): Promise<TurnResult> {
  const watcher = new StreamWatcher();
  r.stdout.onLine = (line) => watcher.push(line);
  // Every process of this turn carries the marker, so none outlives it.
  const marker = randomUUID();
  const spec = {
    cmd: r.bin,
    args: claudeArgs(r),
    cwd: r.workspace,
    env: { ...r.env, [RUN_MARKER_VAR]: marker },
  };
  const launched = r.launcher ? r.launcher(spec) : spec;
  const proc = await runProcess({
    cmd: launched.cmd,
    args: launched.args,
    cwd: launched.cwd,
    env: launched.env,
    timeoutMs: r.timeoutMs,
    signal: r.signal,
    onStdout: (c) => r.stdout.write(c),
    onStderr: (c) => r.stderr.write(c),
  });
  await killMarked(marker);
  // Any partial last line is still written (verbatim) and seen by the watcher.
  const rest = r.stdout.endTurn();
  r.stderr.endTurn();
  r.stdout.onLine = null;
  const w = watcher.state;
  // bwrap and `docker exec` report a command killed by signal N as exit 128 + N.
  const signal = proc.signal ?? (r.launcher ? signalOfStatus(proc.exitCode) : null);
  const base = {
    exit_code: proc.exitCode,
    signal,
    session_id: w.sessionId,
    result_text: w.resultText ?? w.lastAssistantText,
    is_error: w.resultIsError,
    lines: w.lines,
    duration_ms: proc.durationMs,
    stdout_file: r.stdout.file,
    stderr_file: r.stderr.file,
  };
  if (proc.spawnError)
    return {
      ...base,
      outcome: "spawn_error",
      detail: `could not start ${r.bin}: ${proc.spawnError}`,
    };
  if (proc.killedFor === "timeout")
    return {
      ...base,
      outcome: "timeout",
      detail: `Timeout after ${Math.round(r.timeoutMs / 1000)}s: process tree killed`,
    };
  if (proc.killedFor === "abort")
    return { ...base, outcome: "aborted", detail: "run cancelled: process tree killed" };
  if (w.lines === 0 && !rest && signal === null)
    return {
      ...base,
      outcome: "empty_output",
      detail: `agent printed nothing on stdout (exit ${String(proc.exitCode)})`,
    };
  if (w.hasResult) {
    if (w.resultIsError || proc.exitCode !== 0)
      return {
        ...base,
        outcome: "agent_error",
        detail: `agent reported an error (exit ${String(proc.exitCode)}): ${(w.resultText ?? "").slice(0, 300)}`,
      };
    return { ...base, outcome: "completed", detail: "completed" };
  }
  if (signal)
    return {
      ...base,
      outcome: "crashed",
      detail: `agent killed by ${signal} before a result`,
    };
  if (proc.exitCode !== 0)
    return {
      ...base,
      outcome: "crashed",
      detail: `agent exited ${String(proc.exitCode)} without a result event`,
    };
  return { ...base, outcome: "no_result", detail: "agent exited 0 but printed no result event" };
}
