/**
 * Trigger queries from a YAML or JSON file (docs/triggers.md): a list of
 * `{query, should_trigger}` (optionally `id`), or `{queries: [...]}`. Every
 * error names the file, the field and the line.
 */
import { readFile } from "node:fs/promises";
import YAML, { LineCounter, isNode } from "yaml";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import type { TriggerQuery } from "./types.js";

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const QuerySchema = z
  .object({
    id: z
      .string()
      .regex(ID_PATTERN, "letters, digits, '.', '_' or '-', starting with a letter or digit")
      .optional(),
    query: z.string().trim().min(1, "must not be empty"),
    should_trigger: z.boolean(),
  })
  .strict();

const ListSchema = z.array(QuerySchema).min(1, "no queries");
const WrappedSchema = z.object({ queries: ListSchema }).strict();

function fieldName(p: readonly PropertyKey[]): string {
  let out = "";
  for (const k of p) out += typeof k === "number" ? `[${k}]` : out ? `.${String(k)}` : String(k);
  return out || "(top level)";
}

/** Parse query-file text. `file` is only used in messages. Pure. */
export function parseQueries(text: string, file: string): TriggerQuery[] {
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
  const raw: unknown = doc.toJS();
  // A list, or {queries: [...]}: the shape is chosen first so that errors point inside it.
  const parsed = Array.isArray(raw) ? ListSchema.safeParse(raw) : WrappedSchema.safeParse(raw);
  if (!parsed.success) {
    const deepest = parsed.error.issues.reduce((a, b) => (b.path.length > a.path.length ? b : a));
    // An unknown field is named in the path, so the message points at its own line.
    const issue =
      deepest.code === "unrecognized_keys" && deepest.keys[0] !== undefined
        ? { ...deepest, path: [...deepest.path, deepest.keys[0]], message: "unknown field" }
        : deepest;
    // The deepest node of the path that exists in the document gives the line.
    let line: number | undefined;
    for (let n = issue.path.length; n >= 0 && line === undefined; n--) {
      const node = doc.getIn(issue.path.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
    }
    const field = fieldName(issue.path);
    throw new InputError(
      `${file}: ${field}${line !== undefined ? ` (line ${line})` : ""}: ${issue.message}`,
      { file, field, line },
    );
  }
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.queries;
  const width = String(list.length).length < 2 ? 2 : String(list.length).length;
  const out: TriggerQuery[] = list.map((q, i) => ({
    id: q.id ?? `q${String(i + 1).padStart(width, "0")}`,
    query: q.query,
    should_trigger: q.should_trigger,
  }));
  const prefix = Array.isArray(parsed.data) ? "" : "queries";
  const seenIds = new Map<string, number>();
  const seenText = new Map<string, number>();
  out.forEach((q, i) => {
    const field = `${prefix}[${i}]`;
    const prevId = seenIds.get(q.id);
    if (prevId !== undefined)
      throw new InputError(`${file}: ${field}.id: ${q.id} is also the id of ${prefix}[${prevId}]`, {
        file,
        field: `${field}.id`,
      });
    const prevText = seenText.get(q.query.trim());
    if (prevText !== undefined)
      throw new InputError(
        `${file}: ${field}.query: the same query as ${prefix}[${prevText}] (repeat a query with --count instead)`,
        { file, field: `${field}.query` },
      );
    seenIds.set(q.id, i);
    seenText.set(q.query.trim(), i);
  });
  return out;
}

export async function loadQueries(file: string): Promise<TriggerQuery[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new InputError(`--queries ${file}: cannot read the file`, { file, field: "--queries" });
  }
  return parseQueries(text, file);
}
