import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { JudgeWorkspace } from "../scoring/index.js";
import { readInsideText } from "./workspace-dump.js";

/** The names of `rel`'s entries that `keep` takes, sorted; none when `rel` cannot be read. */
async function entriesOf(
  root: string,
  rel: string,
  keep: (e: Dirent) => boolean,
): Promise<string[]> {
  try {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    return entries
      .filter(keep)
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The run's workspace as a profile's judge reads it (`ProfileJudge.prompt`): the judge owns the
 * disk, the profile only asks. Text is read as the generic judge's dump reads it
 * (`readInsideText`: inside the workspace, text, the size cap).
 */
export function judgeWorkspace(root: string): JudgeWorkspace {
  return {
    // Real sub-folders only: a Dirent of a symlink is never a directory.
    subdirs: (rel) => entriesOf(root, rel, (e) => e.isDirectory()),
    files: async (rel, ext) =>
      (await entriesOf(root, rel, (e) => e.isFile() && e.name.endsWith(ext))).map(
        (n) => `${rel}/${n}`,
      ),
    readText: async (rel) => {
      const r = await readInsideText(root, rel);
      return r.ok ? r.text : null;
    },
  };
}
