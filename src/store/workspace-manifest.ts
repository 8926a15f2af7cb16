import { InputError } from "../core/errors.js";
import { WorkspaceManifestSchema, type WorkspaceManifest } from "../core/workspace-manifest.js";
import { readFile } from "node:fs/promises";
import { isNotFound, jsonFileText, settled, writeFileAtomicSync } from "../util/fs.js";

/**
 * Write a run's workspace manifest (runs/<id>/workspace-manifest.json), atomically and
 * synchronously, as the run's other records (store/run-files.ts).
 */
export function writeWorkspaceManifest(file: string, manifest: WorkspaceManifest): Promise<void> {
  return settled(() => {
    writeFileAtomicSync(file, jsonFileText(WorkspaceManifestSchema.parse(manifest)));
  });
}

/**
 * A run's workspace manifest; null when the folder has none (written before skillbench kept
 * one: scoring then falls back to the saved copy). A manifest that does not parse is bad input.
 */
export async function readWorkspaceManifest(file: string): Promise<WorkspaceManifest | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if (isNotFound(e)) return null;
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
  return parseWorkspaceManifest(file, text);
}

/** A workspace manifest from its file's text (read by the caller); bad input when it does not parse. */
export function parseWorkspaceManifest(file: string, text: string): WorkspaceManifest {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
  const parsed = WorkspaceManifestSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError(
      `${file}: not a workspace manifest this skillbench can read: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      { file },
    );
  return parsed.data;
}
