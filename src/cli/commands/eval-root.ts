/**
 * `skillbench eval SKILLS_ROOT [--changed-since REF]` (docs/reuse.md "Only what changed"): each
 * Skill of the folder evaluated as `eval SKILL_DIR` would, its results in `<out>/<name>`; with
 * --changed-since only the Skills changed since the git ref, the others carried over with the
 * last verdict stored for them (in the --reuse folders, else under .skillbench/runs).
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  changedFilesSince,
  lastStoredVerdict,
  renderSkillsRoot,
  splitChanged,
  type SkillEntry,
  type SkillsRootLine,
} from "../../index.js";

interface RootFlags {
  out?: string | undefined;
  reuse?: string[] | undefined;
  changedSince?: string | undefined;
  dryRun?: boolean | undefined;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
}

/**
 * The --reuse folders that hold this Skill's runs: `<dir>/<name>` (a root's results) when it is
 * a results folder, else `<dir>` itself when it is one.
 */
function reuseFor(dirs: readonly string[] | undefined, name: string): string[] | undefined {
  if (dirs === undefined) return undefined;
  const out = dirs.flatMap((d) => {
    // `--reuse history` is the history store's folders (docs/reuse.md), for each Skill alike.
    if (d === "history") return [d];
    const sub = path.join(d, name);
    if (existsSync(path.join(sub, "metadata.json"))) return [sub];
    return existsSync(path.join(d, "metadata.json")) ? [d] : [];
  });
  return out.length === 0 ? undefined : out;
}

export async function evalRoot<F extends RootFlags>(
  target: string,
  skills: SkillEntry[] | null,
  f: F,
  ctx: { exitCode: number },
  one: (skill: string, f: F, ctx: { exitCode: number }) => Promise<void>,
): Promise<void> {
  const root = path.resolve(target);
  // --changed-since on one Skill folder: that Skill, evaluated only when it changed.
  const single = skills === null;
  const list: SkillEntry[] = skills ?? [{ name: path.basename(root), dir: root, manifest: null }];
  const ref = f.changedSince ?? null;
  const { changed, unchanged } =
    ref === null
      ? { changed: list, unchanged: [] }
      : splitChanged(list, await changedFilesSince(root, ref));
  if (single && changed.length > 0) return one(root, f, ctx);
  const out = path.resolve(f.out ?? path.join(".skillbench", "runs", `eval-root-${stamp()}`));
  let exit = 0;
  for (const s of changed) {
    process.stderr.write(
      `\n== ${s.name}: ${ref === null ? "evaluating" : `changed since ${ref}`} (results: ${path.join(out, s.name)}) ==\n`,
    );
    const sub = { exitCode: 0 };
    await one(s.dir, { ...f, out: path.join(out, s.name), reuse: reuseFor(f.reuse, s.name) }, sub);
    exit = Math.max(exit, sub.exitCode);
  }
  if (f.dryRun) {
    if (unchanged.length > 0)
      process.stdout.write(
        `carried over (unchanged since ${ref ?? ""}): ${unchanged.map((s) => s.name).join(", ")}\n`,
      );
    ctx.exitCode = exit;
    return;
  }
  // Where the carried-over Skills' last verdicts are looked for.
  const stored = f.reuse?.filter((d) => d !== "history") ?? [path.resolve(".skillbench", "runs")];
  const lines: SkillsRootLine[] = [];
  for (const s of list) {
    const evaluated = changed.includes(s);
    const from = evaluated ? [path.join(out, s.name)] : stored;
    lines.push({ skill: s, evaluated, verdict: await lastStoredVerdict(s, from) });
  }
  const text = renderSkillsRoot(root, ref, lines);
  process.stdout.write(`\n${text.join("\n")}\n`);
  if (!single) {
    await mkdir(out, { recursive: true });
    const file = path.join(out, "eval-root.md");
    const md = text.map((l) => (l.startsWith("  ") ? `- ${l.trim()}` : l));
    await writeFile(file, `# Skills evaluated\n\n${md.join("\n")}\n`);
    process.stdout.write(`Results: ${file}\n`);
  }
  ctx.exitCode = exit;
}
