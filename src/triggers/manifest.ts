/**
 * The `triggers:` section of a Skill's eval manifest (eval.yaml; docs/triggers.md). The manifest
 * loader keeps it as written; it is parsed here, with file, field and line in every error.
 * Paths are relative to the manifest's folder. Flags on the command line win over it.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { findManifest } from "../manifest/index.js";
import { ownerDir } from "../manifest/load.js";
import { outsideSkill } from "../manifest/paths.js";
import { yamlToJs } from "../util/yaml.js";
import { lineOf, parseDoc, queriesFromDoc, zodInputError } from "./queries.js";
import type { TriggerQuery } from "./types.js";

const pos = z.number().int().min(1);
const strings = z.union([z.string().min(1), z.array(z.string().min(1))]);

const SectionSchema = z
  .object({
    /** Inline queries, or a query file. */
    queries: z.union([z.array(z.unknown()), z.string().min(1)]).optional(),
    count: pos.optional(),
    neighbours: strings.optional(),
    decoys: z.boolean().optional(),
    descriptionFiles: strings.optional(),
    description_files: strings.optional(),
    maxTurns: pos.optional(),
    max_turns: pos.optional(),
    timeoutSec: pos.optional(),
    timeout_sec: pos.optional(),
    maxAttempts: pos.optional(),
    max_attempts: pos.optional(),
  })
  .strict();

export interface TriggersSection {
  manifest: string;
  queries: { queries: TriggerQuery[]; source: string } | null;
  count?: number | undefined;
  neighbours?: string[] | undefined;
  decoys?: boolean | undefined;
  descriptionFiles?: string[] | undefined;
  maxTurns?: number | undefined;
  timeoutSec?: number | undefined;
  maxAttempts?: number | undefined;
}

const list = (v: string | string[] | undefined): string[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];

/** Parse a manifest's text for its `triggers:` section; null when it has none. */
async function parseTriggersSection(text: string, file: string): Promise<TriggersSection | null> {
  const { doc, lines } = parseDoc(text, file);
  if (!doc.has("triggers")) return null;
  const node = doc.get("triggers", true);
  const raw: unknown = yamlToJs(doc, lines, file, node, ["triggers"]);
  const parsed = SectionSchema.safeParse(raw ?? {});
  if (!parsed.success) throw zodInputError(parsed.error, file, ["triggers"], doc, lines);
  const s = parsed.data;
  const dir = path.dirname(file);
  const rel = (p: string): string => path.resolve(dir, p);
  // A file the section names is read into the probes: it must be a relative path inside the Skill
  // folder, as every folder an eval manifest names (docs/manifest.md, "Paths"). Neighbours are
  // other Skills, so they may lie beside it.
  const inside = async (p: string, at: (string | number)[]): Promise<void> => {
    const why = await outsideSkill(p, dir, ownerDir(file));
    if (why === null) return;
    const field = at.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`));
    const line = lineOf(doc, lines, at);
    throw new InputError(
      `${file}: ${field.join("")}${line === undefined ? "" : ` (line ${line})`}: ${why}`,
      { file, field: field.join(""), ...(line === undefined ? {} : { line }) },
    );
  };
  if (typeof s.queries === "string") await inside(s.queries, ["triggers", "queries"]);
  const descKey = s.descriptionFiles !== undefined ? "descriptionFiles" : "description_files";
  const desc = s.descriptionFiles ?? s.description_files;
  if (typeof desc === "string") await inside(desc, ["triggers", descKey]);
  else if (desc) for (const [i, d] of desc.entries()) await inside(d, ["triggers", descKey, i]);
  let queries: TriggersSection["queries"] = null;
  if (Array.isArray(s.queries))
    queries = {
      queries: queriesFromDoc(doc, lines, file, ["triggers", "queries"]),
      source: `${file} (triggers.queries)`,
    };
  else if (typeof s.queries === "string") {
    const qf = rel(s.queries);
    let qtext: string;
    try {
      qtext = await readFile(qf, "utf8");
    } catch {
      throw new InputError(`${file}: triggers.queries: cannot read ${qf}`, {
        file,
        field: "triggers.queries",
      });
    }
    const q = parseDoc(qtext, qf);
    queries = { queries: queriesFromDoc(q.doc, q.lines, qf), source: qf };
  }
  return {
    manifest: file,
    queries,
    count: s.count,
    neighbours: list(s.neighbours)?.map(rel),
    decoys: s.decoys,
    descriptionFiles: list(s.descriptionFiles ?? s.description_files)?.map(rel),
    maxTurns: s.maxTurns ?? s.max_turns,
    timeoutSec: s.timeoutSec ?? s.timeout_sec,
    maxAttempts: s.maxAttempts ?? s.max_attempts,
  };
}

/** The `triggers:` section of the Skill folder's eval manifest, if it has a manifest with one. */
export async function readTriggersSection(skillDir: string): Promise<TriggersSection | null> {
  const file = await findManifest(skillDir);
  if (!file || path.resolve(file) === path.resolve(skillDir)) return null;
  return parseTriggersSection(await readFile(file, "utf8"), file);
}
