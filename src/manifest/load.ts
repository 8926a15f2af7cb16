import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type YAML from "yaml";
import { isMap, isSeq, isScalar, type LineCounter, type Node } from "yaml";
import type { z } from "zod";
import { InputError } from "../core/errors.js";
import { closest } from "../suite/fields.js";
import { problemsToError, type Problem } from "../suite/problems.js";
import { parseYamlDocument, yamlToJs } from "../util/yaml.js";
import { parseGates } from "./gates.js";
import { generatedRuleProblems, manifestPathProblems } from "./paths.js";
import {
  InlineTaskSchema,
  ManifestSchema,
  OPAQUE_KEYS,
  SourceTaskSchema,
  type Manifest,
  type TaskEntry,
} from "./schema.js";

/**
 * Finding and reading a Skill's eval manifest. Every problem is collected and reported
 * at once, each with the file, the field (as a YAML path, keys as written) and the line.
 */

export const MANIFEST_CANDIDATES = ["eval.yaml", "eval.yml", "comet/eval.yaml", "comet/eval.yml"];

export interface LoadedManifest {
  /** Absolute path of the manifest file. */
  file: string;
  /** The Skill folder under evaluation (absolute). */
  skillDir: string;
  manifest: Manifest;
  /** `evaluation.tasks`, each parsed with its form's schema. */
  tasks: TaskEntry[];
  /** The line of a field (normalized path), for errors found after loading; absent when synthesized. */
  lineOf?: (at: readonly PropertyKey[]) => number | undefined;
}

export interface LoadManifestOptions {
  /**
   * A frozen set of generated tasks (generate.ts): the generator's rules apply again (inline
   * tasks only, 2 to 4, workspaces inline, no folders), so a hand edit cannot do what the
   * generator's answer may not.
   */
  generated?: boolean;
}

async function isFile(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The manifest of a Skill folder (or the manifest file itself); null when it has none. */
export async function findManifest(target: string): Promise<string | null> {
  const abs = path.resolve(target);
  if (await isFile(abs)) return abs;
  for (const c of MANIFEST_CANDIDATES) {
    const f = path.join(abs, c);
    if (await isFile(f)) return f;
  }
  return null;
}

/** The Skill folder a manifest belongs to: `<skill>/eval.yaml` or `<skill>/comet/eval.yaml`. */
export function ownerDir(manifestFile: string): string {
  const dir = path.dirname(manifestFile);
  return path.basename(dir) === "comet" ? path.dirname(dir) : dir;
}

const camel = (k: string): string => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * snake_case keys → camelCase (the original accepts both). Values under OPAQUE_KEYS are
 * left as written. Giving both spellings of one key is an error.
 */
export function normalizeKeys(
  v: unknown,
  at: (string | number)[],
  problems: { field: string; message: string }[],
): unknown {
  if (Array.isArray(v)) return v.map((x, i) => normalizeKeys(x, [...at, i], problems));
  if (typeof v !== "object" || v === null || v instanceof Date) return v;
  const out: Record<string, unknown> = {};
  const from: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    const key = k.startsWith("$") ? k : camel(k);
    if (key in out) {
      problems.push({
        field: formatField([...at, k]),
        message: `both ${from[key]} and ${k} are given; keep one`,
      });
      continue;
    }
    from[key] = k;
    out[key] = OPAQUE_KEYS.has(key) ? x : normalizeKeys(x, [...at, k], problems);
  }
  return out;
}

function formatField(segs: readonly PropertyKey[]): string {
  let s = "";
  for (const p of segs) {
    if (typeof p === "number") s += `[${p}]`;
    else s += s === "" ? String(p) : `.${String(p)}`;
  }
  return s || "(top level)";
}

/** The YAML node at a normalized path (keys matched in either spelling), for its line. */
function nodeAt(
  doc: YAML.Document,
  segs: readonly PropertyKey[],
): { node: Node | null; keys: string[] } {
  let node: unknown = doc.contents;
  const keys: string[] = [];
  for (const seg of segs) {
    if (typeof seg === "number" && isSeq(node)) {
      const next: unknown = node.items[seg];
      if (!next) break;
      node = next;
      keys.push(`[${seg}]`);
      continue;
    }
    if (typeof seg === "string" && isMap(node)) {
      const pair = node.items.find(
        (p) => isScalar(p.key) && (p.key.value === seg || camel(String(p.key.value)) === seg),
      );
      if (!pair) break;
      keys.push(String(isScalar(pair.key) ? pair.key.value : seg));
      node = pair.value ?? pair.key;
      continue;
    }
    break;
  }
  return { node: (node as Node | null) ?? null, keys };
}

function lineOf(
  doc: YAML.Document,
  lc: LineCounter,
  segs: readonly PropertyKey[],
): number | undefined {
  // A field that is a key of a mapping is on its key's line (a block value starts below it).
  const last = segs.at(-1);
  if (typeof last === "string") {
    const parent = nodeAt(doc, segs.slice(0, -1));
    if (parent.keys.length === segs.length - 1 && isMap(parent.node)) {
      const pair = parent.node.items.find(
        (p) => isScalar(p.key) && (p.key.value === last || camel(String(p.key.value)) === last),
      );
      const keyOff = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
      if (keyOff !== undefined) return lc.linePos(keyOff).line;
    }
  }
  const { node } = nodeAt(doc, segs);
  const off = node?.range?.[0];
  return off === undefined ? undefined : lc.linePos(off).line;
}

/** Field as the user wrote it (original key spelling). */
function fieldAsWritten(doc: YAML.Document, segs: readonly PropertyKey[]): string {
  const { keys } = nodeAt(doc, segs);
  const rest = segs.slice(keys.length);
  return formatField([
    ...keys.map((k) => (k.startsWith("[") ? Number(k.slice(1, -1)) : k)),
    ...rest,
  ]);
}

/** Zod issues → problems; a union reports the branch that got furthest. */
function issueProblems(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
  input: unknown,
): { path: PropertyKey[]; message: string }[] {
  const out: { path: PropertyKey[]; message: string }[] = [];
  for (const iss of issues) {
    const at = [...prefix, ...iss.path];
    if (iss.code === "invalid_union" && iss.errors.length > 0) {
      const branches = iss.errors.filter(
        (b) => !(b.length === 1 && b[0]?.code === "invalid_type" && b[0].path.length === 0),
      );
      const best = branches[0] ?? iss.errors[0] ?? [];
      out.push(...issueProblems(best, at, input));
      continue;
    }
    if (iss.code === "unrecognized_keys") {
      for (const k of iss.keys) {
        const known = at.some((seg) => seg === "tools" || seg === "steps")
          ? trajectoryKeysHint(k)
          : knownKeysHint(iss, k);
        out.push({ path: [...at, k], message: `unknown field${known}` });
      }
      continue;
    }
    out.push({ path: at, message: iss.message });
  }
  return out;
}

/** The keys of `tools:` and `steps:`, read as written (snake_case; docs/trajectory.md). */
function trajectoryKeysHint(key: string): string {
  const all = ["contains", "not_contains", "sequence", "max_calls", "ordered", "expect"];
  const step = ["forbidden", "name", "tool", "args", "command", "writes", "reads_skill_file"];
  const hint = closest(
    key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    [...all, ...step],
  );
  return hint ? ` (did you mean ${hint}?)` : "";
}

function knownKeysHint(_iss: z.core.$ZodIssue, key: string): string {
  const all = [
    "apiVersion",
    "kind",
    "metadata",
    "skill",
    "evaluation",
    "interaction",
    "execution",
    "judge",
    "reporting",
    "triggers",
    "name",
    "description",
    "source",
    "profile",
    "tasks",
    "recommendedTasks",
    "baselineTreatments",
    "qualityGates",
    "judgeAlphaMin",
    "mode",
    "samples",
    "requiredSkills",
    "expectedArtifacts",
    "trials",
    "prompt",
    "workspace",
    "expect",
    "rubric",
    "files",
    "absent",
    "contains",
    "notContains",
    "json",
    "commands",
    "skillInvoked",
    "run",
    "timeout",
    "mode",
    "maxTurns",
    "simulatorPrompt",
    "path",
    "git",
    "equals",
    "timeoutSec",
    "category",
  ];
  const hint = closest(camel(key), all);
  return hint ? ` (did you mean ${hint}?)` : "";
}

/** Read and check a manifest. Throws one InputError listing every problem. */
export async function loadManifest(
  file: string,
  opts: LoadManifestOptions = {},
): Promise<LoadedManifest> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch {
    throw new InputError(`${abs}: cannot read the eval manifest`, { file: abs });
  }
  const { doc, lines: lc } = parseYamlDocument(text, abs);
  const raw: unknown = yamlToJs(doc, lc, abs);
  const problems: Problem[] = [];
  const add = (segs: readonly PropertyKey[], message: string): void => {
    const field = fieldAsWritten(doc, segs);
    const line = lineOf(doc, lc, segs);
    problems.push({
      file: abs,
      field,
      line,
      message: `${field}: ${message}${line === undefined ? "" : ` (line ${line})`}`,
    });
  };
  const keyProblems: { field: string; message: string }[] = [];
  const norm = normalizeKeys(raw, [], keyProblems);
  for (const p of keyProblems)
    problems.push({ file: abs, field: p.field, message: `${p.field}: ${p.message}` });
  if (typeof norm !== "object" || norm === null || Array.isArray(norm))
    throw new InputError(`${abs}: expected a mapping (apiVersion, kind, metadata, skill, …)`, {
      file: abs,
    });
  const parsed = ManifestSchema.safeParse(norm);
  if (!parsed.success) {
    for (const p of issueProblems(parsed.error.issues, [], norm)) add(p.path, p.message);
  }
  if (parsed.success)
    for (const e of parseGates(parsed.data.evaluation?.qualityGates ?? {}).errors)
      add(["evaluation", "qualityGates", e.key], e.message);
  const tasks: TaskEntry[] = [];
  const indexed: { index: number; task: TaskEntry }[] = [];
  const rawTasks = parsed.success ? (parsed.data.evaluation?.tasks ?? []) : [];
  const seen = new Map<string, number>();
  rawTasks.forEach((t, i) => {
    const at = ["evaluation", "tasks", i];
    const isSource = typeof t === "object" && t !== null && "source" in t;
    const r = isSource ? SourceTaskSchema.safeParse(t) : InlineTaskSchema.safeParse(t);
    if (!r.success) {
      for (const p of issueProblems(r.error.issues, at, t)) add(p.path, p.message);
      return;
    }
    const name = r.data.name;
    if (name !== undefined) {
      const prev = seen.get(name);
      if (prev !== undefined)
        add(
          [...at, "name"],
          `task name ${JSON.stringify(name)} is also used by evaluation.tasks[${prev}]`,
        );
      else seen.set(name, i);
    }
    tasks.push(r.data);
    indexed.push({ index: i, task: r.data });
  });
  if (problems.length > 0 || !parsed.success)
    throw problemsToError(`eval manifest ${abs}`, problems);
  const manifest = parsed.data;
  const owner = ownerDir(abs);
  const skillDir = manifest.skill.source
    ? path.resolve(path.dirname(abs), manifest.skill.source)
    : owner;
  const pathProblems = opts.generated
    ? generatedRuleProblems(manifest, indexed, rawTasks.length)
    : await manifestPathProblems({ file: abs, owner, skillDir, manifest, tasks: indexed });
  for (const p of pathProblems) add(p.at, p.message);
  if (problems.length > 0) throw problemsToError(`eval manifest ${abs}`, problems);
  return {
    file: abs,
    skillDir,
    manifest,
    tasks,
    lineOf: (at) => lineOf(doc, lc, at),
  };
}
