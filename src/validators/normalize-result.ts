import type { CheckResults } from "./types.js";
import { isRecord } from "../core/json.js";

const PASS_STATUSES = new Set(["passed", "pass", "ok", "success"]);
const FAIL_STATUSES = new Set(["failed", "fail", "error"]);

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function firstText(rec: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = rec[k];
    if (typeof v === "string" && v.trim() !== "") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
  }
  return null;
}

/** The `error` field as text, or null when unset/empty/false. */
function errorText(v: unknown): string | null {
  if (v === undefined || v === null || v === false || v === "") return null;
  if (typeof v === "string") return v;
  try {
    // JSON.stringify returns undefined for functions and symbols, whatever its type says
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    return JSON.stringify(v) ?? "(unprintable)";
  } catch {
    return "(unprintable)";
  }
}

/**
 * Turn a validator's JSON into check messages (docs/tasks.md, Validation step 5). Pure; never throws.
 *
 * - `passed` / `failed`: string lists (non-strings ignored).
 * - each object of `checks`: `{check|name, status, message|reason|error}` becomes
 *   `"<name>: <detail>"` (or `"<name>"`); status passed/pass/ok/success -> passed,
 *   failed/fail/error -> failed (case-insensitive); any other status is ignored.
 *   A check without a name is called `(unnamed check)`.
 * - `error` set and no checks at all -> failed `Test execution error (<script>): <error>`.
 */
export function normalizeValidatorResult(script: string, raw: unknown): CheckResults {
  if (!isRecord(raw)) return { passed: [], failed: [] };
  const passed = stringsOf(raw.passed);
  const failed = stringsOf(raw.failed);
  if (Array.isArray(raw.checks)) {
    for (const item of raw.checks) {
      if (!isRecord(item)) continue;
      const status = typeof item.status === "string" ? item.status.trim().toLowerCase() : "";
      const target = PASS_STATUSES.has(status) ? passed : FAIL_STATUSES.has(status) ? failed : null;
      if (target === null) continue;
      const name = firstText(item, ["check", "name"]) ?? "(unnamed check)";
      const detail = firstText(item, ["message", "reason", "error"]);
      target.push(detail === null ? name : `${name}: ${detail}`);
    }
  }
  const error = errorText(raw.error);
  if (error !== null && passed.length === 0 && failed.length === 0) {
    failed.push(`Test execution error (${script}): ${error}`);
  }
  return { passed, failed };
}
