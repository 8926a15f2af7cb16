import { accessSync, constants } from "node:fs";
import path from "node:path";
import { runProcess } from "../util/process.js";

export interface Captured {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not start, timed out or was aborted. */
  error: string | null;
}

/** Run a helper command (docker, bwrap) to completion and capture its output; never rejects. */
export async function capture(
  cmd: string,
  args: string[],
  o: {
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    signal?: AbortSignal | undefined;
    stdin?: string;
  } = {},
): Promise<Captured> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const r = await runProcess({
    cmd,
    args,
    cwd: o.cwd ?? process.cwd(),
    env: o.env ?? hostToolEnv(),
    timeoutMs: o.timeoutMs ?? 60_000,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
    onStdout: (c) => out.push(c),
    onStderr: (c) => err.push(c),
  });
  const error = r.spawnError ?? (r.killedFor ? `${r.killedFor} after ${r.durationMs} ms` : null);
  return {
    code: r.exitCode,
    stdout: Buffer.concat(out).toString("utf8"),
    stderr: Buffer.concat(err).toString("utf8"),
    error,
  };
}

/** The environment for helper tools: PATH, HOME and the docker client's own variables only. */
export function hostToolEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of [
    "PATH",
    "HOME",
    "LANG",
    "DOCKER_HOST",
    "DOCKER_CONFIG",
    "DOCKER_CONTEXT",
    "DOCKER_TLS_VERIFY",
    "DOCKER_CERT_PATH",
  ]) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** `name` on the host PATH (absolute), or null. */
export function whichSync(
  name: string,
  pathVar: string | undefined = process.env.PATH,
): string | null {
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** The first line of a tool's error output, for messages. */
export function firstLine(c: Captured): string {
  const text = (c.error ?? c.stderr.trim()) || c.stdout.trim();
  return text.split("\n")[0]?.slice(0, 300) ?? "";
}
