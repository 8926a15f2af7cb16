import { open } from "node:fs/promises";

/** The last `bytes` of a file as text ('' when it cannot be read). */
export async function tailOf(file: string, bytes = 64 * 1024): Promise<string> {
  try {
    const fh = await open(file, "r");
    try {
      const { size } = await fh.stat();
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      await fh.read(buf, 0, buf.length, start);
      return buf.toString("utf8");
    } finally {
      await fh.close();
    }
  } catch {
    return "";
  }
}
