import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { glob } from "tinyglobby";
import { resolveInside } from "../util/fs.js";
import type { ArtifactCheck } from "./types.js";

/** A target containing any of `*`, `?`, `[` is a glob (docs/tasks.md, Validation step 1). */
function isGlobPattern(target: string): boolean {
  return /[*?[]/.test(target);
}

function isAbsoluteLike(p: string): boolean {
  return path.isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\");
}

/** A `..` segment anywhere, including inside a brace alternative (`{..,a}`). */
function hasParentSegment(p: string): boolean {
  return /(^|[\\/{,])\.\.($|[\\/},])/.test(p);
}

function isInside(root: string, abs: string): boolean {
  const r = path.relative(root, abs);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}

/** Real path of `abs` when it exists and stays inside `realRoot` (symlinks resolved); else null. */
async function realInside(realRoot: string, abs: string): Promise<string | null> {
  try {
    const real = await realpath(abs);
    return isInside(realRoot, real) ? real : null;
  } catch {
    return null;
  }
}

function toPosix(rel: string): string {
  return rel.split(path.sep).join("/");
}

async function checkOne(
  workspace: string,
  realRoot: string,
  target: string,
): Promise<ArtifactCheck> {
  if (target.trim() === "")
    return { path: target, found: false, matches: [], problem: "empty path" };
  if (isAbsoluteLike(target)) {
    return { path: target, found: false, matches: [], problem: "absolute paths are refused" };
  }
  if (isGlobPattern(target)) {
    if (hasParentSegment(target)) {
      return {
        path: target,
        found: false,
        matches: [],
        problem: "glob escapes the workspace (..)",
      };
    }
    const hits = await glob(target, {
      cwd: workspace,
      dot: true,
      onlyFiles: false,
      followSymbolicLinks: false,
      expandDirectories: false,
    });
    const matches: string[] = [];
    for (const hit of hits) {
      const rel = hit.replace(/\/+$/, "");
      if (rel === "" || rel === ".") continue;
      const abs = resolveInside(workspace, rel);
      if (abs === null) continue;
      if ((await realInside(realRoot, abs)) === null) continue;
      matches.push(toPosix(path.relative(workspace, abs)));
    }
    matches.sort();
    return { path: target, found: matches.length > 0, matches };
  }
  const abs = resolveInside(workspace, target);
  if (abs === null) {
    return { path: target, found: false, matches: [], problem: "path escapes the workspace" };
  }
  try {
    await lstat(abs);
  } catch {
    return { path: target, found: false, matches: [] };
  }
  if ((await realInside(realRoot, abs)) === null) {
    return {
      path: target,
      found: false,
      matches: [],
      problem: "symlink leads outside the workspace (or dangles)",
    };
  }
  return { path: target, found: true, matches: [toPosix(path.relative(workspace, abs)) || "."] };
}

/**
 * Existence pre-check of `target_artifacts` (docs/tasks.md, Validation step 1). Plain paths must exist (file or
 * directory); globs (`*?[`) must match at least one entry, dot files included. Paths are
 * confined to the workspace: absolute targets, `..` escapes and symlinks leading outside count
 * as not found, with `problem` saying why. Globs never follow or report symlinks; a plain path
 * may name a symlink whose target stays inside. Never throws for a bad target.
 */
export async function checkArtifacts(
  workspace: string,
  targets: string[],
): Promise<ArtifactCheck[]> {
  const root = path.resolve(workspace);
  const realRoot = await realpath(root);
  const out: ArtifactCheck[] = [];
  for (const t of targets) out.push(await checkOne(root, realRoot, t));
  return out;
}

/** The failed-check message for a target that was not found. */
export function artifactFailure(a: ArtifactCheck): string {
  return a.problem
    ? `Artifact not found: ${a.path} (${a.problem})`
    : `Artifact not found: ${a.path}`;
}
