/** Split a stream of text chunks into lines, holding only the unfinished line. Pure. */
export class LineSplitter {
  private pieces: string[] = [];

  constructor(private readonly onLine: (line: string) => void) {}

  /** Feed a chunk; calls onLine for every line it completes (without the `\n`). */
  push(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf("\n");
    while (nl !== -1) {
      const part = chunk.slice(start, nl);
      if (this.pieces.length > 0) {
        this.pieces.push(part);
        const line = this.pieces.join("");
        this.pieces = [];
        this.onLine(line);
      } else {
        this.onLine(part);
      }
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) this.pieces.push(start === 0 ? chunk : chunk.slice(start));
  }

  /**
   * End of input: emits the unfinished last line, if any. Returns true when there
   * was one (the input did not end with a newline).
   */
  end(): boolean {
    if (this.pieces.length === 0) return false;
    const line = this.pieces.join("");
    this.pieces = [];
    this.onLine(line);
    return true;
  }
}
