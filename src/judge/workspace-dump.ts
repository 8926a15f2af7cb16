import type { Dirent } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  assembleDump,
  fileChunk,
  MAX_DUMP_CHARS,
  MAX_FILE_BYTES,
  skipReasonForPath,
  type DumpFile,
  type DumpResult,
} from "./dump-text.js";

/**
 * Collects the workspace for the judge (docs/judge.md, workspace dump): a sorted walk that skips
 * dot paths, tool folders, the harness's files, binary files and files over
 * 50,000 bytes. A symlink is followed only when its target stays inside the
 * workspace, and only to a file (symlinked folders are never walked).
 */

interface SkippedFile {
  rel: string;
  reason: string;
}

export interface WorkspaceDump extends DumpResult {
  skipped: SkippedFile[];
}

function isInside(root: string, p: string): boolean {
  const r = path.relative(root, p);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}

/**
 * Read a text file at `rel` inside `root`, refusing anything that resolves
 * outside root (through a symlink or `..`), anything over `maxBytes`, and binary
 * content (a NUL byte). Returns the text or the reason it was not read.
 */
export async function readInsideText(
  root: string,
  rel: string,
  maxBytes = MAX_FILE_BYTES,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    const realRoot = await realpath(root);
    const abs = path.resolve(realRoot, rel);
    if (!isInside(realRoot, abs)) return { ok: false, reason: "outside the workspace" };
    const real = await realpath(abs);
    if (!isInside(realRoot, real)) return { ok: false, reason: "symlink leaves the workspace" };
    const st = await stat(real);
    if (!st.isFile()) return { ok: false, reason: "not a regular file" };
    if (st.size > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
    const fh = await open(real, "r");
    let buf: Buffer;
    try {
      buf = await fh.readFile();
    } finally {
      await fh.close();
    }
    if (buf.length > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
    if (buf.includes(0)) return { ok: false, reason: "binary" };
    return { ok: true, text: buf.toString("utf8") };
  } catch (e) {
    const code = e instanceof Error && "code" in e ? String(e.code) : "error";
    return { ok: false, reason: `unreadable (${code})` };
  }
}

/** Relative paths of the candidate files, sorted; the names skipped and why. */
async function listDumpCandidates(
  root: string,
): Promise<{ files: string[]; skipped: SkippedFile[] }> {
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (e) {
    // The saved copy of a workspace the agent left empty has no folder at all (save.ts makes
    // folders only for the files it saves): nothing to show, not a harness error.
    if (e instanceof Error && "code" in e && e.code === "ENOENT") return { files, skipped };
    throw e;
  }
  async function walk(rel: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(realRoot, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        const why = skipReasonForPath(r, true);
        if (why) skipped.push({ rel: r, reason: why });
        else await walk(r);
        continue;
      }
      const why = skipReasonForPath(r, false);
      if (why) {
        skipped.push({ rel: r, reason: why });
        continue;
      }
      if (e.isSymbolicLink()) {
        const st = await lstat(path.join(realRoot, r));
        if (!st.isSymbolicLink()) continue;
        let target: string;
        try {
          target = await realpath(path.join(realRoot, r));
        } catch {
          skipped.push({ rel: r, reason: "dangling symlink" });
          continue;
        }
        if (!isInside(realRoot, target)) {
          skipped.push({ rel: r, reason: "symlink leaves the workspace" });
          continue;
        }
        const tst = await stat(target);
        if (!tst.isFile()) {
          skipped.push({ rel: r, reason: "symlink to a folder (not followed)" });
          continue;
        }
        files.push(r);
      } else if (e.isFile()) {
        files.push(r);
      }
    }
  }
  await walk("");
  files.sort();
  return { files, skipped };
}

/** The workspace as judge text, within the per-file and total budgets. */
export async function dumpWorkspace(root: string): Promise<WorkspaceDump> {
  const { files, skipped } = await listDumpCandidates(root);
  const read: DumpFile[] = [];
  const unread: string[] = [];
  let chars = 0;
  for (const rel of files) {
    // Once the budget is spent the rest is not even read.
    if (chars > MAX_DUMP_CHARS) {
      unread.push(rel);
      continue;
    }
    const r = await readInsideText(root, rel);
    if (r.ok) {
      read.push({ rel, text: r.text });
      chars += fileChunk(rel, r.text).length;
    } else skipped.push({ rel, reason: r.reason });
  }
  const dump = assembleDump(read);
  return { ...dump, overBudget: [...dump.overBudget, ...unread], skipped };
}
