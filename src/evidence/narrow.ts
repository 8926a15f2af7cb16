import { isRecord } from "../core/json.js";

/**
 * Field-by-field narrowing of parsed JSON (`unknown`). Tolerant on purpose: a
 * field of the wrong type reads as absent instead of rejecting the whole event.
 */
export type JsonRecord = Record<string, unknown>;

export function recOf(v: unknown): JsonRecord | null {
  return isRecord(v) ? v : null;
}

export function strOf(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** A finite number; booleans and numeric strings are not numbers. */
export function numOf(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function arrOf(v: unknown): readonly unknown[] | null {
  return Array.isArray(v) ? v : null;
}

/** `true` and `"true"` are true; `false` and `"false"` are false; anything else is null. */
export function boolOf(v: unknown): boolean | null {
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  return null;
}
