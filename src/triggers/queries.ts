/**
 * Trigger queries (docs/triggers.md) from a YAML or JSON file (a list of
 * `{query, should_trigger}`, or `{queries: [...]}`), from the `triggers:` section of a Skill's
 * eval manifest, or from the generator's answer. Every error names the file, the field and
 * the line.
 */
import { readFile } from "node:fs/promises";
import YAML, { LineCounter, isNode, type Document } from "yaml";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { yamlToJs } from "../util/yaml.js";
import { QUERY_KINDS, type TriggerQuery } from "./types.js";

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const QuerySchema = z
  .object({
    id: z
      .string()
      .regex(ID_PATTERN, "letters, digits, '.', '_' or '-', starting with a letter or digit")
      .optional(),
    // A NUL cannot be passed to an agent's argv or environment: every probe would fail.
    query: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .refine((q) => !q.includes("\0"), "must not contain a NUL character"),
    should_trigger: z.boolean(),
    /** explicit, implicit, contextual or negative: how the query asks (optional, for reading). */
    kind: z.enum(QUERY_KINDS).optional(),
  })
  .strict();

const ListSchema = z.array(QuerySchema).min(1, "no queries");
const WrappedSchema = z.object({ queries: ListSchema }).strict();

function fieldName(p: readonly PropertyKey[]): string {
  let out = "";
  for (const k of p) out += typeof k === "number" ? `[${k}]` : out ? `.${String(k)}` : String(k);
  return out || "(top level)";
}

/** A YAML/JSON document with its line counter; syntax errors are input errors. */
export function parseDoc(text: string, file: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: lines, prettyErrors: true });
  const [err] = doc.errors;
  if (err) {
    const pos = err.linePos?.[0];
    throw new InputError(
      `${file}: ${pos ? `line ${pos.line}: ` : ""}invalid YAML/JSON: ${(err.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`,
      { file, line: pos?.line },
    );
  }
  return { doc, lines };
}

/** The line of the deepest node of `at` that exists in the document. */
export function lineOf(
  doc: Document,
  lines: LineCounter,
  at: readonly PropertyKey[],
): number | undefined {
  for (let n = at.length; n >= 0; n--) {
    const node = doc.getIn(at.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

/** An input error for the first (deepest) problem of a zod result, with field and line. */
export function zodInputError(
  error: z.ZodError,
  file: string,
  at: readonly PropertyKey[],
  doc: Document,
  lines: LineCounter,
): InputError {
  const deepest = error.issues.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  // An unknown field is named in the path, so the message points at its own line.
  const issue =
    deepest.code === "unrecognized_keys" && deepest.keys[0] !== undefined
      ? { ...deepest, path: [...deepest.path, deepest.keys[0]], message: "unknown field" }
      : deepest;
  const full = [...at, ...issue.path];
  const line = lineOf(doc, lines, full);
  const field = fieldName(full);
  return new InputError(
    `${file}: ${field}${line !== undefined ? ` (line ${line})` : ""}: ${issue.message}`,
    {
      file,
      field,
      line,
    },
  );
}

/**
 * The queries at `at` in a parsed document (the whole document for a query file):
 * a list, or `{queries: [...]}`. Ids default to q01, q02, …; ids and query texts are unique.
 */
export function queriesFromDoc(
  doc: Document,
  lines: LineCounter,
  file: string,
  at: readonly PropertyKey[] = [],
): TriggerQuery[] {
  const node = at.length === 0 ? doc.contents : doc.getIn(at as unknown[], true);
  const raw: unknown = isNode(node)
    ? yamlToJs(
        doc,
        lines,
        file,
        node,
        at.filter((k): k is string | number => typeof k !== "symbol"),
      )
    : node;
  // A list, or {queries: [...]}: the shape is chosen first so that errors point inside it.
  const wrapped = !Array.isArray(raw);
  const parsed = wrapped ? WrappedSchema.safeParse(raw) : ListSchema.safeParse(raw);
  if (!parsed.success) throw zodInputError(parsed.error, file, at, doc, lines);
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.queries;
  const width = Math.max(2, String(list.length).length);
  const out: TriggerQuery[] = list.map((q, i) => ({
    id: q.id ?? `q${String(i + 1).padStart(width, "0")}`,
    query: q.query,
    should_trigger: q.should_trigger,
    ...(q.kind ? { kind: q.kind } : {}),
  }));
  const base = wrapped ? [...at, "queries"] : [...at];
  const seenIds = new Map<string, number>();
  const seenText = new Map<string, number>();
  out.forEach((q, i) => {
    const here = [...base, i];
    const prevId = seenIds.get(q.id);
    if (prevId !== undefined)
      throw new InputError(
        `${file}: ${fieldName([...here, "id"])}: ${q.id} is also the id of ${fieldName([...base, prevId])}`,
        { file, field: fieldName([...here, "id"]), line: lineOf(doc, lines, [...here, "id"]) },
      );
    const prevText = seenText.get(q.query.trim());
    if (prevText !== undefined)
      throw new InputError(
        `${file}: ${fieldName([...here, "query"])}: the same query as ${fieldName([...base, prevText])} (repeat a query with --count instead)`,
        {
          file,
          field: fieldName([...here, "query"]),
          line: lineOf(doc, lines, [...here, "query"]),
        },
      );
    seenIds.set(q.id, i);
    seenText.set(q.query.trim(), i);
  });
  return out;
}

/** Parse query-file text. `file` is only used in messages. Pure. */
export function parseQueries(text: string, file: string): TriggerQuery[] {
  const { doc, lines } = parseDoc(text, file);
  return queriesFromDoc(doc, lines, file);
}

export async function loadQueries(file: string, field = "--queries"): Promise<TriggerQuery[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new InputError(`${field} ${file}: cannot read the file`, { file, field });
  }
  return parseQueries(text, file);
}
