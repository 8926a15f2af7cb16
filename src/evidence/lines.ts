import { LineSplitter as ByteLineSplitter } from "../util/lines.js";

/**
 * Split a stream of text chunks into lines, holding only the unfinished line; a line longer
 * than the long-line limit comes out with its long strings cut (src/util/json-cap.ts). Pure.
 */
export class LineSplitter {
  private readonly inner = new ByteLineSplitter();

  constructor(private readonly onLine: (line: string) => void) {}

  /** Feed a chunk; calls onLine for every line it completes (without the `\n`). */
  push(chunk: string): void {
    this.inner.push(chunk, this.onLine);
  }

  /**
   * End of input: emits the unfinished last line, if any. Returns true when there
   * was one (the input did not end with a newline).
   */
  end(): boolean {
    const rest = this.inner.flush();
    if (rest === "") return false;
    this.onLine(rest);
    return true;
  }
}
