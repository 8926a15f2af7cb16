/**
 * Model prices: the versioned table in data/pricing.yaml (or a user's `--pricing FILE`), a model
 * name's price, and the dollars of a token count. Estimates and budgets price tokens here, so a
 * model the table does not know is reported as unpriced, never guessed (the format: the header of
 * data/pricing.yaml).
 * Loading reads one file; the lookups are pure.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { isMap, isNode, isScalar, type Document, type LineCounter } from "yaml";
import { z } from "zod";
import { InputError, errorMessage } from "../core/errors.js";
import { parseYamlDocument, yamlToJs } from "../util/yaml.js";

/** Dollars per million tokens; a price must be a finite number at or above zero. */
const Dollars = z.number().nonnegative();

const PriceSchema = z
  .object({
    /** Name prefixes that take this price (dated snapshots, dotted spellings); the key always does. */
    match: z.array(z.string().min(1)).optional(),
    input: Dollars,
    output: Dollars,
    cache_read: Dollars,
    /** Left out where the provider bills writing the cache as plain input. */
    cache_write: Dollars.optional(),
  })
  .strict();

const TableSchema = z
  .object({
    version: z.union([z.string().min(1), z.number(), z.date()]),
    source: z.string().optional(),
    models: z.record(z.string().min(1), PriceSchema),
  })
  .strict();

/** Dollars per million tokens of each kind. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_write: number;
}

export interface PricingTable {
  /** The table's `version` (a date, as the file says it): reports record which table priced them. */
  readonly version: string;
  /** The file it came from, for messages. */
  readonly file: string;
  readonly models: ReadonlyMap<string, ModelPrice>;
  /** Every name prefix that prices a model (keys included), longest first. */
  readonly prefixes: readonly { readonly prefix: string; readonly model: string }[];
}

/** Token counts by kind, as an agent reports them for a run or a model. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_write: number;
}

export type Priced =
  | { readonly priced: true; readonly usd: number; readonly priced_as: string }
  | { readonly priced: false; readonly model: string };

/** The table shipped with skillbench. */
function defaultPricingFile(): string {
  return fileURLToPath(new URL("../../data/pricing.yaml", import.meta.url));
}

function fieldOf(p: readonly PropertyKey[]): string {
  let s = "";
  for (const k of p) s += typeof k === "number" ? `[${k}]` : s === "" ? String(k) : `.${String(k)}`;
  return s || "(top level)";
}

/** The line of the deepest node on `at` that the document has. */
function lineAt(doc: Document, lines: LineCounter, at: readonly PropertyKey[]): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const k of at) {
    if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
    if (!isMap(node)) break;
    const pair = node.items.find((it) => isScalar(it.key) && String(it.key.value) === String(k));
    if (!pair) break;
    node = pair.value;
  }
  if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
  return line;
}

/** Parse a pricing table's text. Every error names the file, the field and the line. */
export function parsePricing(text: string, file: string): PricingTable {
  const { doc, lines } = parseYamlDocument(text, file);
  const parsed = TableSchema.safeParse(yamlToJs(doc, lines, file));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path ?? [];
    const field = fieldOf(at);
    const line = lineAt(doc, lines, at);
    throw new InputError(
      `${file}: ${field}${line === undefined ? "" : ` (line ${line})`}: ${issue?.message ?? "invalid pricing table"}`,
      { file, field, ...(line === undefined ? {} : { line }) },
    );
  }
  const t = parsed.data;
  const models = new Map<string, ModelPrice>();
  const prefixes: { prefix: string; model: string }[] = [];
  const owner = new Map<string, string>();
  for (const [name, p] of Object.entries(t.models)) {
    models.set(name, {
      input: p.input,
      output: p.output,
      cache_read: p.cache_read,
      cache_write: p.cache_write ?? p.input,
    });
    for (const prefix of new Set([name, ...(p.match ?? [])])) {
      const other = owner.get(prefix);
      if (other !== undefined && other !== name) {
        const field = `models.${name}.match`;
        const line = lineAt(doc, lines, ["models", name, "match"]);
        throw new InputError(
          `${file}: ${field}${line === undefined ? "" : ` (line ${line})`}: "${prefix}" already prices ${other}: a name must have one price`,
          { file, field, ...(line === undefined ? {} : { line }) },
        );
      }
      owner.set(prefix, name);
      prefixes.push({ prefix, model: name });
    }
  }
  prefixes.sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
  const version =
    t.version instanceof Date ? t.version.toISOString().slice(0, 10) : String(t.version);
  return { version, file, models, prefixes };
}

/** Read a pricing table: `file`, or the one shipped with skillbench. */
export async function loadPricing(file?: string): Promise<PricingTable> {
  const path = file ?? defaultPricingFile();
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new InputError(`${path}: cannot read the pricing table: ${errorMessage(e)}`, {
      file: path,
    });
  }
  return parsePricing(text, path);
}

/**
 * A prefix takes a name only at a word boundary: `claude-sonnet-4-5` prices
 * `claude-sonnet-4-5-20250929` but not `claude-sonnet-4-50`, and `gpt-5` never prices `gpt-5.1`.
 */
const BOUNDARY = new Set(["-", "@", ":", "_"]);

/**
 * The table's price for a model name: its exact entry, else the longest prefix ending at a
 * boundary. A provider in front (`anthropic/claude-sonnet-4-5`, as opencode names models) is
 * dropped first. null when the table does not know the model.
 */
export function priceFor(
  table: PricingTable,
  model: string,
): { readonly model: string; readonly price: ModelPrice } | null {
  const name = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  const exact = table.models.get(name);
  if (exact) return { model: name, price: exact };
  for (const { prefix, model: owner } of table.prefixes) {
    if (!name.startsWith(prefix)) continue;
    const next = name.charAt(prefix.length);
    if (next !== "" && !BOUNDARY.has(next)) continue;
    const price = table.models.get(owner);
    if (price) return { model: owner, price };
  }
  return null;
}

/** The dollars of `tokens` used on `model`, or that the model is unpriced. */
export function costOf(table: PricingTable, model: string, tokens: TokenCounts): Priced {
  const hit = priceFor(table, model);
  if (!hit) return { priced: false, model };
  const p = hit.price;
  const usd =
    (tokens.input * p.input +
      tokens.output * p.output +
      tokens.cache_read * p.cache_read +
      tokens.cache_write * p.cache_write) /
    1_000_000;
  return { priced: true, usd, priced_as: hit.model };
}
