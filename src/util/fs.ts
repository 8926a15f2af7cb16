import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Write a file atomically: a temporary file beside it, then rename. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    // A failed write names the file it was for (the message of a full disk needs it).
    if (typeof e === "object" && e !== null && !("path" in e && e.path === file))
      Object.assign(e, { path: file });
    throw e;
  }
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
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
