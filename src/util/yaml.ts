import YAML, {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Document,
  type DocumentOptions,
  type Node,
  type ParseOptions,
  type SchemaOptions,
} from "yaml";
import { InputError } from "../core/errors.js";

/**
 * The one way user YAML becomes data (eval manifests, treatment files, trigger query files,
 * model scripts, frozen generated tasks), so every file gets the same limits and the same
 * errors. yaml throws a bare ReferenceError from `toJS` for an alias bomb (aliases that expand
 * to millions of nodes) or an alias to an anchor that is not set before it: those become
 * InputErrors naming the file, the field and the line of the alias (exit 2).
 */

/**
 * Nodes that one anchor may contribute through its aliases (yaml counts the aliased node's size
 * times the number of its aliases). A treatment file merging a base of a few keys into a hundred
 * treatments stays far below; a "billion laughs" document hits it on its second level.
 */
export const YAML_MAX_ALIAS_COUNT = 1000;

type Options = ParseOptions & DocumentOptions & SchemaOptions;

/** Parse a document; a syntax error is an InputError with its line and column. */
export function parseYamlDocument(
  text: string,
  file: string,
  opts: Options & { what?: string } = {},
): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const { what = "invalid YAML", ...rest } = opts;
  const doc = YAML.parseDocument(text, { prettyErrors: true, ...rest, lineCounter: lines });
  const [err] = doc.errors;
  if (err) {
    const pos = err.linePos?.[0];
    const reason = (err.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    throw new InputError(
      `${file}: ${pos ? `line ${pos.line}, column ${pos.col}: ` : ""}${what}: ${reason}`,
      { file, ...(pos ? { line: pos.line } : {}) },
    );
  }
  return { doc, lines };
}

function fieldOf(segs: readonly (string | number)[]): string {
  let s = "";
  for (const p of segs) s += typeof p === "number" ? `[${p}]` : s === "" ? p : `.${p}`;
  return s || "(top level)";
}

/** The first alias (in document order) that `pick` accepts, with its path. */
function findAlias(
  node: unknown,
  pick: (name: string) => boolean,
  segs: (string | number)[] = [],
): { segs: (string | number)[]; node: Node } | null {
  if (isAlias(node)) return pick(node.source) ? { segs, node } : null;
  if (isMap(node))
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : "?";
      const hit = findAlias(pair.key, pick, segs) ?? findAlias(pair.value, pick, [...segs, k]);
      if (hit) return hit;
    }
  if (isSeq(node))
    for (const [i, item] of node.items.entries()) {
      const hit = findAlias(item, pick, [...segs, i]);
      if (hit) return hit;
    }
  return null;
}

/** Every alias name, with how many times it is used. */
function aliasCounts(node: unknown, out = new Map<string, number>()): Map<string, number> {
  if (isAlias(node)) out.set(node.source, (out.get(node.source) ?? 0) + 1);
  else if (isMap(node))
    for (const pair of node.items) {
      aliasCounts(pair.key, out);
      aliasCounts(pair.value, out);
    }
  else if (isSeq(node)) for (const item of node.items) aliasCounts(item, out);
  return out;
}

/**
 * A parsed document (or one node of it) as plain data, with the alias limit. `at` is the path of
 * `node` in the document, for the field named in an error.
 */
export function yamlToJs(
  doc: Document,
  lines: LineCounter,
  file: string,
  node: unknown = doc.contents,
  at: readonly (string | number)[] = [],
): unknown {
  try {
    return isAlias(node) || isMap(node) || isSeq(node) || isScalar(node)
      ? node.toJS(doc, { maxAliasCount: YAML_MAX_ALIAS_COUNT })
      : node === doc.contents
        ? doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT })
        : node;
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    const unresolved = /Unresolved alias[^:]*: (.*)$/.exec(e.message)?.[1];
    let hit: ReturnType<typeof findAlias>;
    let why: string;
    if (unresolved !== undefined) {
      hit = findAlias(node, (n) => n === unresolved);
      why = `alias *${unresolved} names no anchor set before it (&${unresolved})`;
    } else {
      const counts = [...aliasCounts(node)].sort((a, b) => b[1] - a[1]);
      const top = counts[0]?.[0];
      hit = top === undefined ? null : findAlias(node, (n) => n === top);
      why = `the aliases expand to more than ${YAML_MAX_ALIAS_COUNT} nodes${top === undefined ? "" : ` (*${top}, used ${counts[0]?.[1]} times)`}; write the values out, or use fewer aliases`;
    }
    const off = hit?.node.range?.[0];
    const line = off === undefined ? undefined : lines.linePos(off).line;
    const field = fieldOf([...at, ...(hit?.segs ?? [])]);
    throw new InputError(
      `${file}: ${field}${line === undefined ? "" : ` (line ${line})`}: ${why}`,
      { file, field, ...(line === undefined ? {} : { line }) },
    );
  }
}
