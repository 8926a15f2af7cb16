import { lstat, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { z } from "zod";
import { resolveInside } from "../util/fs.js";
import { listFiles } from "../util/hash.js";

/**
 * A small deterministic archive for what travels through the queue (a suite bundle, a
 * run's record): gzip of a magic line, a JSON header listing the files, then their bytes.
 * Same files in, same bytes out (sorted paths, no timestamps), so a content hash names it.
 * Unpacking refuses paths that leave the target folder and archives that inflate past a cap.
 */

const MAGIC = Buffer.from("skillbench-archive-1\n");
const gz = promisify(gzip);
const gunz = promisify(gunzip);

const HeaderSchema = z.object({
  meta: z.unknown(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().min(0), mode: z.number() })),
});

export interface ArchiveFile {
  path: string;
  data: Buffer;
  mode: number;
}

/** The uncompressed archive bytes: magic, header length, header, file bytes. */
export function encodeArchive(meta: unknown, files: ArchiveFile[]): Buffer {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const header = Buffer.from(
    JSON.stringify({
      meta,
      files: sorted.map((f) => ({ path: f.path, size: f.data.length, mode: f.mode & 0o777 })),
    }),
  );
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.length);
  return Buffer.concat([MAGIC, len, header, ...sorted.map((f) => f.data)]);
}

export function decodeArchive(raw: Buffer): { meta: unknown; files: ArchiveFile[] } {
  if (raw.length < MAGIC.length + 4 || !raw.subarray(0, MAGIC.length).equals(MAGIC))
    throw new Error("not a skillbench archive");
  const hlen = raw.readUInt32BE(MAGIC.length);
  let at = MAGIC.length + 4;
  const header = HeaderSchema.parse(JSON.parse(raw.subarray(at, at + hlen).toString("utf8")));
  at += hlen;
  const files: ArchiveFile[] = [];
  for (const f of header.files) {
    if (at + f.size > raw.length) throw new Error(`archive truncated at ${f.path}`);
    files.push({ path: f.path, mode: f.mode, data: raw.subarray(at, at + f.size) });
    at += f.size;
  }
  return { meta: header.meta, files };
}

export async function compress(raw: Buffer): Promise<Buffer> {
  return gz(raw, { level: 6 });
}

/** Inflate, refusing more than `maxBytes` of output (a hostile or corrupt archive). */
export async function decompress(data: Buffer, maxBytes: number): Promise<Buffer> {
  return gunz(data, { maxOutputLength: maxBytes });
}

/** Every regular file under `dir` (symbolic links and special files are left out). */
export async function readTree(
  dir: string,
  skip: (rel: string) => boolean = () => false,
): Promise<ArchiveFile[]> {
  const out: ArchiveFile[] = [];
  for (const rel of await listFiles(dir, skip)) {
    const abs = path.join(dir, rel);
    const st = await lstat(abs);
    if (!st.isFile()) continue;
    out.push({ path: rel, data: await readFile(abs), mode: st.mode });
  }
  return out;
}

/** Write the files under `dir`; a path that would leave `dir` is an error. */
export async function writeTree(dir: string, files: ArchiveFile[]): Promise<void> {
  for (const f of files) {
    const abs = resolveInside(dir, f.path);
    if (abs === null) throw new Error(`archive entry leaves its folder: ${f.path}`);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, f.data, { mode: f.mode & 0o777 || 0o644 });
  }
}
