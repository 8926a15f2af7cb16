/**
 * Deep equality of values parsed from JSON, without writing their text (the run index's shared
 * values, store/run-index.ts; the digest parser's checked values, store/digest-parser.ts).
 * Whether two values parsed from JSON would be written as the same JSON text: the same
 * primitives, arrays of the same length, objects with the same keys in the same order. Strict
 * (an absent key and an undefined one differ, NaN differs from itself): a false answer only
 * costs the caller a JSON text to compare by.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  // b's keys by for…in (the order Object.keys gives, JSON values having no inherited keys)
  // rather than a second array of keys for every object compared
  let i = 0;
  for (const k in rb) {
    if (k !== ka[i] || !sameJson(ra[k], rb[k])) return false;
    i++;
  }
  return i === ka.length;
}
