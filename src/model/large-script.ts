/**
 * Large model scripts (docs/model-script.md, "Large scripts") in bounded memory. Parsing a
 * whole YAML document keeps a node per value with its source range: a 20 MB script took 1.6 GB
 * and over a minute. Above LARGE_SCRIPT_CHARS a JSON script is read with JSON.parse, and a YAML
 * one is read one rule at a time: its top-level block list `rules:` is cut into items (a line
 * starting at the items' indentation with `-` begins one), each item is parsed as its own small
 * document, and the rest of the file (with `rules: []`) as another. Pure.
 */
import { LineCounter, parseDocument } from "yaml";
import { errorMessage, InputError } from "../core/errors.js";

/** Scripts up to this many characters are parsed whole, with exact line numbers. */
export const LARGE_SCRIPT_CHARS = 1_000_000;
/** One rule of a large YAML script may be at most this long (a longer reply: write the script as JSON). */
const MAX_YAML_RULE_CHARS = 2_000_000;
/** Rules parsed together as one small YAML document. */
const BATCH_CHARS = 4_000;

export interface LargeScriptValue {
  value: unknown;
  /** The 1-based line where rule `i` starts (null for JSON scripts). */
  ruleLine: (i: number) => number | null;
}

interface Line {
  start: number;
  end: number;
}

function* linesOf(text: string): Generator<Line> {
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    yield { start, end };
    start = end + 1;
  }
}

const isBlankOrComment = (s: string): boolean => /^\s*(#.*)?$/.test(s);

function yamlValue(text: string, file: string, firstLine: number): unknown {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  // Copied through JSON: the values yaml builds keep its document's nodes alive (on a 20 MB
  // script, 320 MB more live heap than the same value from JSON.parse).
  if (doc.errors.length === 0) {
    try {
      return JSON.parse(JSON.stringify(doc.toJS() ?? null)) as unknown;
    } catch (e) {
      // An alias whose anchor is in another batch of rules.
      throw new InputError(
        `model script ${file}:${firstLine}: not valid YAML here: ${errorMessage(e)} (a large YAML script is read a few rules at a time: share no anchors or aliases between rules, or write the script as JSON)`,
        { file, line: firstLine },
      );
    }
  }
  // Only for the message: parse again with a line counter.
  const lineCounter = new LineCounter();
  const again = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const e = again.errors[0] ?? doc.errors[0];
  const line = firstLine + (e ? lineCounter.linePos(e.pos[0]).line : 1) - 1;
  throw new InputError(
    `model script ${file}:${line}: not valid YAML: ${e?.message ?? "parse error"}`,
    {
      file,
      line,
    },
  );
}

/** The value of a large script, or throws InputError naming the file (and line) and the cause. */
export function parseLargeScript(text: string, file: string): LargeScriptValue {
  if (/^\s*[{[]/.test(text)) {
    try {
      return { value: JSON.parse(text) as unknown, ruleLine: () => null };
    } catch (e) {
      throw new InputError(`model script ${file}: not valid JSON: ${errorMessage(e)}`, { file });
    }
  }
  const mb = (text.length / 1e6).toFixed(1);
  const refuse = (why: string, line?: number): never => {
    throw new InputError(
      `model script ${file}${line ? `:${line}` : ""}: ${why} (a YAML script of ${mb} MB is read one rule at a time: keep "rules:" a block list at the top level, with no anchors or aliases shared between rules; or write the script as JSON)`,
      { file, line },
    );
  };
  let lineNo = 0;
  let rulesAt: Line | null = null;
  let sectionEnd = text.length;
  let indent = -1;
  const items: Array<{ start: number; line: number }> = [];
  for (const l of linesOf(text)) {
    lineNo += 1;
    const s = text.slice(l.start, Math.min(l.end, l.start + 200));
    if (rulesAt === null) {
      if (/^rules:\s*(#.*)?$/.test(s)) rulesAt = l;
      continue;
    }
    if (isBlankOrComment(s)) continue;
    const lead = /^ */.exec(s)?.[0].length ?? 0;
    if (indent === -1) {
      if (!/^ *-( |$)/.test(s)) refuse(`"rules:" is not followed by a block list`, lineNo);
      indent = lead;
    }
    if (lead === indent && /^ *-( |$)/.test(s)) items.push({ start: l.start, line: lineNo });
    else if (lead < indent || (lead === 0 && indent === 0)) {
      sectionEnd = l.start;
      break;
    }
  }
  if (rulesAt === null) return refuse(`no top-level "rules:" list`);
  const rest = `${text.slice(0, rulesAt.start)}rules: []\n${text.slice(sectionEnd)}`;
  const head = yamlValue(rest, file, 1);
  if (head === null || typeof head !== "object" || Array.isArray(head))
    return refuse("the top level is not a mapping");
  // Items are parsed in batches of about BATCH_CHARS: one small document each, whatever the file's size.
  const rules: unknown[] = [];
  let i = 0;
  while (i < items.length) {
    const first = items[i];
    if (first === undefined) break;
    let j = i + 1;
    while (j < items.length && (items[j]?.start ?? sectionEnd) - first.start < BATCH_CHARS) j += 1;
    const end = items[j]?.start ?? sectionEnd;
    if (j === i + 1 && end - first.start > MAX_YAML_RULE_CHARS)
      refuse(`rule ${i} is ${((end - first.start) / 1e6).toFixed(1)} MB of YAML`, first.line);
    const chunk = text.slice(first.start, end);
    const dedented = indent === 0 ? chunk : chunk.replace(new RegExp(`^ {${indent}}`, "gm"), "");
    const v = yamlValue(dedented, file, first.line);
    if (!Array.isArray(v) || v.length !== j - i)
      refuse(`rules ${i} to ${j - 1} do not read as ${j - i} list items`, first.line);
    else rules.push(...(v as unknown[]));
    i = j;
  }
  return {
    value: { ...head, rules },
    ruleLine: (i) => items[i]?.line ?? null,
  };
}
