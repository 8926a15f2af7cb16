import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import path from "node:path";

/** Write a file atomically: a temporary file beside it, then rename. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    // The folder is made only when it is missing (one syscall less for every other write).
    await writeFile(tmp, data).catch(async (e: unknown) => {
      if (!isNotFound(e)) throw e;
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp, data);
    });
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    // A failed write names the file it was for (the message of a full disk needs it).
    if (typeof e === "object" && e !== null && !("path" in e && e.path === file))
      Object.assign(e, { path: file });
    throw e;
  }
}

/** Whether a file system error says the file (or a folder on its path) does not exist. */
export function isNotFound(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "ENOENT";
}

let syncWrites = 0;

/**
 * The same, synchronously: for small files written one after the other (`rescore`'s, a run's
 * records), where the round trips of an asynchronous write through the thread pool (open, write,
 * close, rename) cost more CPU than the write itself.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  // The process id and a counter name it apart from any other writer's (no random bytes to draw).
  const tmp = `${file}.${process.pid}.s${(syncWrites++).toString(36)}.tmp`;
  try {
    try {
      writeFileSync(tmp, data);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(tmp, data);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (typeof e === "object" && e !== null && !("path" in e && e.path === file))
      Object.assign(e, { path: file });
    throw e;
  }
}

/**
 * A synchronous write as a promise: a throw becomes its rejection, so a caller that awaits the
 * write (or catches its failure) sees it fail as it would an asynchronous one.
 */
export function settled(write: () => void): Promise<void> {
  return new Promise((resolve) => {
    write();
    resolve();
  });
}

/** The text of a JSON file as skillbench writes it (two-space indent, final newline). */
export function jsonFileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, jsonFileText(value));
}

export async function readJsonFile(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8")) as unknown;
}

/**
 * Resolve `rel` inside `root`, refusing absolute paths and any path that escapes
 * the root. Returns null for a hostile path.
 */
export function resolveInside(root: string, rel: string): string | null {
  if (rel.length === 0 || path.isAbsolute(rel) || /^[A-Za-z]:[\\/]/.test(rel)) return null;
  const abs = path.resolve(root, rel);
  const r = path.relative(path.resolve(root), abs);
  if (r === "" || (!r.startsWith("..") && !path.isAbsolute(r))) return abs;
  return null;
}

/** Write all of `data` at the file's position (a write may take fewer bytes than it was given). */
async function writeAll(fh: FileHandle, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length;) at += (await fh.write(data, at)).bytesWritten;
}

/** Bytes gathered before a write to the file. */
const WRITE_SIZE = 1 << 20;

/**
 * A file written in pieces, atomically: pieces go to a temporary file beside it (in ~1 MiB
 * writes, in order), renamed into place by `commit`; `abort` removes the temporary file.
 */
export class AtomicFileWriter {
  /** the bytes of the pieces not yet handed to the file (outside the JavaScript heap) */
  private buffer: Buffer | null = null;
  private used = 0;
  private queue: Promise<void> = Promise.resolve();
  private error: unknown = null;

  private constructor(
    private readonly fh: FileHandle,
    private readonly tmp: string,
    readonly file: string,
  ) {}

  static async create(file: string): Promise<AtomicFileWriter> {
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    return new AtomicFileWriter(await open(tmp, "w"), tmp, file);
  }

  /**
   * Queue a piece (written in order). It is encoded at once, so the string is garbage as soon as
   * the caller drops it: pieces kept as strings until a write would outlive the young
   * generation's collections, and strings of a megabyte are only freed by a full one.
   */
  write(text: string): void {
    // Its UTF-8 bytes are at least its characters: a text longer than the room left cannot fit.
    if (this.buffer && text.length > this.buffer.length - this.used) this.flush();
    if (text.length > WRITE_SIZE) {
      this.enqueue(Buffer.from(text));
      return;
    }
    this.buffer ??= Buffer.allocUnsafe(WRITE_SIZE);
    const room = this.buffer.length - this.used;
    // Encoded straight into the buffer, without measuring its UTF-8 length first (a second pass
    // over every character: ~10 ms of a 10,000-run `report`). A text that does not fit is cut
    // before the character that would cross the end, less than 4 bytes before it: a write that
    // stopped earlier took the whole text, and only one that ended near the end is measured.
    const written = this.buffer.write(text, this.used);
    const bytes = written < room - 3 ? written : Buffer.byteLength(text);
    if (written === bytes) {
      this.used += written;
      if (this.used === this.buffer.length) this.flush();
      return;
    }
    // It did not fit: its bytes past `used` are left to be overwritten, and it starts the next
    // write (or goes out on its own, when it is longer than one).
    this.flush();
    if (bytes > WRITE_SIZE) this.enqueue(Buffer.from(text));
    else this.write(text);
  }

  private flush(): void {
    if (!this.buffer || this.used === 0) return;
    const data = this.buffer.subarray(0, this.used);
    this.buffer = null;
    this.used = 0;
    this.enqueue(data);
  }

  private enqueue(data: Buffer): void {
    this.queue = this.queue.then(async () => {
      if (this.error === null)
        await writeAll(this.fh, data).catch((e: unknown) => void (this.error = e));
    });
  }

  /** Resolves when the pieces handed over in full ~1 MiB writes so far are on disk: a writer that awaits it now and then never holds a long file in memory. */
  drained(): Promise<void> {
    return this.queue;
  }

  /** Write what is queued and rename into place; throws (naming the file) when a write failed. */
  async commit(): Promise<void> {
    this.flush();
    await this.queue;
    await this.fh.close().catch((e: unknown) => void (this.error ??= e));
    if (this.error === null)
      try {
        await rename(this.tmp, this.file);
        return;
      } catch (e) {
        this.error = e;
      }
    await rm(this.tmp, { force: true });
    const e = this.error;
    if (typeof e === "object" && e !== null && !("path" in e && e.path === this.file))
      Object.assign(e, { path: this.file });
    throw e;
  }

  /** Drop the temporary file (after a failure elsewhere). */
  async abort(): Promise<void> {
    await this.queue;
    await this.fh.close().catch(() => undefined);
    await rm(this.tmp, { force: true });
  }
}
