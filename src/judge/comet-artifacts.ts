import { readdir } from "node:fs/promises";
import path from "node:path";
import { readInsideText } from "./workspace-dump.js";

/**
 * The change artifacts the comet judge reads (docs/judge.md, Prompts). Unlike the original,
 * both layouts are searched: `openspec/changes/` and `docs/openspec/changes/`.
 */
const CHANGE_ROOTS = ["openspec/changes", "docs/openspec/changes"];
export const NO_CHANGE_DIR_REASON =
  "no change directory (a folder holding proposal.md) under openspec/changes/ or docs/openspec/changes/";

export interface CometArtifacts {
  /** Relative to the workspace, POSIX separators. */
  changeDir: string;
  proposal: string;
  design: string;
  tasks: string;
  report: string;
  spec: string;
}

const MAIN_CHARS = 4000;
const EXTRA_CHARS = 2000;

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

async function hasFile(root: string, rel: string): Promise<boolean> {
  return (await readInsideText(root, rel)).ok;
}

/** The first change folder holding proposal.md; else any archived change; else null. */
async function findChangeDir(root: string): Promise<string | null> {
  for (const base of CHANGE_ROOTS) {
    for (const d of (await subdirs(root, base)).filter((n) => n !== "archive")) {
      if (await hasFile(root, `${base}/${d}/proposal.md`)) return `${base}/${d}`;
    }
    for (const d of await subdirs(root, `${base}/archive`)) {
      if (await hasFile(root, `${base}/archive/${d}/proposal.md`)) return `${base}/archive/${d}`;
    }
  }
  for (const base of CHANGE_ROOTS) {
    const first = (await subdirs(root, `${base}/archive`))[0];
    if (first !== undefined) return `${base}/archive/${first}`;
  }
  return null;
}

async function firstSpec(root: string, rel: string, depth = 0): Promise<string | null> {
  if (depth > 6) return null;
  if (await hasFile(root, `${rel}/spec.md`)) return `${rel}/spec.md`;
  for (const d of await subdirs(root, rel)) {
    const found = await firstSpec(root, `${rel}/${d}`, depth + 1);
    if (found) return found;
  }
  return null;
}

async function readCapped(root: string, rel: string, max: number): Promise<string | null> {
  const r = await readInsideText(root, rel);
  return r.ok ? r.text.slice(0, max) : null;
}

/** Read the artifacts of the change, or null when there is no change folder. */
export async function readCometArtifacts(root: string): Promise<CometArtifacts | null> {
  const changeDir = await findChangeDir(root);
  if (changeDir === null) return null;
  const proposal = await readCapped(root, `${changeDir}/proposal.md`, MAIN_CHARS);
  let design = await readCapped(root, `${changeDir}/design.md`, MAIN_CHARS);
  if (design === null) {
    const spec = (await filesIn(root, "docs/superpowers/specs", ".md"))[0];
    if (spec !== undefined) design = await readCapped(root, spec, MAIN_CHARS);
  }
  const tasks = await readCapped(root, `${changeDir}/tasks.md`, MAIN_CHARS);
  const reportFile = (await filesIn(root, "docs/superpowers/reports", ".md"))[0];
  const report = reportFile !== undefined ? await readCapped(root, reportFile, EXTRA_CHARS) : null;
  const specFile = await firstSpec(root, changeDir);
  const spec = specFile !== null ? await readCapped(root, specFile, EXTRA_CHARS) : null;
  return {
    changeDir,
    proposal: proposal ?? "(missing: proposal.md)",
    design: design ?? "(missing: design.md)",
    tasks: tasks ?? "(missing: tasks.md)",
    report: report ?? "(none)",
    spec: spec ?? "(none)",
  };
}
