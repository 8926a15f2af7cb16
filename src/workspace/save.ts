import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../util/hash.js';

const SKIP_DIRS = new Set(['.claude', '.git', 'node_modules', 'validation', 'data', '__pycache__', '.venv', 'venv']);
const SKIP_FILES = new Set(['_test_context.json', '_test_results.json']);
const MAX_BYTES = 1_000_000;

export function isSavedPath(rel: string): boolean {
  const parts = rel.split('/');
  if (parts.slice(0, -1).some((p) => SKIP_DIRS.has(p))) return false;
  if (SKIP_DIRS.has(parts[0] ?? '')) return false;
  return !SKIP_FILES.has(parts[parts.length - 1] ?? '');
}

async function isText(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
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
  const files = await listFiles(workspace, (rel) => {
    const top = rel.split('/')[0] ?? '';
    return SKIP_DIRS.has(rel.split('/').pop() ?? '') || (rel === top && SKIP_DIRS.has(top));
  });
  for (const rel of files) {
    if (!isSavedPath(rel)) continue;
    const src = path.join(workspace, rel);
    try {
      const buf = await readFile(src);
      if (buf.length > MAX_BYTES || !(await isText(src))) {
        skipped.push(rel);
        continue;
      }
      const out = path.join(dest, rel);
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, redact(buf.toString('utf8')));
      saved.push(rel);
    } catch {
      skipped.push(rel);
    }
  }
  return { saved, skipped };
}
