import { readFile } from "node:fs/promises";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError, errorMessage } from "../core/errors.js";
import { yamlToJs } from "../util/yaml.js";
import { LARGE_SCRIPT_CHARS, parseLargeScript } from "./large-script.js";
import { normalizeScript } from "./normalize-script.js";
import { ModelScriptFileSchema } from "./script-schema.js";
import type { ModelScript } from "./script.js";

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

export interface ScriptProblem {
  /** e.g. `rules[2].steps[0].tool_use.name` ('' for the top level). */
  path: string;
  message: string;
  /** 1-based line in the file, when known. */
  line: number | null;
}

function formatPath(path: readonly PathKey[]): string {
  let out = "";
  for (const k of path) {
    if (typeof k === "number") out += `[${k}]`;
    else out += out === "" ? String(k) : `.${String(k)}`;
  }
  return out;
}

function cleanMessage(m: string): string {
  const msg = m.replace(/^Invalid input: /, "");
  const missing = /^expected (.+), received undefined$/.exec(msg);
  return missing ? `required (${missing[1]})` : msg;
}

/** The union branch failed because the value has the wrong type altogether. */
function isRootMismatch(issue: Issue): boolean {
  if (issue.path.length !== 0) return false;
  if (issue.code === "invalid_type" || issue.code === "invalid_value") return true;
  if (issue.code === "invalid_union")
    return issue.errors.length > 0 && issue.errors.every((b) => b.some(isRootMismatch));
  return false;
}

/** Flatten zod issues into path + message pairs, following the union branch that fits the value's shape. */
function flattenIssues(
  issues: readonly Issue[],
  prefix: readonly PathKey[] = [],
): Array<{ path: PathKey[]; message: string }> {
  const out: Array<{ path: PathKey[]; message: string }> = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union") {
      const candidates = issue.errors.filter((b) => !b.some(isRootMismatch));
      const rank = (b: readonly Issue[]): number =>
        (b.some((i) => i.code === "unrecognized_keys" && i.path.length === 0) ? 1000 : 0) +
        b.length;
      const best = [...candidates].sort((a, b) => rank(a) - rank(b))[0];
      if (best) out.push(...flattenIssues(best, path));
      else out.push({ path, message: cleanMessage(issue.message) });
    } else if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: "unknown field" });
    } else {
      out.push({ path, message: cleanMessage(issue.message) });
    }
  }
  return out;
}

/**
 * Parse and validate script text (YAML; JSON is accepted as YAML). Pure.
 * Throws InputError naming the file, the path inside it, the line and what is wrong.
 */
export function parseModelScriptText(text: string, file: string): ModelScript {
  if (text.length > LARGE_SCRIPT_CHARS) {
    const { value, ruleLine } = parseLargeScript(text, file);
    // One schema pass (the problems, with the line of their rule, only when it fails).
    const parsed = ModelScriptFileSchema.safeParse(value);
    if (parsed.success) return normalizeScript(parsed.data, file);
    const problems = validateModelScript(value, (path) =>
      path[0] === "rules" && typeof path[1] === "number" ? ruleLine(path[1]) : null,
    );
    throw scriptError(file, problems);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e ? lineCounter.linePos(e.pos[0]).line : undefined;
    throw new InputError(
      `model script ${file}${line ? `:${line}` : ""}: not valid YAML/JSON: ${e?.message ?? "parse error"}`,
      {
        file,
        line,
      },
    );
  }
  const value: unknown = yamlToJs(doc, lineCounter, file);
  const problems = validateModelScript(value, (path) => {
    const node: unknown = doc.getIn(path, true);
    if (node && typeof node === "object" && "range" in node && Array.isArray(node.range)) {
      const start: unknown = node.range[0];
      if (typeof start === "number") return lineCounter.linePos(start).line;
    }
    return null;
  });
  if (problems.length > 0) throw scriptError(file, problems);
  return normalizeScript(ModelScriptFileSchema.parse(value), file);
}

/** Validate an already-parsed value; returns the problems (empty when valid). */
export function validateModelScript(
  value: unknown,
  lineOf: (path: PathKey[]) => number | null = () => null,
): ScriptProblem[] {
  if (value === null || value === undefined)
    return [{ path: "", message: "the file is empty", line: null }];
  const r = ModelScriptFileSchema.safeParse(value);
  if (r.success) return [];
  const seen = new Set<string>();
  const out: ScriptProblem[] = [];
  for (const p of flattenIssues(r.error.issues)) {
    const path = formatPath(p.path);
    const key = `${path}\0${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let line: number | null = null;
    for (let n = p.path.length; n >= 0 && line === null; n--) line = lineOf(p.path.slice(0, n));
    out.push({ path, message: p.message, line });
  }
  return out;
}

function scriptError(file: string, problems: ScriptProblem[]): InputError {
  const shown = problems
    .slice(0, 10)
    .map((p) => `  ${p.path || "(top level)"}${p.line ? ` (line ${p.line})` : ""}: ${p.message}`);
  if (problems.length > 10) shown.push(`  ... and ${problems.length - 10} more`);
  const first = problems[0];
  return new InputError(`model script ${file} is invalid:\n${shown.join("\n")}`, {
    file,
    field: first?.path,
    line: first?.line ?? undefined,
  });
}

/** Parse a value (already read from JSON/YAML) into a ModelScript. Pure; throws InputError. */
export function parseModelScript(value: unknown, file = "<inline script>"): ModelScript {
  const problems = validateModelScript(value);
  if (problems.length > 0) throw scriptError(file, problems);
  return normalizeScript(ModelScriptFileSchema.parse(value), file);
}

/** Read and validate a model script file (YAML or JSON). */
export async function loadModelScript(file: string): Promise<ModelScript> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`model script ${file}: cannot read: ${errorMessage(e)}`, { file });
  }
  return parseModelScriptText(text, file);
}
