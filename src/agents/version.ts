import { stat } from "node:fs/promises";
import { runProcess } from "../util/process.js";

/**
 * Answers by binary file (path, size, mtime) and arguments: a long-lived process (a queue
 * worker runs one suite per job) asks once per binary, not once per run.
 */
const known = new Map<string, Promise<string | null>>();

/** Run `<bin> <args>` and take the first version number it prints, e.g. "2.1.328 (Claude Code)" -> "2.1.328". */
export async function versionOf(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<string | null> {
  const st = await stat(bin).catch(() => null);
  const key = st ? JSON.stringify([bin, args, st.size, st.mtimeMs]) : null;
  const hit = key ? known.get(key) : undefined;
  if (hit) return hit;
  const p = ask(bin, args, env, cwd);
  if (key) {
    known.set(key, p);
    // A failed answer is asked again next time.
    void p.then((v) => v === null && known.delete(key));
  }
  return p;
}

async function ask(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<string | null> {
  let out = "";
  const r = await runProcess({
    cmd: bin,
    args,
    cwd,
    env,
    timeoutMs: 30_000,
    onStdout: (c) => (out += c.toString()),
  });
  if (r.exitCode !== 0) return null;
  const m = /(\d+\.\d+\.\d+\S*)/.exec(out);
  return m?.[1] ?? (out.trim() || null);
}
