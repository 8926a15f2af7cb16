import type { WorkspaceManifest } from "../core/workspace-manifest.js";
import { makeFsWorkspaceView } from "../scoring/fs-view.js";
import { isGlob, matchGlob, normalizeRel } from "../scoring/glob.js";
import type { WorkspaceView } from "../scoring/types.js";
import { readWorkspaceManifest } from "../store/workspace-manifest.js";
import { workspaceFileExists } from "./workspace-exists.js";

/** What scoring sees of a finished run's workspace: the same for a run and for `rescore`. */
export interface FinishedWorkspace {
  view: WorkspaceView;
  /** Expected-artifact existence (paths and globs; a glob may match a folder). */
  fileExists: (relPathOrGlob: string) => boolean;
  /** Where it comes from: the manifest, or (folders written before it) the saved copy alone. */
  source: "manifest" | "saved-copy";
}

/**
 * A view over the manifest and the saved copy: existence, listing and links from the manifest
 * (everything the workspace held, saved or not), content from the saved copy where the file was
 * saved (text under 1 MB, redacted). A file the manifest lists but the results folder does not
 * keep exists and reads as null (binary or too large), exactly as for a live binary file.
 */
function manifestWorkspaceView(manifest: WorkspaceManifest, savedDir: string): FinishedWorkspace {
  const byPath = new Map(manifest.entries.map((e) => [e.path, e]));
  const listed = manifest.entries
    .filter((e) => e.kind !== "dir")
    .map((e) => e.path)
    .sort();
  const all = manifest.entries.map((e) => e.path);
  const saved = makeFsWorkspaceView(savedDir);
  const existsAny = (p: string): boolean => {
    const rel = normalizeRel(p);
    if (isGlob(rel)) return matchGlob(rel, all).length > 0;
    return byPath.has(rel);
  };
  const view: WorkspaceView = {
    exists(p) {
      const rel = normalizeRel(p);
      if (isGlob(rel)) return matchGlob(rel, listed).length > 0;
      return byPath.has(rel);
    },
    read(p) {
      const e = byPath.get(normalizeRel(p));
      return e?.saved ? saved.read(e.path) : null;
    },
    list: () => [...listed],
    isSymlink: (p) => byPath.get(normalizeRel(p))?.kind === "symlink",
  };
  return { view, fileExists: existsAny, source: "manifest" };
}

/**
 * The finished workspace of a stored run: its manifest when the run kept one, else (results
 * folders written before manifests) the saved copy alone, as `rescore` always read it.
 */
export async function openFinishedWorkspace(paths: {
  manifest: string;
  workspace: string;
}): Promise<FinishedWorkspace> {
  return finishedWorkspaceOf(await readWorkspaceManifest(paths.manifest), paths);
}

/** The same from a manifest already read (null: the run kept none). */
export function finishedWorkspaceOf(
  manifest: WorkspaceManifest | null,
  paths: { workspace: string },
): FinishedWorkspace {
  if (manifest) return manifestWorkspaceView(manifest, paths.workspace);
  return {
    view: makeFsWorkspaceView(paths.workspace),
    fileExists: workspaceFileExists(paths.workspace),
    source: "saved-copy",
  };
}
