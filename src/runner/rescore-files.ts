/**
 * A stored run's files as `rescore` reads and writes them: each read once, whole and
 * synchronously (a promise per open, stat, read and close costs several times the read of a
 * small file, and a rescore reads seven of them per run), and each written only when its bytes
 * change, atomically (a temporary file renamed into place: never through a hard link into the
 * folder it was copied from).
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { z } from "zod";
import { errorMessage, InputError } from "../core/errors.js";
import { STREAM_CHUNK_BYTES } from "../evidence/index.js";
import type { runPaths } from "../store/layout.js";
import { checkRecord } from "../store/run-files.js";
import { isNotFound, jsonFileText } from "../util/fs.js";

type RunPaths = ReturnType<typeof runPaths>;

/** A transcript up to this size is read whole; a larger one streams (bounded memory). */
const MAX_STREAM_IN_MEMORY = 64 * 1024 * 1024;
/** The last bytes of stdout and stderr kept in a report (as runner/tail.ts reads them). */
const TAIL_BYTES = 64 * 1024;

/**
 * A file's bytes from `from` on (at most `max` bytes; null past it) and its stat: one open,
 * fstat, read and close. Throws the file system's error (ENOENT for a missing file).
 */
function readAt(file: string, max = Infinity, tail = false): { bytes: Buffer | null; stat: Stats } {
  const fd = openSync(file, "r");
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { bytes: null, stat };
    const from = tail ? Math.max(0, stat.size - max) : 0;
    if (stat.size - from > max) return { bytes: null, stat };
    const buf = Buffer.allocUnsafe(stat.size - from);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, from + n);
      if (got === 0) break;
      n += got;
    }
    return { bytes: buf.subarray(0, n), stat };
  } finally {
    closeSync(fd);
  }
}

/** A JSON file's text; null when it is missing or cannot be read (the parsers say what that means). */
export function readTextOrNull(file: string): string | null {
  try {
    return readAt(file).bytes?.toString("utf8") ?? null;
  } catch {
    return null;
  }
}

/** A file's text; null when it is missing; bad input when it cannot be read. */
export function readTextIfPresent(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if (isNotFound(e)) return null;
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
}

/** report.json's text and stat; null when the run has none (an incomplete run). */
export function readReportText(paths: RunPaths): { text: string; stat: Stats } | null {
  const file = paths.report;
  let read;
  try {
    read = readAt(file);
  } catch (e) {
    if (isNotFound(e)) return null;
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
  if (!read.stat.isFile() || read.bytes === null) return null;
  return { text: read.bytes.toString("utf8"), stat: read.stat };
}

/** The last TAIL_BYTES of a file as text ('' when it cannot be read), as runner/tail.ts. */
export function tailText(file: string): string {
  try {
    return readAt(file, TAIL_BYTES, true).bytes?.toString("utf8") ?? "";
  } catch {
    return "";
  }
}

/**
 * The agent's stored stream (stdout.jsonl): its text in the chunks parseEvidenceFile reads
 * (decoded the same way) and its tail; `chunks` is null when the file is larger than
 * MAX_STREAM_IN_MEMORY (the caller streams it). A stream that cannot be read is bad input.
 */
export function readStoredStream(file: string): { chunks: string[] | null; tail: string } {
  let bytes: Buffer | null;
  try {
    bytes = readAt(file, MAX_STREAM_IN_MEMORY).bytes;
  } catch (e) {
    throw new InputError(`${file}: cannot read transcript: ${errorMessage(e)}`, { file });
  }
  if (bytes === null) return { chunks: null, tail: tailText(file) };
  const decoder = new StringDecoder("utf8");
  const chunks: string[] = [];
  for (let at = 0; at < bytes.length; at += STREAM_CHUNK_BYTES) {
    const text = decoder.write(bytes.subarray(at, at + STREAM_CHUNK_BYTES));
    if (text !== "") chunks.push(text);
  }
  const rest = decoder.end();
  if (rest !== "") chunks.push(rest);
  return { chunks, tail: bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString("utf8") };
}

let writes = 0;

/**
 * `text` written to `file` atomically (a temporary file beside it, renamed into place: never
 * through a hard link), as util/fs.ts writeFileAtomicSync, and the written file's stat taken
 * from the open temporary file: a rename keeps its inode, size and mtime (the run index's
 * stamp), so no second lookup of the path.
 */
function writeAtomicStat(file: string, text: string): Stats {
  const tmp = `${file}.${process.pid}.r${(writes++).toString(36)}.tmp`;
  try {
    let fd: number;
    try {
      fd = openSync(tmp, "w");
    } catch (e) {
      if (!isNotFound(e)) throw e;
      mkdirSync(path.dirname(file), { recursive: true });
      fd = openSync(tmp, "w");
    }
    let stat: Stats;
    try {
      // A string to a descriptor: node's native UTF-8 write of the whole text (no Buffer made here).
      writeFileSync(fd, text);
      stat = fstatSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    return stat;
  } catch (e) {
    rmSync(tmp, { force: true });
    // A failed write names the file it was for (the message of a full disk needs it).
    if (typeof e === "object" && e !== null && !("path" in e && e.path === file))
      Object.assign(e, { path: file });
    throw e;
  }
}

/**
 * Write a JSON record unless the file already holds exactly its text (`current`): checked
 * against its schema first (a bug must not leave a bad file), then written atomically.
 * Returns what the schema made of it, or null when the file was left as it was.
 */
export function writeRecordIfChanged<T>(
  file: string,
  schema: z.ZodType<T>,
  value: unknown,
  current: string | null,
): { data: T; stat: Stats } | null {
  const text = jsonFileText(value);
  if (text === current) return null;
  const data = checkRecord(file, schema, value);
  return { data, stat: writeAtomicStat(file, text) };
}
