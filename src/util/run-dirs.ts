/** The private temporary tree of one agent process: a run's, and an agent call's (agents/call.ts). */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tempStem } from "./temp-names.js";

export interface RunDirs {
  root: string;
  workspace: string;
  home: string;
  config: string;
  tmp: string;
}

/**
 * A private temporary tree for one run: the workspace and the agent's HOME, config and tmp dirs.
 * With an experiment id its name is `skillbench-<run>-x<experiment>-p<pid>-XXXXXX`, so that a
 * later run removes it if this process dies without doing so (src/sandbox/leftovers.ts).
 */
export async function createRunDirs(
  runId: string,
  base?: string,
  experimentId?: string,
): Promise<RunDirs> {
  const parent = base ?? os.tmpdir();
  await mkdir(parent, { recursive: true });
  // Always named with the owning pid (a trigger probe's, a generator's folder too), so that
  // the sweep of every later run and `doctor --fix` remove it after a kill -9.
  const stem = tempStem(runId, experimentId, process.pid);
  const root = await mkdtemp(path.join(parent, stem));
  const dirs = {
    root,
    workspace: path.join(root, "workspace"),
    home: path.join(root, "home"),
    config: path.join(root, "config"),
    tmp: path.join(root, "tmp"),
  };
  await Promise.all(
    [dirs.workspace, dirs.home, dirs.config, dirs.tmp].map((d) => mkdir(d, { recursive: true })),
  );
  return dirs;
}

export async function removeRunDirs(dirs: RunDirs): Promise<void> {
  await rm(dirs.root, { recursive: true, force: true, maxRetries: 3 });
}
