import { isGlob, matchGlob, normalizeRel } from "./glob.js";
import type { WorkspaceView } from "./types.js";

/** Largest file `read` returns (bytes of UTF-8 text). */
export const MAX_READ_BYTES = 1024 * 1024;

export interface MemoryViewOptions {
  /** Paths (keys of `files`) that are symbolic links. */
  symlinks?: string[];
}

/** A pure in-memory workspace: `files` maps relative POSIX paths to their text. For tests. */
export function makeMemoryWorkspaceView(
  files: Record<string, string>,
  opts: MemoryViewOptions = {},
): WorkspaceView {
  const map = new Map<string, string>();
  for (const [k, v] of Object.entries(files)) map.set(normalizeRel(k), v);
  const list = [...map.keys()].sort();
  const links = new Set((opts.symlinks ?? []).map(normalizeRel));
  return {
    exists(p) {
      const rel = normalizeRel(p);
      if (isGlob(rel)) return matchGlob(rel, list).length > 0;
      return map.has(rel) || list.some((f) => f.startsWith(`${rel}/`));
    },
    read(rel) {
      const text = map.get(normalizeRel(rel));
      if (
        text === undefined ||
        text.includes("\0") ||
        Buffer.byteLength(text, "utf8") > MAX_READ_BYTES
      )
        return null;
      return text;
    },
    list: () => [...list],
    isSymlink: (rel) => links.has(normalizeRel(rel)),
  };
}

/** A view that knows only existence (for callers that pass `fileExists` and no workspace). */
export function existsOnlyView(fileExists: (p: string) => boolean): WorkspaceView {
  return { exists: fileExists, read: () => null, list: () => [], isSymlink: () => false };
}
