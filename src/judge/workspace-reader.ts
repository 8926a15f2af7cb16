import { readdir } from "node:fs/promises";
import path from "node:path";
import type { JudgeWorkspace } from "../scoring/index.js";
import { readInsideText } from "./workspace-dump.js";

/** Real sub-folders (never symlinks) of `rel`, sorted. */
async function subdirs(root: string, rel: string): Promise<string[]> {
  try {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

async function filesIn(root: string, rel: string, ext: string): Promise<string[]> {
  try {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith(ext))
      .map((e) => `${rel}/${e.name}`)
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
    subdirs: (rel) => subdirs(root, rel),
    files: (rel, ext) => filesIn(root, rel, ext),
    readText: async (rel) => {
      const r = await readInsideText(root, rel);
      return r.ok ? r.text : null;
    },
  };
}
