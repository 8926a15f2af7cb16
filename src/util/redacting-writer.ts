import { closeSync, openSync, writeSync } from "node:fs";
import { LineSplitter } from "./lines.js";
import { redactJsonLine, type Redactor } from "./redact.js";

/**
 * Appends a process's output to a file as it arrives: each complete line is
 * redacted and written at once, so nothing waits for the process to end and a
 * crash loses at most a partial line, which `close()` still writes verbatim.
 * One writer can serve several turns: a turn that ended without a newline is
 * separated from the next by one.
 *
 * A line is appended with one write(2) on a descriptor held open (not a write stream): an agent
 * prints a handful of lines per turn, and a stream's round trip through the thread pool for each
 * cost more CPU than the write itself (bench/run-overhead.mjs measures the harness's CPU per run).
 * A failed write (a full disk, a missing folder) is kept for `failure` and ends the writing.
 */
export class RedactingLineWriter {
  private fd: number | null;
  /** Arrival time of each line (epoch ms, one per line), when asked for; best effort. */
  private timesFd: number | null;
  private closed = false;
  private splitter: LineSplitter;
  private pendingNewline = false;
  /** The redactor's secret forms: a cut long line never ends with the start of one. */
  private readonly secrets: readonly string[];
  private bytes = 0;
  private error: Error | null = null;

  /** Sees every redacted line (complete or trailing) as it is written. */
  onLine: ((line: string) => void) | null = null;

  constructor(
    /** The file the lines go to. */
    readonly file: string,
    private readonly redact: (s: string) => string,
    opts: { timesFile?: string | undefined } = {},
  ) {
    this.secrets = (redact as Partial<Redactor>).secrets ?? [];
    this.splitter = new LineSplitter(this.secrets);
    this.fd = this.open(file, true);
    this.timesFd = opts.timesFile ? this.open(opts.timesFile, false) : null;
  }

  private open(file: string, keepError: boolean): number | null {
    try {
      return openSync(file, "a");
    } catch (e) {
      if (keepError) this.fail(e, file);
      return null;
    }
  }

  /** Kept (with the file named) for the caller: a full disk must not pass silently. */
  private fail(e: unknown, file: string): void {
    const err = e instanceof Error ? e : new Error(String(e));
    this.error ??= Object.assign(err, { path: file });
  }

  /** The first write error (e.g. ENOSPC), or null. */
  get failure(): Error | null {
    return this.error;
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  write(chunk: Uint8Array | string): void {
    this.splitter.push(chunk, (line) => this.emit(line, true));
  }

  /** End of one turn's output: write any trailing partial line without inventing a newline. */
  endTurn(): string {
    const rest = this.splitter.flush();
    if (rest.length > 0) {
      this.emit(rest, false);
      this.pendingNewline = true;
    }
    this.splitter = new LineSplitter(this.secrets);
    return rest;
  }

  private emit(line: string, newline: boolean): void {
    const red = redactJsonLine(line, this.redact);
    const text = (this.pendingNewline ? "\n" : "") + red + (newline ? "\n" : "");
    this.pendingNewline = false;
    this.bytes += Buffer.byteLength(text);
    if (this.closed) this.fail(new Error("write after end"), this.file);
    else if (this.fd !== null) {
      try {
        appendAll(this.fd, text);
      } catch (e) {
        this.fail(e, this.file);
        this.closeFd(this.fd);
        this.fd = null;
      }
    }
    if (this.timesFd !== null) {
      try {
        appendAll(this.timesFd, `${Date.now()}\n`);
      } catch {
        this.closeFd(this.timesFd);
        this.timesFd = null;
      }
    }
    this.onLine?.(red);
  }

  private closeFd(fd: number): void {
    try {
      closeSync(fd);
    } catch {
      /* already gone */
    }
  }

  /** Writes any trailing partial line, then closes the files; a second call does nothing. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.endTurn();
    this.closed = true;
    for (const fd of [this.fd, this.timesFd]) if (fd !== null) this.closeFd(fd);
    this.fd = null;
    this.timesFd = null;
    return Promise.resolve();
  }
}

/** write(2) until all of `text` is written (a regular file takes it in one call). */
function appendAll(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
