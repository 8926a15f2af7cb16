import { execFile } from "node:child_process";
import {
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { stringify as tomlStringify } from "smol-toml";
import YAML from "yaml";
import { InputError } from "../core/errors.js";
import { CONFIG_FILE } from "../suite/config.js";
import { unsafePathReason } from "../suite/index.js";
import {
  EXPECT_DATA,
  EXPECT_SCRIPT,
  EXPECT_VALIDATOR_SOURCE,
  expectData,
  REGEX_TIMEOUT_SEC,
  regexCount,
} from "./expect-validator.js";
import { judgeConfigYaml } from "./judge-config.js";
import { MANIFEST_CANDIDATES, ownerDir, type LoadedManifest } from "./load.js";
import type { BaselineEntry, InlineTask, ManifestInteraction, TaskEntry } from "./schema.js";
import { git } from "../util/git.js";
import { tempStem } from "../util/temp-names.js";
import type { Steps } from "../trajectory/schema.js";

const run = promisify(execFile);

/**
 * Compiling a manifest into an ordinary suite folder (tasks/, treatments/), so that the
 * one run pipeline runs it: nothing downstream knows a manifest was involved. The Skill
 * and every baseline are frozen as copies inside the compiled suite, so the results
 * folder says exactly what was evaluated and `rescore` finds it again.
 */

export const SKILL_TREATMENT = "WITH_SKILL";
export const DEFAULT_TRIALS = 5;
/** Never copied with a Skill: results, VCS data, dependencies. */
export const COPY_SKIP = new Set([
  ".skillbench",
  ".git",
  "node_modules",
  "__pycache__",
  ".DS_Store",
]);

interface CompiledBaseline {
  name: string;
  /** `path:<abs>` or `git:<ref>` */
  origin: string;
  /** The frozen copy inside the compiled suite. */
  dir: string;
}

export interface CompiledSuite {
  dir: string;
  skillName: string;
  profile: string;
  treatments: string[];
  baselines: CompiledBaseline[];
  tasks: string[];
}

export interface CompileOptions {
  /** Where to write the suite (emptied first). */
  outDir: string;
  /** Tasks to compile instead of the manifest's (generated tasks). */
  tasks?: TaskEntry[];
  /** A Skill over SKILL_WARN_FILES files or SKILL_WARN_BYTES bytes (copied into every run). */
  onWarning?: ((w: { file: string; field?: string; message: string }) => void) | undefined;
}

/**
 * Above these, the Skill folder is copied into every run's workspace without being refused, but
 * with a warning: a Skill is instructions and a few scripts, and a folder this big is usually a
 * mistake (a dataset, a build output) that slows every run and fills the results folder.
 */
const SKILL_WARN_FILES = 1000;
const SKILL_WARN_BYTES = 50 * 1024 * 1024;

interface CopyScan {
  /** Symlinks whose target (resolved) is outside every root, or dangles: absolute paths. */
  escaping: string[];
  files: number;
  bytes: number;
}

function isInside(p: string, root: string): boolean {
  const r = path.relative(root, p);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}

/** What copyTree would copy from `from`: its escaping symlinks, its file count and size. */
async function scanCopy(
  from: string,
  roots: string[],
  skip: ReadonlySet<string> = new Set(),
): Promise<CopyScan> {
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => path.resolve(r))));
  const out: CopyScan = { escaping: [], files: 0, bytes: 0 };
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (COPY_SKIP.has(e.name) || skip.has(path.resolve(p))) continue;
      if (e.isSymbolicLink()) {
        const real = await realpath(p).catch(() => null);
        if (real === null || !realRoots.some((r) => isInside(real, r))) out.escaping.push(p);
      } else if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        out.files++;
        out.bytes += (await lstat(p)).size;
      }
    }
  };
  await walk(from);
  out.escaping.sort();
  return out;
}

/**
 * Refuse a folder about to be copied into the runs that holds a symlink leading outside it (or
 * dangling): the copy would hand the agent the host's files. Names the user's file, not the
 * compiled copy, and the manifest field that brought the folder in.
 */
function refuseEscaping(m: LoadedManifest, scan: CopyScan, field: string, at: PropertyKey[]): void {
  const [first] = scan.escaping;
  if (first === undefined) return;
  const line = m.lineOf?.(at);
  const more =
    scan.escaping.length > 1
      ? ` (and ${scan.escaping.length - 1} more: ${scan.escaping.slice(1, 4).join(", ")})`
      : "";
  throw new InputError(
    `${first}: symlink leads outside ${field === "skill" ? "the Skill folder" : "its folder"} (or dangles)${more}: replace it with the file itself, or remove it (${m.file}: ${field}${line === undefined ? "" : `, line ${line}`})`,
    { file: first, field, ...(line === undefined ? {} : { line }) },
  );
}

/**
 * `skill.keyFiles`, each a file of the Skill as copied for the runs (its folder less the eval's own
 * material): else bad input naming the manifest, the field and its line.
 */
async function checkKeyFiles(m: LoadedManifest, skillCopy: string): Promise<string[]> {
  const out: string[] = [];
  for (const [i, k] of (m.manifest.skill.keyFiles ?? []).entries()) {
    const rel = path.posix.normalize(k.replace(/\\/g, "/"));
    const inside = rel !== ".." && !rel.startsWith("../") && !path.posix.isAbsolute(rel);
    const isFile = inside && (await stat(path.join(skillCopy, rel)).catch(() => null))?.isFile();
    if (isFile !== true) {
      const field = `skill.keyFiles[${i}]`;
      const line = m.lineOf?.(["skill", "keyFiles", i]);
      throw new InputError(
        `${m.file}: ${field}: ${JSON.stringify(k)} is not a file of the Skill ${m.skillDir}${line === undefined ? "" : ` (line ${line})`}`,
        { file: m.file, field, ...(line === undefined ? {} : { line }) },
      );
    }
    out.push(rel);
  }
  return out;
}

/** The Skill's name: the manifest's `skill.name`, else SKILL.md's front matter `name`, else the folder's. */
export async function resolveSkillName(m: LoadedManifest): Promise<string> {
  if (m.manifest.skill.name) return m.manifest.skill.name;
  const text = await readFile(path.join(m.skillDir, "SKILL.md"), "utf8").catch(() => "");
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const n = fm?.[1] ? /^name:\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*$/m.exec(fm[1]) : null;
  return n?.[1] ?? path.basename(m.skillDir).replace(/_/g, "-");
}

/** The Skill's rubric profile: the manifest's `skill.profile`, else `generic`. */
export function profileOf(m: LoadedManifest): string {
  return m.manifest.skill.profile ?? "generic";
}

async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Copy a folder, skipping results, VCS data and dependencies at any depth, and `skip` paths. */
async function copyTree(
  from: string,
  to: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  await cp(from, to, {
    recursive: true,
    // A link inside the folder stays the same relative link in the copy.
    verbatimSymlinks: true,
    filter: (src) => !COPY_SKIP.has(path.basename(src)) && !skip.has(path.resolve(src)),
  });
}

/**
 * What the agent must never see in the installed Skill: the manifest, and the task
 * folders and workspace fixtures it names (their validators would give the answers away).
 */
function evalMaterial(m: LoadedManifest, tasks: TaskEntry[]): Set<string> {
  const out = new Set<string>([m.file]);
  for (const t of tasks) {
    if ("source" in t) out.add(path.resolve(m.skillDir, t.source));
    else if (typeof t.workspace === "string")
      out.add(path.resolve(path.dirname(m.file), t.workspace));
  }
  return out;
}

/** `{` and `}` doubled: a prompt is literal text, never a template. */
function literalTemplate(text: string): string {
  return text.replace(/[{}]/g, (c) => c + c);
}

function interactionTable(i: ManifestInteraction | undefined): Record<string, unknown> {
  if (!i) return {};
  const t: Record<string, unknown> = {};
  if (i.mode) t.mode = i.mode;
  if (i.maxTurns) t.max_turns = i.maxTurns;
  if (i.simulatorPrompt) t.simulator_prompt = i.simulatorPrompt;
  if (i.freshResumeMarker) t.fresh_resume_marker = i.freshResumeMarker;
  if (i.decisionPatterns) t.decision_patterns = i.decisionPatterns;
  if (i.decisionReply) t.decision_reply = i.decisionReply;
  if (i.decisionReplies) t.decision_replies = i.decisionReplies;
  if (i.continuePrompt) t.continue_prompt = i.continuePrompt;
  return t;
}

/** `[evaluation.steps]` of an inline task (docs/trajectory.md): its own steps, else the manifest's, for its Skill. */
function stepsTable(steps: Steps | undefined, skill: string): { steps?: Steps } {
  return steps === undefined ? {} : { steps: { skill, ...steps } };
}

async function compileInline(
  m: LoadedManifest,
  skill: string,
  task: InlineTask,
  index: number,
  tasksDir: string,
): Promise<void> {
  const field = `evaluation.tasks[${index}]`;
  const dir = path.join(tasksDir, task.name);
  await mkdir(path.join(dir, "validation"), { recursive: true });
  const env = path.join(dir, "environment");
  if (typeof task.workspace === "string") {
    const from = path.resolve(path.dirname(m.file), task.workspace);
    if (!(await isDir(from)))
      throw new InputError(`${m.file}: ${field}.workspace: no folder ${from}`, {
        file: m.file,
        field: `${field}.workspace`,
      });
    refuseEscaping(m, await scanCopy(from, [from]), `${field}.workspace`, [
      "evaluation",
      "tasks",
      index,
      "workspace",
    ]);
    await copyTree(from, env);
    // The workspace fixture never picks the sandbox: its Dockerfile is left out.
    await rm(path.join(env, "Dockerfile"), { force: true });
  } else if (task.workspace) {
    for (const [rel, content] of Object.entries(task.workspace)) {
      const why = unsafePathReason(rel);
      if (why)
        throw new InputError(`${m.file}: ${field}.workspace.${rel}: ${why}`, {
          file: m.file,
          field: `${field}.workspace`,
        });
      const f = path.join(env, rel);
      await mkdir(path.dirname(f), { recursive: true });
      await writeFile(f, content);
    }
  }
  const commandsSec =
    (task.expect.commands ?? []).reduce((s, c) => s + (c.timeout ?? 120), 0) +
    regexCount(task.expect) * REGEX_TIMEOUT_SEC;
  const ev = m.manifest.evaluation;
  const toml = {
    metadata: { name: task.name, category: task.category ?? "", tags: ["manifest"] },
    environment: { timeout_sec: task.timeoutSec ?? 900 },
    validation: { test_scripts: [EXPECT_SCRIPT], timeout: Math.max(120, commandsSec + 30) },
    evaluation: {
      profile: task.profile ?? profileOf(m),
      required_skills: ev?.requiredSkills ?? [],
      expected_artifacts: [...(ev?.expectedArtifacts ?? []), ...(task.expect.files ?? [])],
      rubric_criteria: task.rubric ?? [],
      // authoring-skill route conformance (docs/rubrics.md): the node order applies to the task
      // `routeConformance.task` names, or to every task when it names none.
      ...(ev?.generatedNodeSkills?.length ? { generated_node_skills: ev.generatedNodeSkills } : {}),
      ...(ev?.routeConformance?.expectedNodeOrder?.length &&
      (ev.routeConformance.task === undefined || ev.routeConformance.task === task.name)
        ? { route_conformance_expected_node_order: ev.routeConformance.expectedNodeOrder }
        : {}),
      ...stepsTable(task.steps ?? ev?.steps, skill),
    },
    interaction: interactionTable(task.interaction ?? m.manifest.interaction),
  };
  if (Object.keys(toml.interaction).length === 0) delete (toml as Partial<typeof toml>).interaction;
  await writeFile(path.join(dir, "task.toml"), `${tomlStringify(toml)}\n`);
  await writeFile(path.join(dir, "instruction.md"), `${literalTemplate(task.prompt)}\n`);
  await writeFile(path.join(dir, "validation", EXPECT_SCRIPT), EXPECT_VALIDATOR_SOURCE);
  await writeFile(path.join(dir, "validation", EXPECT_DATA), expectData(skill, task.expect));
  if (task.solution) await compileSolution(m, task.solution, field, dir);
}

/** `solution:` → solution/files/ and solution/solve.sh, the task folder's own convention. */
async function compileSolution(
  m: LoadedManifest,
  solution: NonNullable<InlineTask["solution"]>,
  field: string,
  dir: string,
): Promise<void> {
  for (const [rel, content] of Object.entries(solution.files ?? {})) {
    const why = unsafePathReason(rel);
    if (why)
      throw new InputError(`${m.file}: ${field}.solution.files.${rel}: ${why}`, {
        file: m.file,
        field: `${field}.solution.files`,
      });
    const f = path.join(dir, "solution", "files", rel);
    await mkdir(path.dirname(f), { recursive: true });
    await writeFile(f, content);
  }
  if (solution.commands?.length) {
    await mkdir(path.join(dir, "solution"), { recursive: true });
    const script = ["#!/usr/bin/env bash", "set -euo pipefail", ...solution.commands, ""];
    await writeFile(path.join(dir, "solution", "solve.sh"), script.join("\n"), { mode: 0o755 });
  }
}

async function compileSource(
  m: LoadedManifest,
  task: { source: string; name?: string | undefined },
  index: number,
  tasksDir: string,
): Promise<string> {
  const field = `evaluation.tasks[${index}].source`;
  const from = path.resolve(m.skillDir, task.source);
  if (!(await isDir(from)))
    throw new InputError(`${m.file}: ${field}: no task folder ${from}`, { file: m.file, field });
  const name = task.name ?? path.basename(from);
  refuseEscaping(m, await scanCopy(from, [from]), field, ["evaluation", "tasks", index, "source"]);
  await copyTree(from, path.join(tasksDir, name));
  return name;
}

/** The same eval material inside an earlier version of the Skill (same relative paths, and its own manifest). */
function materialIn(m: LoadedManifest, material: Set<string>, dir: string): Set<string> {
  const out = new Set<string>();
  for (const p of material) {
    const rel = path.relative(m.skillDir, p);
    if (!rel.startsWith("..") && !path.isAbsolute(rel)) out.add(path.resolve(dir, rel));
  }
  for (const c of MANIFEST_CANDIDATES) out.add(path.resolve(dir, c));
  return out;
}

/** Parse a baseline entry into its name and origin. Pure. */
export function baselineOrigin(
  b: BaselineEntry,
  index: number,
  count: number,
): { name: string; path?: string; git?: string } {
  const fallback = count === 1 ? "BASELINE" : `BASELINE_${index + 1}`;
  if (typeof b === "string") {
    if (b.startsWith("git:")) {
      const ref = b.slice(4);
      return { name: `BASELINE_${ref.replace(/[^A-Za-z0-9._-]+/g, "_")}`, git: ref };
    }
    return { name: fallback, path: b };
  }
  return b.git !== undefined
    ? { name: b.name ?? `BASELINE_${b.git.replace(/[^A-Za-z0-9._-]+/g, "_")}`, git: b.git }
    : { name: b.name ?? fallback, path: b.path ?? "" };
}

/** The Skill folder as it was at a git ref, extracted into `dest`. */
async function extractGitRef(
  m: LoadedManifest,
  ref: string,
  dest: string,
  field: string,
  material: Set<string>,
): Promise<void> {
  const { skillDir, file } = m;
  const found = await git(skillDir, ["rev-parse", "--show-toplevel"]);
  if (found.code !== 0)
    throw new InputError(
      `${file}: ${field}: git:${ref}: ${skillDir} is not inside a git repository`,
      { file, field },
    );
  const top = found.out.trim();
  const rel = path.relative(top, skillDir).split(path.sep).join("/");
  const tmp = await mkdtemp(path.join(os.tmpdir(), tempStem("baseline", undefined, process.pid)));
  try {
    const tar = path.join(tmp, "skill.tar");
    const archived = await git(top, ["archive", "--format=tar", "-o", tar, ref, "--", rel || "."]);
    if (archived.code !== 0)
      throw new InputError(
        `${file}: ${field}: git:${ref}: cannot read the Skill at that ref (${
          archived.err.trim().split("\n")[0]
        })`,
        { file, field },
      );
    const x = path.join(tmp, "x");
    await mkdir(x);
    await run("tar", ["-xf", tar, "-C", x]);
    await copyTree(path.join(x, rel), dest, materialIn(m, material, path.join(x, rel)));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Write the compiled suite. Throws InputError naming the manifest field on bad input. */
export async function compileManifest(
  m: LoadedManifest,
  opts: CompileOptions,
): Promise<CompiledSuite> {
  const dir = opts.outDir;
  await rm(dir, { recursive: true, force: true });
  const tasksDir = path.join(dir, "tasks");
  await mkdir(tasksDir, { recursive: true });
  const skillName = await resolveSkillName(m);
  const skillCopy = path.join(dir, "skills", "current", skillName);
  if (!(await isDir(m.skillDir)))
    throw new InputError(`${m.file}: skill.source: no Skill folder ${m.skillDir}`, {
      file: m.file,
      field: "skill.source",
    });
  const entries = opts.tasks ?? m.tasks;
  const material = evalMaterial(m, entries);
  const scan = await scanCopy(m.skillDir, [m.skillDir, ownerDir(m.file)], material);
  refuseEscaping(m, scan, "skill", ["skill", "source"]);
  if (scan.files > SKILL_WARN_FILES || scan.bytes > SKILL_WARN_BYTES)
    opts.onWarning?.({
      file: m.skillDir,
      message: `the Skill folder holds ${scan.files} file(s), ${(scan.bytes / 1024 / 1024).toFixed(1)} MiB (warned above ${SKILL_WARN_FILES} files or ${SKILL_WARN_BYTES / 1024 / 1024} MiB); all of it is copied into every run's workspace: leave datasets and build outputs out of the Skill`,
    });
  await copyTree(m.skillDir, skillCopy, material);
  const keyFiles = await checkKeyFiles(m, skillCopy);

  const taskNames: string[] = [];
  for (const [i, t] of entries.entries()) {
    if ("source" in t) taskNames.push(await compileSource(m, t, i, tasksDir));
    else {
      await compileInline(m, skillName, t, i, tasksDir);
      taskNames.push(t.name);
    }
  }

  const baselines: CompiledBaseline[] = [];
  const list = m.manifest.evaluation?.baselineTreatments ?? [];
  for (const [i, b] of list.entries()) {
    const field = `evaluation.baselineTreatments[${i}]`;
    const o = baselineOrigin(b, i, list.length);
    const dest = path.join(dir, "skills", o.name, skillName);
    if (o.git !== undefined) {
      await extractGitRef(m, o.git, dest, field, material);
      baselines.push({ name: o.name, origin: `git:${o.git}`, dir: dest });
    } else {
      const from = path.resolve(path.dirname(m.file), o.path ?? "");
      if (!(await isDir(from)))
        throw new InputError(
          `${m.file}: ${field}: no folder ${from} (a baseline is an earlier version of the Skill: a folder, or git:REF)`,
          { file: m.file, field },
        );
      const skip = materialIn(m, material, from);
      refuseEscaping(m, await scanCopy(from, [from], skip), field, [
        "evaluation",
        "baselineTreatments",
        i,
      ]);
      await copyTree(from, dest, skip);
      baselines.push({ name: o.name, origin: `path:${from}`, dir: dest });
    }
    if (!(await stat(path.join(dest, "SKILL.md")).catch(() => null)))
      throw new InputError(`${m.file}: ${field}: ${dest} has no SKILL.md`, { file: m.file, field });
  }
  const names = new Set(["CONTROL", SKILL_TREATMENT]);
  for (const b of baselines) {
    if (names.has(b.name))
      throw new InputError(
        `${m.file}: evaluation.baselineTreatments: two treatments are named ${b.name}`,
        {
          file: m.file,
          field: "evaluation.baselineTreatments",
        },
      );
    names.add(b.name);
  }

  const treatments: Record<string, unknown> = {
    CONTROL: { description: "No skills baseline" },
    [SKILL_TREATMENT]: {
      description: `${skillName} as it is now (${m.skillDir})`,
      skills: [
        { name: skillName, path: skillCopy, ...(keyFiles.length ? { key_files: keyFiles } : {}) },
      ],
    },
  };
  for (const b of baselines)
    treatments[b.name] = {
      description: `${skillName} frozen from ${b.origin}`,
      skills: [{ name: skillName, path: b.dir }],
    };
  await mkdir(path.join(dir, "treatments"), { recursive: true });
  await writeFile(
    path.join(dir, "treatments", "eval.yaml"),
    `# Compiled by skillbench eval from ${m.file}\n${YAML.stringify(treatments)}`,
  );
  // The manifest's judge section, as a suite's skillbench.yaml has it (only when it sets one).
  const judgeYaml = judgeConfigYaml(m.manifest.judge, m.file);
  if (judgeYaml !== null) await writeFile(path.join(dir, CONFIG_FILE), judgeYaml);
  // Suite profiles live beside the manifest's Skill (profiles/*.toml), as in a suite.
  const profilesDir = path.join(m.skillDir, "profiles");
  if (await isDir(profilesDir)) await copyTree(profilesDir, path.join(dir, "profiles"));
  return {
    dir,
    skillName,
    profile: profileOf(m),
    treatments: [...names],
    baselines,
    tasks: taskNames,
  };
}
