import os from "node:os";
import { killMarked, newRunMarker, runProcess, RUN_MARKER_VAR } from "../util/process.js";
import type { Evidence } from "../core/evidence.js";
import type { LaunchSpec } from "../sandbox/types.js";
import type { AgentDriver, ErrorKind, TurnRequest, TurnResult } from "./types.js";

/** The kind of failure a final event reports, from the decoder's `terminal_reason`. */
function errorKindOf(e: Evidence): ErrorKind | null {
  const last = e.results[e.results.length - 1];
  if (last === undefined || !last.is_error) return null;
  if (last.terminal_reason === "api_error") return "api_error";
  if (last.terminal_reason === "max_turns") return "max_turns";
  return "agent_error";
}

/** The signal behind a `128 + N` exit status (as sandboxes report one), else null. */
function signalOfStatus(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const hit = Object.entries(os.constants.signals).find(([, n]) => n === code - 128);
  return hit ? (hit[0] as NodeJS.Signals) : null;
}

/**
 * Run one turn of any driver: spawn its command line (inside the launcher), stream stdout
 * through the writer and the driver's own decoder, then classify. Never throws.
 */
export async function runDriverTurn(driver: AgentDriver, r: TurnRequest): Promise<TurnResult> {
  const decoder = driver.decoder({ workspace: r.workspace, toolTextBudget: 1_000_000 });
  let lines = 0;
  r.stdout.onLine = (line) => {
    if (line.trim() !== "") lines += 1;
    decoder.pushLine(line);
  };
  // Every process of this turn carries the marker, so none outlives it.
  const marker = newRunMarker();
  const cmd = driver.command(r);
  const spec: LaunchSpec = {
    cmd: r.bin,
    args: [...(r.baseArgs ?? []), ...cmd.args],
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
    ...(cmd.stdin !== undefined ? { stdin: cmd.stdin } : {}),
  });
  // A contained launch (a PID namespace of its own) left nothing running; anything else may have.
  if (launched.contained !== true) await killMarked(marker);
  // Any partial last line is still written (verbatim) and seen by the decoder.
  const rest = r.stdout.endTurn();
  r.stderr.endTurn();
  r.stdout.onLine = null;
  return classifyTurn({
    evidence: decoder.finish(),
    lines,
    partialLastLine: rest.length > 0,
    // bwrap and `docker exec` report a command killed by signal N as exit 128 + N.
    proc: { ...proc, signal: proc.signal ?? (r.launcher ? signalOfStatus(proc.exitCode) : null) },
    timeoutMs: r.timeoutMs,
    bin: r.bin,
    stdoutFile: r.stdout.file,
    stderrFile: r.stderr.file,
  });
}

export interface TurnFacts {
  evidence: Evidence;
  /** Non-blank stdout lines. */
  lines: number;
  /** The stream ended without a newline. */
  partialLastLine: boolean;
  proc: {
    exitCode: number | null;
    signal: string | null;
    killedFor: "timeout" | "abort" | null;
    spawnError: string | null;
    durationMs: number;
  };
  timeoutMs: number;
  bin: string;
  stdoutFile: string;
  stderrFile: string;
}

/** How a turn ended, from the process and the decoded stream: the same rules for every agent. Pure. */
export function classifyTurn(f: TurnFacts): TurnResult {
  const { evidence: e, proc, lines } = f;
  const rest = f.partialLastLine;
  const r = { bin: f.bin, timeoutMs: f.timeoutMs };
  const last = e.results[e.results.length - 1] ?? null;
  const base = {
    exit_code: proc.exitCode,
    signal: proc.signal,
    session_id: e.session_ids[e.session_ids.length - 1] ?? null,
    result_text: e.result_text,
    is_error: last ? last.is_error : null,
    lines,
    duration_ms: proc.durationMs,
    stdout_file: f.stdoutFile,
    stderr_file: f.stderrFile,
    error_kind: null,
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
  if (lines === 0 && !rest && proc.signal === null)
    return {
      ...base,
      outcome: "empty_output",
      detail: `agent printed nothing on stdout (exit ${String(proc.exitCode)})`,
    };
  if (last !== null) {
    if (last.is_error || proc.exitCode !== 0)
      return {
        ...base,
        outcome: "agent_error",
        error_kind: errorKindOf(e) ?? "agent_error",
        detail: `agent reported an error (exit ${String(proc.exitCode)}): ${(last.result ?? "").slice(0, 300)}`,
      };
    return { ...base, outcome: "completed", detail: "completed" };
  }
  if (proc.signal)
    return {
      ...base,
      outcome: "crashed",
      detail: `agent killed by ${proc.signal} before a result`,
    };
  if (proc.exitCode !== 0)
    return {
      ...base,
      outcome: "crashed",
      detail: `agent exited ${String(proc.exitCode)} without a result event`,
    };
  return { ...base, outcome: "no_result", detail: "agent exited 0 but printed no result event" };
}
