import { spawn } from "node:child_process";
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

/** Kill the whole process group led by `pid`; ignore "no such process". */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Run one process in its own process group with stdin closed, capturing stdout/stderr (capped).
 * On timeout or abort the whole group is killed. When the leader exits, stragglers left in its
 * group are killed too, so a backgrounded child cannot keep the pipes (and this promise) open.
 * Never rejects.
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessRun> {
  const started = Date.now();
  const stdout = new CappedOutput(spec.outputCap ?? OUTPUT_CAP_BYTES);
  const stderr = new CappedOutput(spec.outputCap ?? OUTPUT_CAP_BYTES);
  return new Promise<ProcessRun>((resolve) => {
    let timedOut = false;
    let aborted = false;
    let spawnError: string | null = null;
    let settled = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(spec.file, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: false,
        spawnError: e instanceof Error ? e.message : String(e),
        stdout: "",
        stderr: "",
        durationMs: Date.now() - started,
      });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup(child.pid);
    };
    if (spec.signal?.aborted) onAbort();
    else spec.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null, signal: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode,
        signal,
        timedOut,
        aborted,
        spawnError,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Date.now() - started,
      });
    };
    child.stdout?.on("data", (c: Buffer) => stdout.push(c));
    child.stderr?.on("data", (c: Buffer) => stderr.push(c));
    child.on("exit", () => killGroup(child.pid));
    child.on("error", (e) => {
      spawnError = e.message;
      // 'close' may not follow a failed spawn.
      if (child.pid === undefined) finish(null, null);
    });
    child.on("close", (code, sig) => finish(code, sig));
  });
}
