import { createWriteStream, type WriteStream } from "node:fs";
import { LineSplitter } from "./lines.js";
import { redactJsonLine, type Redactor } from "./redact.js";

/**
 * Appends a process's output to a file as it arrives: each complete line is
 * redacted and written at once, so nothing waits for the process to end and a
 * crash loses at most a partial line, which `close()` still writes verbatim.
 * One writer can serve several turns: a turn that ended without a newline is
 * separated from the next by one.
 */
export class RedactingLineWriter {
  private readonly out: WriteStream;
  /** Arrival time of each line (epoch ms, one per line), when asked for. */
  private readonly times: WriteStream | null;
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
    this.out = createWriteStream(file, { flags: "a" });
    this.out.on("error", (e) => {
      // Kept (with the file named) for the caller: a full disk must not pass silently.
      this.error ??= Object.assign(e, { path: file });
    });
    this.times = opts.timesFile ? createWriteStream(opts.timesFile, { flags: "a" }) : null;
    this.times?.on("error", () => undefined);
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
    this.out.write(text);
    this.times?.write(`${Date.now()}\n`);
    this.onLine?.(red);
  }

  async close(): Promise<void> {
    this.endTurn();
    await new Promise<void>((resolve) => this.out.end(() => resolve()));
    const times = this.times;
    if (times) await new Promise<void>((resolve) => times.end(() => resolve()));
  }
}
