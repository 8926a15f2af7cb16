import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import type { Writable } from "node:stream";

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why the process was killed by us, if it was. */
  killedFor: "timeout" | "abort" | null;
  spawnError: string | null;
  durationMs: number;
}

export interface RunProcessOptions {
  cmd: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /** Text written to stdin, which is then closed. stdin is closed (ignored) when absent. */
  stdin?: string;
}

/** Kill a whole process group (the child was spawned detached, so it leads one). */
function killTree(pid: number | undefined, sig: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    /* the group is gone */
  }
}

/** True while process `pid` exists (EPERM: it exists, as another user's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The variable that marks every process of one run, whatever session or group it moved to. */
export const RUN_MARKER_VAR = "SKILLBENCH_RUN_MARKER";

/**
 * Kill every process whose environment carries `SKILLBENCH_RUN_MARKER=<marker>`.
 * Agents start tool commands in sessions of their own (and `nohup … &` escapes
 * any group), so the marker, which every descendant inherits, is what finds them.
 * Linux only (/proc); elsewhere it does nothing. Returns how many were killed.
 */
export async function killMarked(marker: string): Promise<number> {
  // NUL before and after: the whole variable, not a longer name that ends the same way.
  const needle = Buffer.from(`\0${RUN_MARKER_VAR}=${marker}\0`);
  const killed: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return 0;
  }
  // One buffer for every process (byte 0 stays NUL, so the first variable has one before it
  // too); an environment larger than it is read whole. Every process of the machine is read at
  // the end of every run, so each costs one open, one read and one close.
  const buf = Buffer.alloc(ENVIRON_CHUNK + 1);
  for (const p of pids) {
    if (!/^\d+$/.test(p)) continue;
    const pid = Number(p);
    if (pid === process.pid) continue;
    try {
      if (environHas(`/proc/${p}/environ`, buf, needle)) {
        process.kill(pid, "SIGKILL");
        killed.push(pid);
      }
    } catch {
      /* gone, or not ours to read */
    }
  }
  // SIGKILL is delivered asynchronously: return once each one is gone (or a zombie
  // waiting for its parent), so that nothing of the run is still running afterwards.
  const deadline = Date.now() + 5000;
  for (const pid of killed) {
    while (isRunning(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }
  return killed.length;
}

/**
 * Processes that carry a run marker (`newRunMarker`: `p<pid>-…`) of a skillbench process that is
 * gone (killed with -9 before it could kill them: what escaped a run under `local`); unless
 * `dryRun`, each is killed. Linux only (/proc); elsewhere none.
 */
export function sweepOrphanedMarked(alive: (pid: number) => boolean, dryRun = false): number[] {
  const needle = Buffer.from(`\0${RUN_MARKER_VAR}=p`);
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const p of pids) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    let env: Buffer;
    try {
      env = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${p}/environ`)]);
    } catch {
      continue; // gone, or not ours to read
    }
    const at = env.indexOf(needle);
    if (at < 0) continue;
    const owner = /^(\d+)-/.exec(
      env.subarray(at + needle.length, at + needle.length + 16).toString(),
    );
    if (!owner?.[1] || alive(Number(owner[1]))) continue;
    found.push(Number(p));
    if (!dryRun)
      try {
        process.kill(Number(p), "SIGKILL");
      } catch {
        // gone meanwhile
      }
  }
  return found;
}

const ENVIRON_CHUNK = 64 * 1024;

/** Whether the environment file holds `needle` (which starts with NUL); `buf[0]` must be 0. */
function environHas(file: string, buf: Buffer, needle: Buffer): boolean {
  const fd = openSync(file, "r");
  try {
    let n = 0;
    while (n < ENVIRON_CHUNK) {
      const r = readSync(fd, buf, 1 + n, ENVIRON_CHUNK - n, n);
      if (r === 0) return buf.subarray(0, 1 + n).includes(needle);
      n += r;
    }
  } finally {
    closeSync(fd);
  }
  // Larger than one chunk (rare): the whole file.
  return Buffer.concat([Buffer.from([0]), readFileSync(file)]).includes(needle);
}

/** A process that exists and is not a zombie. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** After its process exited, how long its pipes may stay quiet before they are closed on our side. */
const EXIT_DRAIN_QUIET_MS = 200;
/** …and how long they are read at most after that exit, however much still arrives. */
const EXIT_DRAIN_MAX_MS = 5000;

/**
 * A run marker (RUN_MARKER_VAR's value) for the processes this process starts: it names this
 * process (`p<pid>-`), so that what escapes a run and outlives a skillbench killed with -9 can be
 * told from a live one's (src/sandbox/leftovers.ts).
 */
export function newRunMarker(): string {
  return `p${process.pid}-${randomUUID()}`;
}

/**
 * Run a process in its own process group with stdin closed, streaming its output
 * to the callbacks. A timeout or an abort kills the whole tree. Never rejects:
 * every failure is reported in the result.
 */
export function runProcess(opts: RunProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let killedFor: ProcessResult["killedFor"] = null;
    let settled = false;
    let child;
    try {
      child = spawn(opts.cmd, opts.args, {
        cwd: opts.cwd,
        env: opts.env,
        detached: true,
        stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({
        exitCode: null,
        signal: null,
        killedFor: null,
        spawnError: String(e),
        durationMs: 0,
      });
      return;
    }
    const pid = child.pid;
    const kill = (why: "timeout" | "abort"): void => {
      if (settled) return;
      killedFor ??= why;
      killTree(pid, "SIGKILL");
    };
    const timer =
      opts.timeoutMs !== undefined && opts.timeoutMs > 0
        ? setTimeout(() => kill("timeout"), opts.timeoutMs)
        : null;
    const onAbort = (): void => kill("abort");
    if (opts.signal) {
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener("abort", onAbort, { once: true });
    }
    if (opts.stdin !== undefined && child.stdin) {
      const sin: Writable = child.stdin;
      sin.on("error", () => undefined);
      sin.end(opts.stdin);
    }
    child.stdout?.on("data", (c: Buffer) => opts.onStdout?.(c));
    child.stderr?.on("data", (c: Buffer) => opts.onStderr?.(c));
    const finish = (r: Omit<ProcessResult, "durationMs" | "killedFor">): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      // Whatever the child left behind in its group goes with it.
      killTree(pid, "SIGKILL");
      resolve({ ...r, killedFor, durationMs: Date.now() - started });
    };
    child.on("error", (e) => finish({ exitCode: null, signal: null, spawnError: e.message }));
    let exited: { code: number | null; sig: NodeJS.Signals | null } | null = null;
    child.on("exit", (code, sig) => {
      exited = { code, sig };
      // Stragglers in the group (a backgrounded command) may hold the pipes open:
      // end them so that 'close' comes. A process that escaped the group (setsid, nohup in a
      // session of its own) keeps them open for as long as it lives: the command ends with its
      // own process. What it wrote before exiting is in the pipes already; once they have been
      // quiet for a moment (at most a few seconds) they are closed on our side, else they would
      // hold this process's event loop open for as long as the escaped one runs.
      killTree(pid, "SIGKILL");
      const done = (): void => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exitCode: code, signal: sig, spawnError: null });
      };
      const hardStop = setTimeout(done, EXIT_DRAIN_MAX_MS);
      let quiet = setTimeout(done, EXIT_DRAIN_QUIET_MS);
      const more = (): void => {
        clearTimeout(quiet);
        quiet = setTimeout(done, EXIT_DRAIN_QUIET_MS);
      };
      child.stdout?.on("data", more);
      child.stderr?.on("data", more);
      child.once("close", () => {
        clearTimeout(hardStop);
        clearTimeout(quiet);
      });
    });
    child.on("close", (code, sig) =>
      finish({ exitCode: exited?.code ?? code, signal: exited?.sig ?? sig, spawnError: null }),
    );
  });
}
