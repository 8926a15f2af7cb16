import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { runProcess } from "../util/process.js";

/**
 * Answers by binary file and arguments: a long-lived process (a queue worker runs one suite per
 * job) asks once per binary, not once per run; and across processes, the answer is kept on disk
 * (agentVersionCacheDir) for the same file: its real path, device, inode, size, modification and
 * change times (to the nanosecond), so a binary installed, replaced or touched is asked again.
 * Asking costs an agent start-up (~50-100 ms) on the path of every `skillbench run` before its
 * first agent (bench/run-overhead.mjs). A failed answer is never kept.
 */
const known = new Map<string, Promise<string | null>>();

/** Where the answers are kept: $XDG_CACHE_HOME/skillbench/agent-versions (default ~/.cache/...). */
export function agentVersionCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "skillbench", "agent-versions");
}

/** What identifies the binary file's content for the cache, or null when it cannot be read. */
async function fileKey(bin: string, args: string[]): Promise<string | null> {
  try {
    const real = await realpath(bin);
    const st = await stat(real, { bigint: true });
    return JSON.stringify([
      real,
      args,
      String(st.dev),
      String(st.ino),
      String(st.size),
      String(st.mtimeNs),
      String(st.ctimeNs),
    ]);
  } catch {
    return null;
  }
}

const cacheFile = (key: string): string =>
  path.join(agentVersionCacheDir(), createHash("sha256").update(key).digest("hex").slice(0, 32));

/** A kept answer: the key it was asked for (a hash of it names the file) and the version. */
const KeptVersionSchema = z.object({ key: z.string(), version: z.string().min(1) });

async function readKept(key: string): Promise<string | null> {
  const text = await readFile(cacheFile(key), "utf8").catch(() => null);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null; // a torn or foreign file: ask
  }
  const kept = KeptVersionSchema.safeParse(json);
  return kept.success && kept.data.key === key ? kept.data.version : null;
}

/** Keep an answer (atomically: a temporary file, then rename). Best effort. */
async function keep(key: string, version: string): Promise<void> {
  const file = cacheFile(key);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, JSON.stringify({ key, version }));
    await rename(tmp, file);
  } catch {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Forget the answers this process holds (the kept ones stay): for tests. */
export function forgetAgentVersions(): void {
  known.clear();
}

/** Run `<bin> <args>` and take the first version number it prints, e.g. "2.1.328 (Claude Code)" -> "2.1.328". */
export async function versionOf(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<string | null> {
  const key = await fileKey(bin, args);
  const hit = key ? known.get(key) : undefined;
  if (hit) return hit;
  const p = (async () => {
    const kept = key ? await readKept(key) : null;
    if (kept !== null) return kept;
    const v = await ask(bin, args, env, cwd);
    if (key && v !== null) await keep(key, v);
    return v;
  })();
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
