import { existsSync } from "node:fs";
import { globSync } from "tinyglobby";
import { resolveInside } from "../util/fs.js";

/**
 * A file-existence check over a folder, refusing paths that leave it: how results folders written
 * before workspace manifests are scored (their saved copy is all that is left of the workspace).
 */
export function workspaceFileExists(ws: string): (p: string) => boolean {
  return (p: string): boolean => {
    if (/[*?[]/.test(p)) {
      if (resolveInside(ws, p.replace(/[*?[\]]/g, "x")) === null) return false;
      return globSync(p, { cwd: ws, dot: true, onlyFiles: false }).length > 0;
    }
    const abs = resolveInside(ws, p);
    return abs !== null && existsSync(abs);
  };
}
