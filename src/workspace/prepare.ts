import { existsSync } from "node:fs";
import { cp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { listFiles } from "../util/hash.js";
import type { RunDirs } from "../util/run-dirs.js";
import type { AgentHooks } from "../core/hooks.js";

// Moved to util/ (agents called outside a run make them too: agents/call.ts); kept importable here.
export { createRunDirs, removeRunDirs, type RunDirs } from "../util/run-dirs.js";

/**
 * `--keep-workspaces`: the run's temporary tree, kept for debugging, renamed `<name>-kept` so
 * that its name no longer matches a temporary folder's (tempOwner) and no later run or `doctor
 * --fix` removes it as a dead process's leftover. Returns the kept workspace's path.
 */
export async function keepRunDirs(dirs: RunDirs): Promise<string> {
  const kept = `${dirs.root}-kept`;
  await rename(dirs.root, kept);
  return path.join(kept, path.relative(dirs.root, dirs.workspace));
}

export interface SkillToInstall {
  name: string;
  path: string | null;
  content: string | null;
}

/**
 * Lay out the workspace before the agent starts: the task's environment/ (the
 * Dockerfile too), the treatment's skills under the agent's skills folder
 * (.claude/skills/<name>/ for Claude Code), and its claude_md as the agent's memory file. Returns the files present before the agent ran.
 */
export async function prepareWorkspace(opts: {
  workspace: string;
  environmentDir: string | null;
  skills: SkillToInstall[];
  claudeMd: string | null;
  /** Where the agent looks for Skills (its driver's `skillsDir`); default `.claude/skills`. */
  skillsDir?: string;
  /** The agent's memory file (its driver's `memoryFile`); default `CLAUDE.md`. */
  memoryFile?: string;
  /** Writes hooks into the agent's project settings (its driver's `installHooks`); absent: the agent has no hooks. */
  installHooks?: ((workspace: string, hooks: AgentHooks[]) => Promise<void>) | undefined;
  /** The treatment's own hooks. */
  hooks?: AgentHooks | undefined;
  /**
   * The hooks the installed Skills ask for (the registry's `skillHooks`), given a test of what
   * the workspace holds and the Skills folder; installed after the treatment's own.
   */
  skillHooks?: (installed: (rel: string) => boolean, skillsDir: string) => AgentHooks[];
}): Promise<Set<string>> {
  const ws = opts.workspace;
  if (opts.environmentDir) await cp(opts.environmentDir, ws, { recursive: true });
  for (const s of opts.skills) {
    const dest = path.join(ws, opts.skillsDir ?? path.join(".claude", "skills"), s.name);
    await mkdir(dest, { recursive: true });
    if (s.path) await cp(s.path, dest, { recursive: true });
    if (s.content !== null) await writeFile(path.join(dest, "SKILL.md"), s.content);
  }
  if (opts.claudeMd !== null)
    await writeFile(path.join(ws, opts.memoryFile ?? "CLAUDE.md"), opts.claudeMd);
  if (opts.installHooks) {
    const installed = (rel: string): boolean => existsSync(path.join(ws, rel));
    const asked = opts.skillHooks?.(installed, opts.skillsDir ?? path.join(".claude", "skills"));
    const hooks = [...(opts.hooks ? [opts.hooks] : []), ...(asked ?? [])];
    await opts.installHooks(ws, hooks);
  }
  return new Set(await listFiles(ws));
}

/** After the agent: the validators and data arrive only now, so the agent never saw them. */
export async function installValidation(opts: {
  workspace: string;
  validationDir: string | null;
  dataDir: string | null;
}): Promise<void> {
  // Whatever the agent left under these names goes first: it must not be able to plant
  // a module that a validator would import.
  for (const [dir, name] of [
    [opts.validationDir, "validation"],
    [opts.dataDir, "data"],
  ] as const) {
    if (!dir) continue;
    const dest = path.join(opts.workspace, name);
    await rm(dest, { recursive: true, force: true });
    await cp(dir, dest, { recursive: true });
  }
}
