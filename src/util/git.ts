/**
 * The one way skillbench asks git something (eval's `--changed-since`, a manifest's `git:REF`
 * baseline, the history record's commit): `git` from PATH in `cwd`, its output collected, never
 * a throw. Its environment is PATH, HOME (git's config) and LANG=C (git's messages, which the
 * errors quote, read the same everywhere); nothing else of the host's reaches it.
 */
import { runProcess } from "./process.js";

export interface GitResult {
  /** git's exit code; null when it could not start or was killed (timeout). */
  code: number | null;
  out: string;
  /** git's stderr, or why it did not start. */
  err: string;
}

export async function git(
  cwd: string,
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<GitResult> {
  let out = "";
  let err = "";
  const r = await runProcess({
    cmd: "git",
    args: [...args],
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", HOME: process.env.HOME ?? "/" },
    timeoutMs,
    onStdout: (c) => (out += c.toString("utf8")),
    onStderr: (c) => (err += c.toString("utf8")),
  });
  return { code: r.spawnError ? null : r.exitCode, out, err: r.spawnError ?? err };
}
