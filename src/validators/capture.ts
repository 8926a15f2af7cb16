/** Default cap of captured bytes per stream. */
export const OUTPUT_CAP_BYTES = 1024 * 1024;

/**
 * Collects a stream's bytes up to `cap`: the first half and the last half are kept, the
 * middle is dropped and marked, so a JSON result printed last survives a noisy validator.
 */
export class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;
  private readonly half: number;

  constructor(cap: number = OUTPUT_CAP_BYTES) {
    this.half = Math.max(1, Math.floor(cap / 2));
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.headBytes < this.half) {
      const take = Math.min(this.half - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > this.half) {
      const first = this.tail[0];
      if (first === undefined) break;
      const excess = this.tailBytes - this.half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  text(): string {
    if (this.dropped === 0) return Buffer.concat([...this.head, ...this.tail]).toString("utf8");
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    return `${head}\n[skillbench: ${this.dropped} bytes of output dropped]\n${tail}`;
  }
}
