import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { unsafePathReason } from "../suite/artifacts.js";
import type { Expect, Manifest, TaskEntry } from "./schema.js";

/**
 * The path fields of an eval manifest, checked before anything is copied: a manifest must not
 * pull a host folder into the runs (`workspace: /root/.ssh`, `source: ../../..`, or a symlink
 * in the Skill leading out of it). Every folder a manifest names is a relative path that,
 * with its symlinks resolved, stays inside the Skill folder (the folder holding the manifest,
 * or the one above `comet/`). Baselines are the one exception (docs/manifest.md): an earlier
 * version of the Skill usually sits beside it, so a baseline may lead outside, but it must be
 * a relative path to a folder holding a SKILL.md. Paths inside the run's workspace (`expect`
 * targets, inline workspace file names) must be relative and stay inside it.
 */

export interface PathProblem {
  /** The field, as a normalized (camelCase) path, for its line. */
  at: PropertyKey[];
  message: string;
}

function inside(p: string, root: string): boolean {
  const r = path.relative(root, p);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}

/** Absolute and home paths are refused; `..` is allowed here (checked after resolving). */
function notRelative(p: string): string | null {
  if (p.includes("\0")) return "contains a NUL byte";
  const s = p.replace(/\\/g, "/");
  if (s.startsWith("/") || /^[A-Za-z]:/.test(s))
    return `must be a path relative to the manifest's folder, got absolute path ${JSON.stringify(p)}`;
  if (s === "~" || s.startsWith("~/"))
    return `must be a path relative to the manifest's folder, got home path ${JSON.stringify(p)}`;
  return null;
}

async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * A folder a manifest names: `rel` resolved against `base`, which must exist and, with symlinks
 * resolved, lie inside `realRoot` (the Skill folder's real path). Null when it does.
 */
async function folderProblem(
  rel: string,
  base: string,
  realRoot: string,
  root: string,
  what: string,
): Promise<string | null> {
  const why = notRelative(rel);
  if (why) return why;
  const abs = path.resolve(base, rel);
  if (!(await isDir(abs))) return `no ${what} ${abs}`;
  const real = await realpath(abs);
  if (!inside(real, realRoot))
    return `${JSON.stringify(rel)} leads outside the Skill folder ${root} (to ${real}); a manifest may only name folders inside its Skill`;
  return null;
}

/** Paths inside the run's workspace: inline workspace file names and `expect` targets. */
function workspacePathProblems(
  tasks: readonly { index: number; task: TaskEntry }[],
): PathProblem[] {
  const out: PathProblem[] = [];
  for (const { index, task } of tasks) {
    if ("source" in task) continue;
    const at: PropertyKey[] = ["evaluation", "tasks", index];
    if (typeof task.workspace === "object")
      for (const rel of Object.keys(task.workspace)) {
        const why = unsafePathReason(rel);
        if (why) out.push({ at: [...at, "workspace", rel], message: why });
      }
    out.push(...expectProblems(task.expect, [...at, "expect"]));
  }
  return out;
}

/**
 * Why a file a manifest names (`rel`, against `base`) is not a relative path inside the Skill
 * folder `root` once symlinks are resolved; null when it is (or does not exist: its reader says so).
 */
export async function outsideSkill(
  rel: string,
  base: string,
  root: string,
): Promise<string | null> {
  const why = notRelative(rel);
  if (why) return why;
  const real = await realpath(path.resolve(base, rel)).catch(() => null);
  if (real === null) return null;
  const realRoot = await realpath(root).catch(() => path.resolve(root));
  return inside(real, realRoot)
    ? null
    : `${JSON.stringify(rel)} leads outside the Skill folder ${root} (to ${real}); a manifest may only name files inside its Skill`;
}

function expectProblems(e: Expect, at: PropertyKey[]): PathProblem[] {
  const out: PathProblem[] = [];
  const check = (p: string, where: PropertyKey[]): void => {
    const why = unsafePathReason(p);
    if (why) out.push({ at: [...at, ...where], message: why });
  };
  (e.files ?? []).forEach((p, i) => check(p, ["files", i]));
  (e.absent ?? []).forEach((p, i) => check(p, ["absent", i]));
  for (const k of Object.keys(e.contains ?? {})) check(k, ["contains", k]);
  for (const k of Object.keys(e.notContains ?? {})) check(k, ["notContains", k]);
  (e.json ?? []).forEach((j, i) => check(j.file, ["json", i, "file"]));
  return out;
}

/**
 * Every path problem of a parsed manifest. `owner` is the Skill folder the manifest belongs to;
 * `generated`: a frozen set of generated tasks (no folders at all: the generator's rules).
 */
export async function manifestPathProblems(i: {
  file: string;
  owner: string;
  skillDir: string;
  manifest: Manifest;
  tasks: readonly { index: number; task: TaskEntry }[];
}): Promise<PathProblem[]> {
  const out: PathProblem[] = [];
  const manifestDir = path.dirname(i.file);
  const realOwner = await realpath(i.owner).catch(() => path.resolve(i.owner));
  const source = i.manifest.skill.source;
  if (source !== undefined) {
    const why = await folderProblem(source, manifestDir, realOwner, i.owner, "Skill folder");
    if (why) out.push({ at: ["skill", "source"], message: why });
  }
  for (const { index, task } of i.tasks) {
    const at: PropertyKey[] = ["evaluation", "tasks", index];
    if ("source" in task) {
      const why = await folderProblem(task.source, i.skillDir, realOwner, i.owner, "task folder");
      if (why) out.push({ at: [...at, "source"], message: why });
      continue;
    }
    if (typeof task.workspace === "string") {
      const why = await folderProblem(
        task.workspace,
        manifestDir,
        realOwner,
        i.owner,
        "workspace folder",
      );
      if (why) out.push({ at: [...at, "workspace"], message: why });
    }
  }
  out.push(...workspacePathProblems(i.tasks));
  for (const [n, b] of (i.manifest.evaluation?.baselineTreatments ?? []).entries()) {
    const rel = typeof b === "string" ? (b.startsWith("git:") ? null : b) : (b.path ?? null);
    if (rel === null) continue;
    const at = ["evaluation", "baselineTreatments", n, ...(typeof b === "string" ? [] : ["path"])];
    const why = notRelative(rel);
    if (why) {
      out.push({ at, message: why });
      continue;
    }
    const abs = path.resolve(manifestDir, rel);
    if (!(await isDir(abs)))
      out.push({
        at,
        message: `no folder ${abs} (a baseline is an earlier version of the Skill: a folder, or git:REF)`,
      });
    else if (!(await stat(path.join(abs, "SKILL.md")).catch(() => null)))
      out.push({
        at,
        message: `${abs} has no SKILL.md (a baseline is an earlier version of the Skill)`,
      });
  }
  return out;
}

/**
 * The generator's rules, re-checked whenever a frozen set of generated tasks is reused (a file
 * edited by hand must not do what the generator's answer may not): inline tasks only, 2 to 4 of
 * them, each workspace given inline, and no folder anywhere (no `skill.source`, no baselines).
 */
export function generatedRuleProblems(
  manifest: Manifest,
  tasks: readonly { index: number; task: TaskEntry }[],
  count: number,
): PathProblem[] {
  const out: PathProblem[] = [];
  if (count < 2 || count > 4)
    out.push({
      at: ["evaluation", "tasks"],
      message: `a frozen set of generated tasks holds 2 to 4 tasks, got ${count}`,
    });
  if (manifest.skill.source !== undefined)
    out.push({
      at: ["skill", "source"],
      message: "a frozen set of generated tasks names no Skill folder",
    });
  if ((manifest.evaluation?.baselineTreatments ?? []).length > 0)
    out.push({
      at: ["evaluation", "baselineTreatments"],
      message: "a frozen set of generated tasks holds tasks only (baselines belong in eval.yaml)",
    });
  const gen = manifest.metadata.generationFile;
  if (gen !== undefined && (gen.includes("/") || gen.includes("\\") || gen.startsWith(".")))
    out.push({
      at: ["metadata", "generationFile"],
      message: `must be the record's file name beside the set, got ${JSON.stringify(gen)}`,
    });
  for (const { index, task } of tasks) {
    const at: PropertyKey[] = ["evaluation", "tasks", index];
    if ("source" in task)
      out.push({
        at: [...at, "source"],
        message: "a generated task is written inline (no task folders)",
      });
    else if (typeof task.workspace === "string")
      out.push({
        at: [...at, "workspace"],
        message: "a generated task gives its workspace files inline (path: text), not a folder",
      });
  }
  out.push(...workspacePathProblems(tasks));
  return out;
}
