import { runProcess } from "../util/process.js";
import { CappedOutput, OUTPUT_CAP_BYTES } from "./capture.js";

export interface ProcessRun {
  exitCode: number | null;
  /** The signal that ended the process, when it did not exit normally. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the process could not be started. */
  spawnError: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface ProcessSpec {
  file: string;
  args: string[];
  cwd: string;
  /** The child's whole environment (nothing is inherited). */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  outputCap?: number;
}

/**
 * Run one validator process through the shared `runProcess` (util/process.ts: own process group,
 * stdin closed, the whole group killed on timeout, abort or exit) and capture its output, capped.
 * Never rejects.
 */
export async function runCaptured(spec: ProcessSpec): Promise<ProcessRun> {
  const stdout = new CappedOutput(spec.outputCap ?? OUTPUT_CAP_BYTES);
  const stderr = new CappedOutput(spec.outputCap ?? OUTPUT_CAP_BYTES);
  const r = await runProcess({
    cmd: spec.file,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    timeoutMs: spec.timeoutMs,
    ...(spec.signal ? { signal: spec.signal } : {}),
    onStdout: (c) => {
      stdout.push(c);
    },
    onStderr: (c) => {
      stderr.push(c);
    },
  });
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.killedFor === "timeout",
    aborted: r.killedFor === "abort",
    spawnError: r.spawnError,
    stdout: stdout.text(),
    stderr: stderr.text(),
    durationMs: r.durationMs,
  };
}
