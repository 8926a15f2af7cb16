/**
 * Splits a byte stream into complete lines. A line is emitted only once its
 * newline has arrived, so a JSON line is never cut in two; `flush()` returns
 * whatever trailing text had no newline (a truncated last line).
 */
export class LineSplitter {
  private buf = "";
  private readonly decoder = new TextDecoder("utf-8");

  push(chunk: Uint8Array | string, onLine: (line: string) => void): void {
    this.buf += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let nl = this.buf.indexOf("\n");
    while (nl !== -1) {
      onLine(this.buf.slice(0, nl));
      this.buf = this.buf.slice(nl + 1);
      nl = this.buf.indexOf("\n");
    }
  }

  flush(): string {
    const rest = this.buf + this.decoder.decode();
    this.buf = "";
    return rest;
  }
}
