/** A plain object: not null, not an array, not a Date (TOML dates parse to Date objects). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
