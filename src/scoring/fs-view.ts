import { closeSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import path from "node:path";
import { resolveInside } from "../util/fs.js";
import { isGlob, matchGlob, normalizeRel } from "./glob.js";
import type { WorkspaceView } from "./types.js";
import { MAX_READ_BYTES } from "./workspace-view.js";

/**
 * A `WorkspaceView` over a real folder (NOT pure: it reads the disk, synchronously, on demand).
 * The file list is taken once, on first use; call it after the agent and validators finished.
 * Symlinks are listed but never followed into; `read` follows a symlink only when its target
 * stays inside the workspace. Nothing outside `dir` is ever read.
 */
export function makeFsWorkspaceView(dir: string): WorkspaceView {
  const root = path.resolve(dir);
  let realRoot: string | null = null;
  let cache: string[] | null = null;

  function list(): string[] {
    if (cache !== null) return cache;
    const out: string[] = [];
    const walk = (rel: string): void => {
      let entries;
      try {
        entries = readdirSync(path.join(root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(r);
        else if (e.isFile() || e.isSymbolicLink()) out.push(r);
      }
    };
    walk("");
    cache = out.sort();
    return cache;
  }

  function inside(abs: string): boolean {
    try {
      realRoot ??= realpathSync(root);
      const real = realpathSync(abs);
      const r = path.relative(realRoot, real);
      return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
    } catch {
      return false;
    }
  }

  return {
    exists(p) {
      const rel = normalizeRel(p);
      if (isGlob(rel)) return matchGlob(rel, list()).length > 0;
      const abs = resolveInside(root, rel);
      if (abs === null) return false;
      try {
        lstatSync(abs);
        return true;
      } catch {
        return false;
      }
    },
    read(p) {
      const abs = resolveInside(root, normalizeRel(p));
      if (abs === null || !inside(abs)) return null;
      let fd: number | null = null;
      try {
        fd = openSync(abs, "r");
        const buf = Buffer.alloc(MAX_READ_BYTES + 1);
        let n = 0;
        for (;;) {
          const got = readSync(fd, buf, n, buf.length - n, null);
          if (got === 0) break;
          n += got;
          if (n > MAX_READ_BYTES) return null;
        }
        const bytes = buf.subarray(0, n);
        if (bytes.includes(0)) return null;
        return bytes.toString("utf8");
      } catch {
        return null;
      } finally {
        if (fd !== null) closeSync(fd);
      }
    },
    list: () => [...list()],
    isSymlink(p) {
      const abs = resolveInside(root, normalizeRel(p));
      if (abs === null) return false;
      try {
        return lstatSync(abs).isSymbolicLink();
      } catch {
        return false;
      }
    },
  };
}
