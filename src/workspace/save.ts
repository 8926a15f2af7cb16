import { mkdir, open, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isDiskFull } from "../core/errors.js";
import { listFiles } from "../util/hash.js";

/** Skipped at any depth. */
const SKIP_DIRS = new Set([".claude", ".git", "node_modules", "__pycache__", ".venv", "venv"]);
/** Skipped at the top only: the validators and data skillbench copied in. */
const SKIP_TOP = new Set(["validation", "data"]);
const SKIP_FILES = new Set(["_test_context.json", "_test_results.json"]);
const MAX_BYTES = 1_000_000;

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

/**
 * Copy the text files the agent left into the results folder, redacted. Skips
 * .claude/, .git/, node_modules/, the validators, binary files and files over 1 MB.
 */
export async function saveWorkspace(
  workspace: string,
  dest: string,
  redact: (s: string) => string,
): Promise<{ saved: string[]; skipped: string[] }> {
  const saved: string[] = [];
  const skipped: string[] = [];
  const files = await listFiles(
    workspace,
    (rel) => SKIP_DIRS.has(rel.split("/").pop() ?? "") || (SKIP_TOP.has(rel) && !rel.includes("/")),
  );
  for (const rel of files) {
    if (!isSavedPath(rel)) continue;
    const src = path.join(workspace, rel);
    try {
      if ((await stat(src)).size > MAX_BYTES || !(await isText(src))) {
        skipped.push(rel);
        continue;
      }
      const buf = await readFile(src);
      if (buf.length > MAX_BYTES) {
        skipped.push(rel);
        continue;
      }
      const out = path.join(dest, rel);
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, redact(buf.toString("utf8")));
      saved.push(rel);
    } catch (e) {
      // A full disk stops the run (the caller says so); any other problem skips the file.
      if (isDiskFull(e)) throw Object.assign(e as Error, { path: path.join(dest, rel) });
      skipped.push(rel);
    }
  }
  return { saved, skipped };
}
