import { JsonStringCapper, LONG_LINE_CHARS } from "./json-cap.js";

/**
 * Splits a byte stream into complete lines. A line is emitted only once its
 * newline has arrived, so a JSON line is never cut in two; `flush()` returns
 * whatever trailing text had no newline (a truncated last line).
 *
 * Memory: an unfinished line is held as the list of its pieces and joined once, when its
 * newline arrives; only each new chunk is searched for a newline. A line that grows past
 * LONG_LINE_CHARS is not held at all: it streams through a JsonStringCapper
 * (src/util/json-cap.ts) and comes out with its long strings cut, marked as such.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private pending = 0;
  private capper: JsonStringCapper | null = null;
  private readonly decoder = new TextDecoder("utf-8");
  /** Lines whose strings were cut (see json-cap.ts). */
  cappedLines = 0;

  /** `secrets`: values a cut must not leave a beginning of (the redactor's forms). */
  constructor(private readonly secrets: readonly string[] = []) {}

  push(chunk: Uint8Array | string, onLine: (line: string) => void): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      this.add(text.slice(start, nl));
      onLine(this.take());
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    if (start < text.length) this.add(start === 0 ? text : text.slice(start));
  }

  flush(): string {
    const tail = this.decoder.decode();
    if (tail.length > 0) this.add(tail);
    return this.pending === 0 && this.capper === null ? "" : this.take();
  }

  private add(part: string): void {
    if (this.capper) {
      this.capper.push(part);
      return;
    }
    this.pieces.push(part);
    this.pending += part.length;
    if (this.pending > LONG_LINE_CHARS) {
      this.capper = new JsonStringCapper(this.secrets);
      for (const p of this.pieces) this.capper.push(p);
      this.pieces = [];
      this.pending = 0;
    }
  }

  private take(): string {
    if (this.capper) {
      const line = this.capper.end();
      if (this.capper.truncatedStrings > 0) this.cappedLines += 1;
      this.capper = null;
      return line;
    }
    const line = this.pieces.length === 1 ? (this.pieces[0] ?? "") : this.pieces.join("");
    this.pieces = [];
    this.pending = 0;
    return line;
  }
}
