import { isRecord } from "../core/json.js";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { listFiles } from "../util/hash.js";
import { describe, Table } from "./fields.js";
import { parseYaml } from "./parse-text.js";
import type { Problems } from "./problems.js";
import { resolveSkill } from "./skills.js";
import { readTreatmentEntry } from "./treatment-entry.js";
import { CONTROL_DESCRIPTION, CONTROL_TREATMENT, type TreatmentSpec } from "./types.js";

/**
 * Treatments: every `treatments/**\/*.yaml|yml` (hidden folders skipped), read in
 * sorted path order. A later definition of a name replaces the earlier one (with a
 * warning) and keeps its position. Keys starting with `_` are YAML anchors, not
 * treatments. CONTROL always exists and always comes first.
 */

function controlTreatment(): TreatmentSpec {
  return {
    name: CONTROL_TREATMENT,
    description: CONTROL_DESCRIPTION,
    claude_md: null,
    skills: [],
    file: null,
  };
}

export interface TreatmentLoadContext {
  root: string;
  /** Turns an absolute path into the form shown in messages. */
  display: (abs: string) => string;
  problems: Problems;
}

async function listTreatmentFiles(dir: string): Promise<string[]> {
  try {
    const files = await listFiles(dir, (rel) => rel.split("/").some((s) => s.startsWith(".")));
    return files.filter((f) => /\.ya?ml$/i.test(f)).map((f) => path.join(dir, f));
  } catch (e) {
    if (isErrno(e) && (e.code === "ENOENT" || e.code === "ENOTDIR")) return [];
    throw e;
  }
}

function isErrno(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && "code" in e;
}

async function loadTreatmentFile(abs: string, ctx: TreatmentLoadContext): Promise<TreatmentSpec[]> {
  const file = ctx.display(abs);
  const parsed = parseYaml(await readFile(abs, "utf8"), file, ctx.problems);
  if (!parsed.ok || parsed.value === undefined || parsed.value === null) return [];
  if (!isRecord(parsed.value)) {
    ctx.problems.error({
      file,
      message: `expected a mapping of treatment names, got ${describe(parsed.value, "yaml")}`,
    });
    return [];
  }
  const top = new Table({ file, flavor: "yaml", problems: ctx.problems }, [], parsed.value);
  const out: TreatmentSpec[] = [];
  for (const name of Object.keys(parsed.value)) {
    if (name.startsWith("_")) continue;
    const entry = readTreatmentEntry(top, name);
    if (!entry) continue;
    const spec: TreatmentSpec = {
      name,
      description: entry.description ?? (name === CONTROL_TREATMENT ? CONTROL_DESCRIPTION : ""),
      claude_md: entry.claude_md,
      ...(entry.agents !== undefined ? { agents: entry.agents } : {}),
      ...(entry.models !== undefined ? { models: entry.models } : {}),
      skills: [],
      file: abs,
      ...entry.hints,
      ...(entry.native ? { native: entry.native } : {}),
      ...(entry.prompt_prefix !== undefined ? { prompt_prefix: entry.prompt_prefix } : {}),
      ...(entry.hooks ? { hooks: entry.hooks } : {}),
    };
    const seen = new Map<string, string>();
    for (const s of entry.skills) {
      const skill = await resolveSkill(s, {
        file,
        treatmentDir: path.dirname(abs),
        root: ctx.root,
        problems: ctx.problems,
      });
      if (!skill) continue;
      const prev = seen.get(skill.name);
      if (prev !== undefined) {
        ctx.problems.error({
          file,
          field: s.field,
          message: `${s.field}: duplicate skill name ${JSON.stringify(skill.name)} (also ${prev}); give one of them another "name"`,
        });
        continue;
      }
      seen.set(skill.name, s.field);
      spec.skills.push(skill);
    }
    out.push(spec);
  }
  return out;
}

export async function loadTreatments(
  treatmentsDir: string,
  ctx: TreatmentLoadContext,
): Promise<TreatmentSpec[]> {
  const byName = new Map<string, TreatmentSpec>([[CONTROL_TREATMENT, controlTreatment()]]);
  for (const abs of await listTreatmentFiles(treatmentsDir)) {
    for (const t of await loadTreatmentFile(abs, ctx)) {
      const prev = byName.get(t.name);
      if (prev?.file) {
        ctx.problems.warn({
          file: ctx.display(abs),
          field: t.name,
          message: `${t.name}: overrides the definition in ${ctx.display(prev.file)}`,
        });
      }
      byName.set(t.name, t);
    }
  }
  return [...byName.values()];
}
