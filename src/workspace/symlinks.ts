import { lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";

function inside(p: string, root: string): boolean {
  const r = path.relative(root, p);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}

/**
 * Every symlink under `dir` whose target (resolved) is outside all of `roots`, or dangles; as
 * paths relative to `dir`, sorted. Links are never followed while walking.
 */
async function escapingSymlinks(dir: string, roots: string[]): Promise<string[]> {
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => path.resolve(r))));
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) {
        const real = await realpath(p).catch(() => null);
        if (real === null || !realRoots.some((r) => inside(real, r)))
          out.push(path.relative(dir, p).split(path.sep).join("/"));
      } else if (e.isDirectory()) await walk(p);
    }
  };
  if ((await lstat(dir).catch(() => null))?.isDirectory()) await walk(dir);
  return out.sort();
}

/**
 * Refuse a folder copied into the workspace (a task's environment/, a Skill folder) that holds a
 * symlink leading outside the suite (or outside the Skill folder itself): copying it would hand the
 * agent a door to the host's files. Throws an InputError naming the link.
 */
export async function refuseEscapingSymlinks(
  dir: string,
  roots: string[],
  what: string,
): Promise<void> {
  const bad = await escapingSymlinks(dir, roots);
  if (bad.length === 0) return;
  const first = path.join(dir, bad[0] ?? "");
  throw new InputError(
    `${what}: symlink ${first} points outside the suite${bad.length > 1 ? ` (and ${bad.length - 1} more: ${bad.slice(1, 4).join(", ")})` : ""}: replace it with the file itself, or remove it`,
    { file: first },
  );
}
