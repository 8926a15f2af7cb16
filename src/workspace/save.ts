import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, readlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isDiskFull } from "../core/errors.js";
import {
  MANIFEST_SCHEMA,
  type ManifestEntry,
  type WorkspaceManifest,
} from "../core/workspace-manifest.js";

/** Skipped at any depth. */
const SKIP_DIRS = new Set([".claude", ".git", "node_modules", "__pycache__", ".venv", "venv"]);
/** Skipped at the top only: the validators and data skillbench copied in. */
const SKIP_TOP = new Set(["validation", "data"]);
const SKIP_FILES = new Set(["_test_context.json", "_test_results.json"]);
const MAX_BYTES = 1_000_000;
/** Entries the manifest lists; beyond it only a count is kept (`omitted`). */
const MAX_ENTRIES = 200_000;
/** Files larger than this are listed with their size but not hashed. */
const MAX_HASH_BYTES = 64 * 1024 * 1024;

export function isSavedPath(rel: string): boolean {
  const parts = rel.split("/");
  if (parts.slice(0, -1).some((p) => SKIP_DIRS.has(p))) return false;
  if (parts.length > 1 && SKIP_TOP.has(parts[0] ?? "")) return false;
  return !SKIP_FILES.has(parts[parts.length - 1] ?? "");
}

async function isText(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return !buf.subarray(0, bytesRead).includes(0);
  } finally {
    await fh.close();
  }
}

async function hashFile(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

export interface SavedWorkspace {
  /** Files copied (redacted text). */
  saved: string[];
  /** Files in saved folders that were not copied: binary, over 1 MB, or unreadable. */
  skipped: string[];
  /** Everything the workspace held, copied or not. */
  manifest: WorkspaceManifest;
}

/**
 * Copy the text files the agent left into the results folder, redacted, and list everything the
 * workspace held (the manifest). Copies nothing from .claude/, .git/, node_modules/, the
 * validators, binary files or files over 1 MB; the manifest lists those too, with `saved: false`.
 * Symbolic links are listed, never followed.
 */
export async function saveWorkspace(
  workspace: string,
  dest: string,
  redact: (s: string) => string,
): Promise<SavedWorkspace> {
  const saved: string[] = [];
  const skipped: string[] = [];
  const entries: ManifestEntry[] = [];
  let omitted = 0;

  async function saveFile(rel: string, src: string, size: number): Promise<ManifestEntry> {
    const entry = (e: Partial<ManifestEntry>): ManifestEntry => ({
      path: redact(rel),
      kind: "file",
      size,
      sha256: null,
      saved: false,
      ...e,
    });
    if (!isSavedPath(rel)) {
      const sha = size <= MAX_HASH_BYTES ? await hashFile(src).catch(() => null) : null;
      return entry({ sha256: sha, reason: "not kept (skipped folder or harness file)" });
    }
    try {
      if (size > MAX_BYTES || !(await isText(src))) {
        skipped.push(rel);
        const sha = size <= MAX_HASH_BYTES ? await hashFile(src).catch(() => null) : null;
        return entry({ sha256: sha, reason: size > MAX_BYTES ? "over 1 MB" : "binary" });
      }
      const buf = await readFile(src);
      const sha = createHash("sha256").update(buf).digest("hex");
      if (buf.length > MAX_BYTES) {
        skipped.push(rel);
        return entry({ size: buf.length, sha256: sha, reason: "over 1 MB" });
      }
      const out = path.join(dest, rel);
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, redact(buf.toString("utf8")));
      saved.push(rel);
      return entry({ size: buf.length, sha256: sha, saved: true });
    } catch (e) {
      // A full disk stops the run (the caller says so); any other problem skips the file.
      if (isDiskFull(e)) throw Object.assign(e as Error, { path: path.join(dest, rel) });
      skipped.push(rel);
      return entry({ reason: "unreadable" });
    }
  }

  async function walk(rel: string): Promise<void> {
    const names = (await readdir(path.join(workspace, rel), { withFileTypes: true }))
      .map((d) => d.name)
      .sort();
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(workspace, r);
      const st = await lstat(abs).catch(() => null);
      if (st === null) continue; // gone since the listing
      if (entries.length >= MAX_ENTRIES) {
        omitted++;
        if (st.isDirectory()) await walk(r);
        continue;
      }
      if (st.isDirectory()) {
        entries.push({ path: redact(r), kind: "dir", size: 0, sha256: null, saved: false });
        await walk(r);
      } else if (st.isSymbolicLink()) {
        const target = await readlink(abs).catch(() => "");
        entries.push({
          path: redact(r),
          kind: "symlink",
          size: st.size,
          sha256: null,
          saved: false,
          reason: "symbolic link (never followed)",
          target: redact(target),
        });
      } else if (st.isFile()) entries.push(await saveFile(r, abs, st.size));
      else
        entries.push({
          path: redact(r),
          kind: "file",
          size: st.size,
          sha256: null,
          saved: false,
          reason: "not a regular file",
        });
    }
  }

  await walk("");
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: WorkspaceManifest = {
    schema: MANIFEST_SCHEMA,
    entries,
    omitted,
    limits: { max_entries: MAX_ENTRIES, max_hash_bytes: MAX_HASH_BYTES },
  };
  return { saved, skipped, manifest };
}
