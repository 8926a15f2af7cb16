import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { listFiles, sha256 } from "../util/hash.js";
import { COPY_SKIP } from "./compile.js";
import { MANIFEST_CANDIDATES } from "./load.js";

/**
 * The bounded snapshot of a Skill that `eval --generate` shows the task generator
 * (docs/manifest.md, "Generated tasks"): SKILL.md, the files SKILL.md names, and whatever is
 * under scripts/, references/, examples/ and templates/, in that order (each group sorted), at
 * most SNAPSHOT_MAX_FILES files and SNAPSHOT_MAX_BYTES bytes. What is left out is listed with
 * the reason, so the truncation is part of the record and of the cache key.
 */

export const SNAPSHOT_MAX_FILES = 128;
export const SNAPSHOT_MAX_BYTES = 512 * 1024;
const SNAPSHOT_DIRS = ["scripts", "references", "examples", "templates"];

interface Candidate {
  path: string;
  size: number;
  binary: boolean;
}

export interface SnapshotFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface SkillSnapshot {
  files: SnapshotFile[];
  omitted: { path: string; reason: string }[];
  bytes: number;
  truncated: boolean;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The files SKILL.md names by their path relative to the Skill (`scripts/x.py`, `./REFERENCE.md`). Pure. */
export function referencedFiles(skillMd: string, files: readonly string[]): string[] {
  return files.filter(
    (f) =>
      f !== "SKILL.md" &&
      new RegExp(`(?:^|[^A-Za-z0-9_./-])(?:\\./)?${escapeRegex(f)}(?![A-Za-z0-9_/-])`).test(
        skillMd,
      ),
  );
}

/** The candidates in snapshot order: SKILL.md, referenced files, then the four folders. Pure. */
export function snapshotOrder(skillMd: string, files: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    out.push(f);
  };
  if (files.includes("SKILL.md")) add("SKILL.md");
  for (const f of [...referencedFiles(skillMd, files)].sort()) add(f);
  for (const d of SNAPSHOT_DIRS)
    for (const f of [...files].sort()) if (f.startsWith(`${d}/`)) add(f);
  return out;
}

/** Apply the limits to ordered candidates: which are in, which are out and why. Pure. */
export function applyLimits(
  candidates: readonly Candidate[],
  limits = { files: SNAPSHOT_MAX_FILES, bytes: SNAPSHOT_MAX_BYTES },
): { included: Candidate[]; omitted: { path: string; reason: string }[] } {
  const included: Candidate[] = [];
  const omitted: { path: string; reason: string }[] = [];
  let bytes = 0;
  for (const c of candidates) {
    if (c.binary) omitted.push({ path: c.path, reason: "binary file" });
    else if (included.length >= limits.files)
      omitted.push({ path: c.path, reason: `over the ${limits.files}-file limit` });
    else if (bytes + c.size > limits.bytes)
      omitted.push({
        path: c.path,
        reason: `over the ${Math.round(limits.bytes / 1024)} KiB limit (${c.size} bytes)`,
      });
    else {
      included.push(c);
      bytes += c.size;
    }
  }
  return { included, omitted };
}

async function looksBinary(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } finally {
    await fh.close();
  }
}

/** Read the snapshot of `skillDir`: the chosen files' contents by relative path, and the record. */
export async function readSkillSnapshot(
  skillDir: string,
): Promise<{ snapshot: SkillSnapshot; contents: Map<string, Buffer> }> {
  const all = await listFiles(
    skillDir,
    (rel) => COPY_SKIP.has(path.posix.basename(rel)) || MANIFEST_CANDIDATES.includes(rel),
  );
  const skillMd = await readFile(path.join(skillDir, "SKILL.md"), "utf8").catch(() => "");
  const candidates: Candidate[] = [];
  for (const rel of snapshotOrder(skillMd, all)) {
    const abs = path.join(skillDir, rel);
    candidates.push({ path: rel, size: (await stat(abs)).size, binary: await looksBinary(abs) });
  }
  const { included, omitted } = applyLimits(candidates);
  const contents = new Map<string, Buffer>();
  const files: SnapshotFile[] = [];
  for (const c of included) {
    const buf = await readFile(path.join(skillDir, c.path));
    contents.set(c.path, buf);
    files.push({ path: c.path, bytes: buf.length, sha256: sha256(buf) });
  }
  return {
    snapshot: {
      files,
      omitted,
      bytes: files.reduce((s, f) => s + f.bytes, 0),
      truncated: omitted.some((o) => o.reason !== "binary file"),
    },
    contents,
  };
}
