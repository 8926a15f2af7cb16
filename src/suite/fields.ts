import type { Problems } from "./problems.js";

/**
 * Narrowing of parsed TOML/YAML (`unknown`) into typed values, with messages that
 * name the file, the field and the expected type. Pure apart from reporting into a
 * Problems collector. A wrong type is an error and the field reads as absent, so
 * loading can go on and report every problem at once.
 */

export type Flavor = "toml" | "yaml";
export type Segment = string | number;

export interface FileCtx {
  /** Path shown to the user. */
  file: string;
  flavor: Flavor;
  problems: Problems;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** `[validation].timeout`, `[setup].template_vars.x`, `[x].tags[1]` (TOML); `A.skills[0].path` (YAML). */
export function formatPath(flavor: Flavor, segs: readonly Segment[]): string {
  let out = "";
  segs.forEach((s, i) => {
    if (typeof s === "number") out += `[${s}]`;
    else if (i === 0 && flavor === "toml") out += `[${BARE_KEY.test(s) ? s : JSON.stringify(s)}]`;
    else {
      const k = BARE_KEY.test(s) || flavor === "yaml" ? s : JSON.stringify(s);
      out += i === 0 ? k : `.${k}`;
    }
  });
  return out;
}

/** Short description of a value for "got ..." messages. */
export function describe(v: unknown, flavor: Flavor): string {
  if (v === null || v === undefined) return "nothing";
  if (typeof v === "string") {
    const s = v.length > 40 ? `${v.slice(0, 40)}...` : v;
    return `string ${JSON.stringify(s)}`;
  }
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint")
    return `${typeof v} ${String(v)}`;
  if (Array.isArray(v)) return "a list";
  if (v instanceof Date) return "a date";
  return flavor === "toml" ? "a table" : "a mapping";
}

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const left = prev[j - 1] ?? 0;
      prev[j] = Math.min(up + 1, left + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= Math.max(1, Math.min(2, Math.floor(word.length / 3))) ? best : undefined;
}

export interface NumberRule {
  integer?: boolean;
  positive?: boolean;
}

/** A table (TOML) or mapping (YAML) being read. Keys that are never read are "unknown". */
export class Table {
  private readonly used = new Set<string>();

  constructor(
    readonly ctx: FileCtx,
    readonly path: readonly Segment[],
    readonly data: Record<string, unknown>,
  ) {}

  field(key: Segment, ...more: Segment[]): string {
    return formatPath(this.ctx.flavor, [...this.path, key, ...more]);
  }

  /** Raw value (null counts as absent); marks the key as known. */
  raw(key: string): unknown {
    this.used.add(key);
    const v = Object.hasOwn(this.data, key) ? this.data[key] : undefined;
    return v === null ? undefined : v;
  }

  has(key: string): boolean {
    return this.raw(key) !== undefined;
  }

  error(field: string, message: string): void {
    this.ctx.problems.error({ file: this.ctx.file, field, message: `${field}: ${message}` });
  }

  warn(field: string, message: string): void {
    this.ctx.problems.warn({ file: this.ctx.file, field, message: `${field}: ${message}` });
  }

  expected(field: string, what: string, got: unknown): void {
    this.error(field, `expected ${what}, got ${describe(got, this.ctx.flavor)}`);
  }

  string(key: string): string | undefined {
    const v = this.raw(key);
    if (v === undefined || typeof v === "string") return v;
    this.expected(this.field(key), "a string", v);
    return undefined;
  }

  number(key: string, rule: NumberRule = {}): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const what = rule.integer
      ? rule.positive
        ? "a positive integer"
        : "an integer"
      : rule.positive
        ? "a positive number"
        : "a number";
    if (
      typeof v !== "number" ||
      !Number.isFinite(v) ||
      (rule.integer && !Number.isInteger(v)) ||
      (rule.positive && v <= 0)
    ) {
      this.expected(this.field(key), what, v);
      return undefined;
    }
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.raw(key);
    if (v === undefined || typeof v === "boolean") return v;
    this.expected(this.field(key), "a boolean (true or false)", v);
    return undefined;
  }

  enumOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const hit = values.find((x) => x === v);
    if (hit !== undefined) return hit;
    this.expected(this.field(key), `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`, v);
    return undefined;
  }

  /** A list of strings. Bad items are reported one by one and dropped. */
  stringList(key: string): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) {
      this.expected(this.field(key), "a list of strings", v);
      return undefined;
    }
    return this.items(key, v);
  }

  /** A string (one item; "" means none) or a list of strings. */
  stringOrList(key: string): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v === "string") return v === "" ? [] : [v];
    if (!Array.isArray(v)) {
      this.expected(this.field(key), "a string or a list of strings", v);
      return undefined;
    }
    return this.items(key, v);
  }

  private items(key: string, v: unknown[]): string[] {
    const out: string[] = [];
    v.forEach((item, i) => {
      if (typeof item === "string") out.push(item);
      else this.expected(this.field(key, i), "a string", item);
    });
    return out;
  }

  /** A map of string values (numbers and booleans are an error too: quote them). */
  stringMap(key: string): Record<string, string> | undefined {
    const t = this.table(key);
    if (!t) return undefined;
    const out: Record<string, string> = {};
    for (const [k, item] of Object.entries(t.data)) {
      t.used.add(k);
      if (typeof item === "string") out[k] = item;
      else t.expected(t.field(k), "a string", item);
    }
    return out;
  }

  table(key: string): Table | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!isRecord(v)) {
      this.expected(this.field(key), this.ctx.flavor === "toml" ? "a table" : "a mapping", v);
      return undefined;
    }
    return new Table(this.ctx, [...this.path, key], v);
  }

  /** Warn about every key that was never read (skipping `ignore`d ones). */
  warnUnknown(ignore: (key: string) => boolean = () => false): void {
    for (const key of Object.keys(this.data)) {
      if (this.used.has(key) || ignore(key)) continue;
      const isTable =
        this.ctx.flavor === "toml" && this.path.length === 0 && isRecord(this.data[key]);
      const field =
        this.ctx.flavor === "toml" && this.path.length === 0 && !isTable ? key : this.field(key);
      const hint = closest(key, this.used);
      const suffix = hint === undefined ? "" : ` (did you mean ${JSON.stringify(hint)}?)`;
      this.ctx.problems.warn({
        file: this.ctx.file,
        field,
        message: `unknown ${isTable ? "table" : "key"} ${field}${suffix}; ignored`,
      });
    }
  }
}

/**
 * A list of non-empty names (node ids, node Skill names) without duplicates; an empty list
 * reads as absent, as in the original (an empty order means "the package's own route").
 */
export function readNames(t: Table, key: string): string[] | undefined {
  const xs = t.stringList(key);
  if (xs === undefined || xs.length === 0) return undefined;
  const seen = new Set<string>();
  xs.forEach((x, i) => {
    if (x.trim() === "") t.error(t.field(key, i), "must not be empty");
    else if (seen.has(x)) t.error(t.field(key, i), `${JSON.stringify(x)} is listed twice`);
    seen.add(x);
  });
  return xs;
}
