/**
 * The Skills a probe's agent chooses between (docs/triggers.md): the Skill under test (with
 * one of its description variants), its neighbours (`--neighbours DIR`) and the bundled decoys.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { YAML_MAX_ALIAS_COUNT } from "../util/yaml.js";
import { InputError } from "../core/errors.js";
import { hashSkillDir } from "../suite/skills.js";
import { NAME_PATTERN } from "../suite/types.js";
import type { SkillToInstall } from "../workspace/prepare.js";
import type { DescriptionVariant } from "./types.js";

export interface SkillFolder {
  /** The name the agent sees (the frontmatter `name`, else the folder's name). */
  name: string;
  dir: string;
  description: string;
  /** SKILL.md as it is on disk. */
  text: string;
  hash: string;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The frontmatter of a SKILL.md as a plain object (empty when there is none). Pure. */
export function frontmatterOf(text: string, file: string): Record<string, unknown> {
  const m = FRONTMATTER.exec(text);
  if (!m) return {};
  let v: unknown;
  try {
    v = YAML.parse(m[1] ?? "", { maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (e) {
    throw new InputError(`${file}: the frontmatter is not valid YAML: ${String(e)}`, {
      file,
      field: "frontmatter",
    });
  }
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
}

/** SKILL.md with its frontmatter `description` replaced (the rest of the file unchanged). Pure. */
export function withDescription(text: string, description: string): string {
  const m = FRONTMATTER.exec(text);
  if (!m) {
    return `---\n${YAML.stringify({ description })}---\n${text}`;
  }
  const doc = YAML.parseDocument(m[1] ?? "");
  doc.set("description", description);
  return `---\n${doc.toString()}---\n${text.slice(m[0].length)}`;
}

/** Read a Skill folder (or its SKILL.md). `what` names it in errors (`SKILL_DIR`, `--neighbours`). */
export async function readSkillFolder(p: string, what: string): Promise<SkillFolder> {
  const dir = path.basename(p) === "SKILL.md" ? path.dirname(p) : p;
  const file = path.join(dir, "SKILL.md");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new InputError(`${what} ${dir}: no SKILL.md in this folder`, { file, field: what });
  }
  const fm = frontmatterOf(text, file);
  const name = typeof fm.name === "string" && fm.name.trim() ? fm.name.trim() : path.basename(dir);
  if (!NAME_PATTERN.test(name))
    throw new InputError(`${file}: name: ${JSON.stringify(name)} is not a safe Skill name`, {
      file,
      field: "name",
    });
  const description = typeof fm.description === "string" ? fm.description.trim() : "";
  if (!description)
    throw new InputError(
      `${file}: description: missing; the agent chooses a Skill by its description`,
      {
        file,
        field: "description",
      },
    );
  return { name, dir, description, text, hash: await hashSkillDir(dir) };
}

/** Every Skill folder directly under `dir` (folders holding a SKILL.md), by name. */
export async function readSkillsUnder(dir: string, what: string): Promise<SkillFolder[]> {
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    throw new InputError(`${what} ${dir}: cannot read this folder`, { file: dir, field: what });
  }
  const out: SkillFolder[] = [];
  for (const e of entries) {
    if (!existsSync(path.join(dir, e, "SKILL.md"))) continue;
    out.push(await readSkillFolder(path.join(dir, e), what));
  }
  return out;
}

/** The bundled decoy Skills: plausible, overlapping descriptions of everyday coding work. */
export function decoysDir(): string {
  return fileURLToPath(new URL("../../data/trigger-decoys", import.meta.url));
}

/** Description variants: one per `--description-file`, else the Skill's own description. */
export async function readVariants(
  skill: SkillFolder,
  files: string[],
): Promise<DescriptionVariant[]> {
  if (files.length === 0) return [{ name: "current", description: skill.description, file: null }];
  const out: DescriptionVariant[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = (await readFile(f, "utf8")).trim();
    } catch {
      throw new InputError(`--description-file ${f}: cannot read the file`, {
        file: f,
        field: "--description-file",
      });
    }
    if (!text)
      throw new InputError(`--description-file ${f}: the file is empty`, {
        file: f,
        field: "--description-file",
      });
    const base =
      path
        .basename(f)
        .replace(/\.[^.]*$/, "")
        .replace(/[^A-Za-z0-9._-]/g, "_") || "variant";
    let name = base;
    for (let i = 2; out.some((v) => v.name === name); i++) name = `${base}-${i}`;
    out.push({ name, description: text, file: f });
  }
  return out;
}

/**
 * What gets installed in a probe's workspace under .claude/skills/: the target with the
 * variant's description, then its neighbours and the decoys. A neighbour or decoy with the
 * target's name (or an earlier one's) is left out and reported in `skipped`.
 */
export function skillsToInstall(
  target: SkillFolder,
  variant: DescriptionVariant,
  others: SkillFolder[],
): { install: SkillToInstall[]; names: string[]; skipped: string[] } {
  const install: SkillToInstall[] = [
    {
      name: target.name,
      path: target.dir,
      content: variant.file === null ? null : withDescription(target.text, variant.description),
    },
  ];
  const names = [target.name];
  const skipped: string[] = [];
  for (const o of others) {
    if (names.includes(o.name)) {
      skipped.push(o.dir);
      continue;
    }
    names.push(o.name);
    install.push({ name: o.name, path: o.dir, content: null });
  }
  return { install, names, skipped };
}
