/**
 * One writer per results folder: an advisory lock file, `<results>/.skillbench.lock`, holding the
 * holder's pid, host, process start and command. Two `run --resume` (or a `run` and a queue
 * coordinator) writing one folder would each run every missing run and mix their records; the
 * second one is refused (exit 2, naming the holder) or, with `--wait`, waits for the first to end.
 *
 * A lock left by a process that is gone (kill -9, a crash) is stale and taken over: on this host
 * that is a pid that no longer runs, or runs a process started at another time (the pid was
 * reused). A lock of another host (a results folder on a shared disk) cannot be checked: it is
 * refused, and the message says which file to remove if that process is known to be gone.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import {
  link,
  mkdir,
  readFile,
  realpath,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { processAlive } from "../util/process.js";

/** The lock file's name in a results folder. */
export const LOCK_FILE = ".skillbench.lock";

const LockSchema = z.object({
  schema: z.literal("skillbench.lock.v1"),
  pid: z.number().int(),
  host: z.string(),
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot), null off Linux. */
  proc_start: z.string().nullable(),
  started_at: z.string(),
  command: z.string(),
  /** This acquisition's own id: a release removes the file only while it is still its own. */
  token: z.string(),
});

export type LockHolder = z.infer<typeof LockSchema>;

/** When the process `pid` started (Linux), to tell a reused pid from the holder. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** True when the holder is a process of this host that is gone. */
function isStale(h: LockHolder): boolean {
  if (h.host !== os.hostname()) return false;
  if (!processAlive(h.pid)) return true;
  const now = procStart(h.pid);
  return h.proc_start !== null && now !== null && now !== h.proc_start;
}

type Found = { kind: "free" } | { kind: "held"; holder: LockHolder } | { kind: "unreadable" };

async function readHolder(file: string): Promise<Found> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { kind: "free" };
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "unreadable" };
  }
  const parsed = LockSchema.safeParse(json);
  return parsed.success ? { kind: "held", holder: parsed.data } : { kind: "unreadable" };
}

/** Create the lock file with its whole content at once (a hard link of a finished file), or fail. */
async function tryCreate(file: string, holder: LockHolder): Promise<boolean> {
  const temp = `${file}.${holder.token}`;
  await writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o644 });
  try {
    await link(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    // A file system without hard links: an exclusive create (a reader may see it empty for a
    // moment, and reads that as a lock being written).
    if (
      !["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(
        String((e as NodeJS.ErrnoException).code),
      )
    )
      throw e;
    try {
      await writeFile(file, `${JSON.stringify(holder)}\n`, { flag: "wx" });
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e2;
    }
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/**
 * Remove a stale lock, unless another process took it over meanwhile: the takeover itself is done
 * under an exclusive `<lock>.takeover` file, so that two processes that both found the same stale
 * lock cannot remove the one the first of them then created.
 */
async function removeStale(file: string, stale: LockHolder): Promise<boolean> {
  const guard = `${file}.takeover`;
  try {
    await writeFile(guard, String(process.pid), { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    // A taker that died mid-takeover (a window of a few system calls) left its guard.
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > 10_000) await rm(guard, { force: true });
    return false;
  }
  try {
    const now = await readHolder(file);
    if (now.kind !== "held" || now.holder.token !== stale.token) return false;
    await unlink(file);
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

export interface LockOptions {
  /** What holds it, for the refusal message (`skillbench run --resume`...). */
  command: string;
  /** Wait for the holder to end instead of refusing. */
  wait?: boolean | undefined;
  /** Ends a wait (Ctrl-C): the acquisition then fails. */
  signal?: AbortSignal | undefined;
  /** Told once when the lock is held and this process waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
  /** Told when a stale lock is taken over. */
  onStale?: ((holder: LockHolder) => void) | undefined;
  /** false: a folder that does not exist is not made, and needs no lock (a reader's error follows). */
  create?: boolean | undefined;
  /** Milliseconds between two looks while waiting (default 250). */
  pollMs?: number | undefined;
}

export interface ResultsLock {
  file: string;
  /** Remove the lock (once the last holder in this process lets it go). */
  release(): Promise<void>;
}

/** Locks this process holds, by lock file: a nested acquisition (a round of `--until-decided`) shares it. */
const held = new Map<
  string,
  { holder: LockHolder; count: number; made: { top: string; dir: string } | null }
>();

/** A lock file left at exit (an uncaught error, `process.exit`) goes with the process. */
let exitHook = false;
function removeAtExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const [file, h] of held) {
      try {
        const text = readFileSync(file, "utf8");
        if (text.includes(h.holder.token)) unlinkSync(file);
      } catch {
        // gone already
      }
    }
  });
}

function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} on ${h.host}, since ${h.started_at}: ${h.command}`;
}

/**
 * Take the results folder's lock (the folder is made if missing). Refuses with an `InputError`
 * naming the holder when another live process holds it, unless `wait`.
 */
export async function lockResultsFolder(outDir: string, o: LockOptions): Promise<ResultsLock> {
  let file = path.join(path.resolve(outDir), LOCK_FILE);
  const mine = held.get(file);
  if (mine) {
    mine.count += 1;
    return { file, release: () => releaseLock(file) };
  }
  if (o.create === false && !existsSync(path.dirname(file)))
    return { file, release: () => Promise.resolve() };
  // The first folder this made (null: the folder was there): removed again on release when
  // nothing was written into it (a run refused before it wrote anything leaves no folder).
  const made = (await mkdir(path.dirname(file), { recursive: true })) ?? null;
  // One key per folder however it is named (a symlink, a relative path): a nested acquisition
  // through another name must find this process's own lock, not refuse it.
  const dir = await realpath(path.dirname(file));
  file = path.join(dir, LOCK_FILE);
  const again = held.get(file);
  if (again) {
    again.count += 1;
    return { file, release: () => releaseLock(file) };
  }
  const holder: LockHolder = {
    schema: "skillbench.lock.v1",
    pid: process.pid,
    host: os.hostname(),
    proc_start: procStart(process.pid),
    started_at: new Date().toISOString(),
    command: o.command,
    token: randomUUID(),
  };
  let told = false;
  let unreadableSince: number | null = null;
  for (;;) {
    if (o.signal?.aborted)
      throw new InputError(`stopped while waiting for the lock of ${outDir}`, {
        file,
        field: "--wait",
      });
    if (await tryCreate(file, holder)) break;
    const found = await readHolder(file);
    if (found.kind === "free") continue;
    if (found.kind === "unreadable") {
      // Being written by a process without hard links, or damaged: after a few seconds a
      // damaged lock is refused (with --wait too: it would never end), naming the file.
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince > 5_000)
        throw new InputError(
          `${outDir} has a lock file that cannot be read (${file}): if no skillbench writes this folder, remove it`,
          { file, field: "--out" },
        );
    } else if (isStale(found.holder)) {
      // Retried at once once removed; while another process takes it over, after a pause.
      if (await removeStale(file, found.holder)) {
        o.onStale?.(found.holder);
        continue;
      }
    } else {
      unreadableSince = null;
      if (!o.wait) {
        const other =
          found.holder.host === os.hostname()
            ? ""
            : ` (another host: if that process is gone, remove ${file})`;
        throw new InputError(
          `${outDir} is being written by another skillbench (${describeHolder(found.holder)})${other}: wait for it to end, pass --wait to start once it has, or choose another --out`,
          { file, field: "--out" },
        );
      }
      if (!told) {
        told = true;
        o.onWait?.(found.holder);
      }
    }
    await delay(o.pollMs ?? 250, undefined, { signal: o.signal }).catch(() => undefined);
  }
  held.set(file, {
    holder,
    count: 1,
    made: made === null ? null : { top: path.resolve(made), dir: path.resolve(outDir) },
  });
  removeAtExit();
  return { file, release: () => releaseLock(file) };
}

async function releaseLock(file: string): Promise<void> {
  const mine = held.get(file);
  if (!mine) return;
  mine.count -= 1;
  if (mine.count > 0) return;
  held.delete(file);
  const now = await readHolder(file).catch(() => ({ kind: "free" }) as const);
  if (now.kind === "held" && now.holder.token === mine.holder.token)
    await rm(file, { force: true }).catch(() => undefined);
  if (mine.made !== null) {
    // From the results folder (as it was named) up to the first folder the lock made, each
    // while empty.
    const { top, dir: from } = mine.made;
    for (let dir = from; ; dir = path.dirname(dir)) {
      const ok = await rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!ok || dir === top || !dir.startsWith(top)) break;
    }
  }
}

/** Run `fn` holding the results folder's lock (see lockResultsFolder). */
export async function withResultsLock<T>(
  outDir: string,
  o: LockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = await lockResultsFolder(outDir, o);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
