import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Deterministic JSON (sorted keys) for hashing. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const rec = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(rec)
          .sort()
          .map((k) => [k, rec[k]]),
      );
    }
    return v;
  });
}

/** List regular files under dir (relative, POSIX separators, sorted). */
export async function listFiles(
  dir: string,
  skip: (rel: string) => boolean = () => false,
): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip(r)) continue;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile()) out.push(r);
    }
  }
  await walk("");
  return out.sort();
}

/** `sha256:<hex>` over sorted relative paths and their bytes. */
export async function hashTree(dir: string, skip?: (rel: string) => boolean): Promise<string> {
  const h = createHash("sha256");
  for (const rel of await listFiles(dir, skip)) {
    h.update(rel);
    h.update("\0");
    h.update(await readFile(path.join(dir, rel)));
    h.update("\0");
  }
  return `sha256:${h.digest("hex")}`;
}
