import { isRecord } from "../core/json.js";
import path from "node:path";
import { describe, Table } from "./fields.js";
import type { ExpectedArtifact } from "./types.js";

/**
 * Workspace-relative paths in task.toml / treatment files (artifacts, globs,
 * validator scripts). Pure.
 */

/**
 * Why `rel` is not a safe path inside a folder (the workspace or validation/), or
 * null when it is. Globs are allowed; `..` that climbs above the folder, absolute
 * paths, drive letters, `~` and NUL bytes are not.
 */
export function unsafePathReason(rel: string, folder = "the workspace"): string | null {
  if (rel.trim() === "") return "is empty";
  if (rel.includes("\0")) return "contains a NUL byte";
  const slashed = rel.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed))
    return `must be relative to ${folder}, got absolute path ${JSON.stringify(rel)}`;
  if (slashed === "~" || slashed.startsWith("~/"))
    return `must be relative to ${folder}, got home path ${JSON.stringify(rel)}`;
  const norm = path.posix.normalize(slashed);
  if (norm === ".." || norm.startsWith("../")) return `escapes ${folder}: ${JSON.stringify(rel)}`;
  if (norm === "." || norm === "./")
    return `names ${folder} itself, not a path inside it: ${JSON.stringify(rel)}`;
  return null;
}

/** Read a list of workspace paths (`string | string[]`), reporting unsafe entries. */
export function readWorkspacePaths(t: Table, key: string): string[] | undefined {
  const list = t.stringOrList(key);
  if (list === undefined) return undefined;
  return list.filter((p, i) => {
    const why = unsafePathReason(p);
    if (why) t.error(t.field(key, i), why);
    return why === null;
  });
}

/**
 * `expected_artifacts`: entries are a string, or a mapping with `paths` (string or
 * list) or `path`; each becomes `{ paths: [...] }`. Unsafe paths are errors.
 */
export function readExpectedArtifacts(t: Table, key: string): ExpectedArtifact[] | undefined {
  const v = t.raw(key);
  if (v === undefined) return undefined;
  const list = typeof v === "string" ? (v === "" ? [] : [v]) : v;
  if (!Array.isArray(list)) {
    t.expected(t.field(key), "a list of paths or {paths} tables", v);
    return undefined;
  }
  const out: ExpectedArtifact[] = [];
  list.forEach((entry: unknown, i) => {
    const field = t.field(key, i);
    let paths: string[] | undefined;
    if (typeof entry === "string") paths = [entry];
    else if (isRecord(entry)) {
      const sub = new Table(t.ctx, [...t.path, key, i], entry);
      paths = sub.has("paths")
        ? sub.stringOrList("paths")
        : sub.has("path")
          ? sub.stringOrList("path")
          : undefined;
      if (!sub.has("paths") && !sub.has("path")) sub.error(field, 'needs "paths" or "path"');
      sub.warnUnknown();
    } else {
      t.error(
        field,
        `expected a path or a table with "paths", got ${describe(entry, t.ctx.flavor)}`,
      );
    }
    if (paths === undefined) return;
    const safe = paths.filter((p) => {
      const why = unsafePathReason(p);
      if (why) t.error(field, why);
      return why === null;
    });
    if (safe.length > 0 && safe.length === paths.length) out.push({ paths: safe });
    else if (paths.length === 0) t.error(field, "has no paths");
  });
  return out;
}
