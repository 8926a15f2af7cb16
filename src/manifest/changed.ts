/**
 * `skillbench eval SKILLS_ROOT` (docs/reuse.md "Only what changed"): a folder of Skills, each a
 * sub-folder with a SKILL.md or an eval manifest, evaluated one by one; with `--changed-since
 * REF` only the Skills whose folder content (or manifest) differs from the git ref REF, the
 * others carried over with the last verdict stored for them.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { git } from "../util/git.js";
import { findManifest } from "./load.js";

export interface SkillEntry {
  /** the sub-folder's name: the Skill's results go to `<out>/<name>` */
  name: string;
  dir: string;
  /** its eval manifest (eval.yaml, comet/eval.yaml), null when it has none */
  manifest: string | null;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/**
 * The Skills of a root folder (its sub-folders with a SKILL.md or an eval manifest, by name), or
 * null when the folder is itself a Skill (it has either) or names a manifest file.
 */
export async function skillsUnder(target: string): Promise<SkillEntry[] | null> {
  const abs = path.resolve(target);
  if (
    !(await stat(abs).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return null;
  if ((await findManifest(abs)) !== null || (await exists(path.join(abs, "SKILL.md")))) return null;
  const out: SkillEntry[] = [];
  const entries = await readdir(abs, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isDirectory() || e.name.startsWith(".")) continue;
    const dir = path.join(abs, e.name);
    const manifest = await findManifest(dir);
    if (manifest !== null || (await exists(path.join(dir, "SKILL.md"))))
      out.push({ name: e.name, dir, manifest });
  }
  return out.length === 0 ? null : out;
}

/**
 * Every file under `root` that differs from git ref `ref` (committed since, changed in the work
 * tree, or new and not ignored), as absolute paths. A root outside a git repository or a ref git
 * does not know is bad input (exit 2).
 */
export async function changedFilesSince(root: string, ref: string): Promise<string[]> {
  const abs = path.resolve(root);
  const top = await git(abs, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0)
    throw new InputError(
      `--changed-since ${ref}: ${abs} is not in a git repository (${top.err.trim()})`,
      {
        file: abs,
        field: "--changed-since",
      },
    );
  const repo = top.out.trim();
  const known = await git(abs, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (known.code !== 0)
    throw new InputError(`--changed-since ${ref}: not a commit of the git repository ${repo}`, {
      file: repo,
      field: "--changed-since",
    });
  const diff = await git(repo, ["diff", "--name-only", "--no-renames", ref, "--", abs]);
  const untracked = await git(repo, ["ls-files", "--others", "--exclude-standard", "--", abs]);
  for (const r of [diff, untracked])
    if (r.code !== 0)
      throw new InputError(`--changed-since ${ref}: git failed in ${repo}: ${r.err.trim()}`, {
        file: repo,
        field: "--changed-since",
      });
  return [...diff.out.split("\n"), ...untracked.out.split("\n")]
    .filter((l) => l !== "")
    .map((l) => path.join(repo, l));
}

/** Whether a path is `dir` or inside it. */
function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The Skills a list of changed files touches: a file in its folder, or its manifest. Pure. */
export function splitChanged(
  skills: readonly SkillEntry[],
  files: readonly string[],
): { changed: SkillEntry[]; unchanged: SkillEntry[] } {
  const changed: SkillEntry[] = [];
  const unchanged: SkillEntry[] = [];
  for (const s of skills)
    (files.some((f) => inside(f, s.dir) || f === s.manifest) ? changed : unchanged).push(s);
  return { changed, unchanged };
}

/** What a carried-over Skill's line reads from a stored eval.json (manifest/eval.ts writes it). */
const StoredEvalSchema = z
  .object({
    schema: z.literal("skillbench.eval.v1"),
    skill_dir: z.string(),
    verdict: z.string().nullable(),
    quality_gates: z.object({ ok: z.boolean() }).loose().nullable().optional(),
  })
  .loose();

/** A Skill's last stored verdict (its eval.json). */
export interface StoredVerdict {
  dir: string;
  verdict: string | null;
  gates_ok: boolean | null;
  finished: string;
}

/**
 * Results folders that may hold a Skill's eval: each given folder, its `<name>` sub-folder (the
 * root form's layout), and their sub-folders one level down (`.skillbench/runs/eval-*`).
 */
async function evalFolders(dirs: readonly string[], name: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    out.push(d, path.join(d, name));
    const subs = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of subs)
      if (e.isDirectory()) out.push(path.join(d, e.name), path.join(d, e.name, name));
  }
  return [...new Set(out)];
}

/** The newest eval.json among `dirs` (and below, see evalFolders) that is of this Skill's folder. */
export async function lastStoredVerdict(
  skill: SkillEntry,
  dirs: readonly string[],
): Promise<StoredVerdict | null> {
  let best: StoredVerdict | null = null;
  for (const dir of await evalFolders(dirs, skill.name)) {
    const file = path.join(dir, "eval.json");
    const text = await readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    let parsed: ReturnType<typeof StoredEvalSchema.safeParse>;
    try {
      parsed = StoredEvalSchema.safeParse(JSON.parse(text));
    } catch {
      continue;
    }
    if (!parsed.success || parsed.data.skill_dir !== skill.dir) continue;
    const finished = (await stat(file)).mtime.toISOString();
    if (best !== null && best.finished >= finished) continue;
    best = {
      dir,
      verdict: parsed.data.verdict,
      gates_ok: parsed.data.quality_gates?.ok ?? null,
      finished,
    };
  }
  return best;
}

/** One Skill of a root's evaluation, for the console and eval-root.md. */
export interface SkillsRootLine {
  skill: SkillEntry;
  /** evaluated now, or carried over from its last stored verdict */
  evaluated: boolean;
  verdict: StoredVerdict | null;
}

function verdictText(v: StoredVerdict | null): string {
  if (v === null) return "no stored verdict";
  const gates = v.gates_ok === null ? "" : `, quality gates ${v.gates_ok ? "pass" : "fail"}`;
  return `verdict ${v.verdict ?? "none"}${gates} (${v.dir})`;
}

/** The lines of a root's evaluation: each Skill evaluated or carried over, with its verdict. Pure. */
export function renderSkillsRoot(
  root: string,
  ref: string | null,
  lines: readonly SkillsRootLine[],
): string[] {
  const evaluated = lines.filter((l) => l.evaluated).length;
  const head =
    ref === null
      ? `${lines.length} Skill(s) under ${root}, all evaluated`
      : `${lines.length} Skill(s) under ${root}: ${evaluated} changed since ${ref} and evaluated, ${lines.length - evaluated} carried over`;
  return [
    head,
    ...lines.map(
      (l) =>
        `  ${l.skill.name}: ${l.evaluated ? "evaluated" : "carried over (unchanged)"}, ${verdictText(l.verdict)}`,
    ),
  ];
}
