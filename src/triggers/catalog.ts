/**
 * `skillbench triggers CATALOG_DIR` (docs/triggers.md, "A catalog of Skills"): a folder of Skill
 * folders, every Skill's own queries (its eval manifest's `triggers:` section) asked with all of
 * them installed together. This file tells a catalog from a Skill folder and gathers the queries.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { MANIFEST_CANDIDATES } from "../manifest/load.js";
import { readTriggersSection } from "./manifest.js";
import { readSkillsUnder, skillsToInstall, type SkillFolder } from "./skills.js";
import { canonicalJson, sha256 } from "../util/hash.js";
import type { DescriptionVariant, TriggerQuery } from "./types.js";

/** The probes' description variant in a catalog (each Skill keeps its own description). */
const CATALOG_VARIANT = "catalog";

export interface CatalogQuery extends TriggerQuery {
  /** The Skill whose query set holds it. */
  skill: string;
  /** Its id in that Skill's set (`id` is `<skill>.<own id>`, unique in the catalog). */
  own_id: string;
}

export interface Catalog {
  dir: string;
  /** By name. */
  skills: SkillFolder[];
  queries: CatalogQuery[];
  /** Where each Skill's queries came from (null: it has none; its row stays empty). */
  sources: Record<string, string | null>;
  /** Files of each installed Skill the agent must not see (its manifest, its query file). */
  hide: Map<string, string[]>;
}

/**
 * A catalog when `dir` holds no SKILL.md and some of its child folders do; null when it is a
 * Skill folder. A folder that is both (a SKILL.md beside Skill folders) is refused by name, as is
 * one that is neither.
 */
async function readCatalogFolder(dir: string): Promise<SkillFolder[] | null> {
  const own = existsSync(path.join(dir, "SKILL.md"));
  if (path.basename(dir) === "SKILL.md") return null;
  if (!existsSync(dir)) return null; // readSkillFolder names the missing folder
  const children = await readSkillsUnder(dir, "SKILL_DIR");
  if (own && children.length > 0)
    throw new InputError(
      `SKILL_DIR ${dir}: ambiguous: it holds a SKILL.md and Skill folders (${children.map((c) => c.name).join(", ")}); pass the Skill folder itself, or a catalog folder that holds only Skill folders`,
      { file: dir, field: "SKILL_DIR" },
    );
  if (own) return null;
  if (children.length === 0)
    throw new InputError(
      `SKILL_DIR ${dir}: no SKILL.md in this folder and no Skill folders (folders holding a SKILL.md) inside it`,
      { file: path.join(dir, "SKILL.md"), field: "SKILL_DIR" },
    );
  const seen = new Map<string, string>();
  for (const c of children) {
    const prev = seen.get(c.name);
    if (prev !== undefined)
      throw new InputError(
        `SKILL_DIR ${dir}: two Skills are named ${c.name} (${prev} and ${c.dir}): an agent would see one`,
        { file: c.dir, field: "name" },
      );
    seen.set(c.name, c.dir);
  }
  return [...children].sort((a, b) => a.name.localeCompare(b.name));
}

/** Each Skill's queries from its eval manifest's `triggers:` section, ids prefixed by its name. */
async function readCatalog(dir: string, skills: SkillFolder[]): Promise<Catalog> {
  const queries: CatalogQuery[] = [];
  const sources: Record<string, string | null> = {};
  const hide = new Map<string, string[]>();
  for (const s of skills) {
    const section = await readTriggersSection(s.dir);
    const list = section?.queries?.queries ?? [];
    sources[s.name] = section?.queries?.source ?? null;
    for (const q of list)
      queries.push({ ...q, id: `${s.name}.${q.id}`, skill: s.name, own_id: q.id });
    // The manifest and its query file hold the answers: never in the installed copy.
    const files = [section?.manifest, section?.queries?.source]
      .filter((f): f is string => typeof f === "string")
      .map((f) => path.relative(s.dir, f))
      .filter((r) => r !== "" && !r.startsWith("..") && !path.isAbsolute(r));
    hide.set(s.name, [...MANIFEST_CANDIDATES, ...files]);
  }
  if (queries.length === 0)
    throw new InputError(
      `SKILL_DIR ${dir}: a catalog of ${skills.length} Skill(s), none with trigger queries: give each Skill a triggers: section with queries in its eval.yaml (docs/triggers.md)`,
      { file: dir, field: "triggers.queries" },
    );
  return { dir, skills, queries, sources, hide };
}

/** What the matrix's row of a query is: the Skill it was written for, or null (none). Pure. */
export function expectedSkill(q: CatalogQuery): string | null {
  return q.should_trigger ? q.skill : null;
}

/** What `runTriggers` takes from a catalog instead of a Skill's inputs. */
export interface CatalogInputs {
  catalog: Catalog;
  /**
   * The probes' target: a name no Skill can have (a Skill's name starts with a letter or digit),
   * so every choice is recorded as the Skill chosen (`other`) and read into the matrix.
   */
  target: SkillFolder;
  variants: DescriptionVariant[];
  /** Every Skill of the catalog, then the neighbours and decoys (a name already there is skipped). */
  install: (others: SkillFolder[]) => ReturnType<typeof skillsToInstall>;
}

/** Flags that name one Skill's inputs: refused with a catalog. */
const SKILL_ONLY = [
  ["queries", "--queries"],
  ["queryList", "--queries"],
  ["descriptionFiles", "--description-file"],
  ["generate", "--generate"],
] as const;

/** The catalog's inputs when `dir` is a catalog, else null (a Skill folder). */
export async function catalogInputs(
  dir: string,
  opts: {
    queries?: unknown;
    queryList?: unknown;
    descriptionFiles?: string[] | undefined;
    generate?: boolean | undefined;
  },
): Promise<CatalogInputs | null> {
  const skills = await readCatalogFolder(dir);
  if (!skills) return null;
  for (const [key, flag] of SKILL_ONLY) {
    const v = opts[key];
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    throw new InputError(
      `${flag}: not with a catalog (${dir}): each Skill's queries come from the triggers: section of its own eval.yaml`,
      { field: flag },
    );
  }
  const catalog = await readCatalog(dir, skills);
  const target: SkillFolder = {
    name: "",
    dir,
    description: "",
    text: "",
    hash: sha256(canonicalJson(skills.map((s) => [s.name, s.hash]))),
  };
  return {
    catalog,
    target,
    variants: [{ name: CATALOG_VARIANT, description: "", file: null }],
    install: (others) => {
      const [first, ...rest] = skills;
      if (!first) throw new Error("a catalog without Skills");
      return skillsToInstall(
        first,
        { name: CATALOG_VARIANT, description: first.description, file: null },
        [...rest, ...others.filter((o) => !skills.some((s) => s.dir === o.dir))],
      );
    },
  };
}
