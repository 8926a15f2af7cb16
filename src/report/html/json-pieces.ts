/**
 * JSON written a piece at a time for a `<script type="application/json">` element: the pieces
 * joined are the bytes of jsonForScript(value), but no piece holds more than a chunk of a long
 * array, so a page of 100,000 runs is never one string. Pure.
 */
import { scriptSafe } from "./escape.js";

/** Elements of a long array serialized per piece. */
export const CHUNK = 1000;

/** Objects this deep are walked key by key (deeper ones, and short arrays, are one piece each). */
const MAX_DEPTH = 3;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return typeof (v as { toJSON?: unknown }).toJSON !== "function";
}

/** Values JSON.stringify leaves out of an object. */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

/** `[` + items mapped and serialized CHUNK at a time + `]`, escaped. */
export function* arrayPieces<T>(items: readonly T[], map: (x: T) => unknown): Generator<string> {
  yield "[";
  for (let i = 0; i < items.length; i += CHUNK) {
    const end = Math.min(items.length, i + CHUNK);
    const part = new Array<unknown>(end - i);
    for (let j = i; j < end; j++) part[j - i] = map(items[j] as T);
    const json = JSON.stringify(part);
    yield scriptSafe((i === 0 ? "" : ",") + json.slice(1, -1));
  }
  yield "]";
}

const identity = (x: unknown): unknown => x;

/**
 * The pieces of jsonForScript(value). `fields` writes the named keys of the top-level object
 * with writers of their own (their pieces already escaped), in the key's place.
 */
export function* jsonPieces(
  value: unknown,
  fields: Readonly<Record<string, () => Iterable<string>>> = {},
  depth = 0,
): Generator<string> {
  if (Array.isArray(value) && value.length > CHUNK) {
    yield* arrayPieces(value, identity);
    return;
  }
  if (depth >= MAX_DEPTH || !isPlainObject(value)) {
    // JSON.stringify of a function or undefined gives undefined (only possible at the top).
    const json = JSON.stringify(value) as string | undefined;
    yield scriptSafe(json ?? "null");
    return;
  }
  let sep = "{";
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (omitted(v)) continue;
    yield scriptSafe(`${sep}${JSON.stringify(key)}:`);
    sep = ",";
    const own = depth === 0 && Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (own) yield* own();
    else yield* jsonPieces(v, {}, depth + 1);
  }
  yield sep === "{" ? "{}" : "}";
}
