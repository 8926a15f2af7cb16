/**
 * The judge's view of the workspace as text (docs/judge.md, workspace dump). Pure: the files come
 * in already read, in order.
 */
export const MAX_FILE_BYTES = 50_000;
const MAX_FILE_CHARS = 3_000;
export const MAX_DUMP_CHARS = 20_000;
/** A last, truncated chunk is added only when more than this many characters remain. */
const MIN_TRUNCATED_CHUNK = 200;
export const EMPTY_WORKSPACE = "(no workspace files found)";

export interface DumpFile {
  /** Relative path, POSIX separators. */
  rel: string;
  text: string;
}

export interface DumpResult {
  text: string;
  /** Files whose chunk is in the text (the last one possibly truncated). */
  included: string[];
  /** Files cut to MAX_FILE_CHARS. */
  cut: string[];
  /** Files left out because the total budget was spent. */
  overBudget: string[];
}

export function fileChunk(rel: string, text: string): string {
  return `\n=== ${rel} ===\n${text.slice(0, MAX_FILE_CHARS)}\n`;
}

export function assembleDump(files: readonly DumpFile[], budget = MAX_DUMP_CHARS): DumpResult {
  let text = "";
  const included: string[] = [];
  const cut: string[] = [];
  const overBudget: string[] = [];
  let stopped = false;
  for (const f of files) {
    if (stopped) {
      overBudget.push(f.rel);
      continue;
    }
    const chunk = fileChunk(f.rel, f.text);
    if (text.length + chunk.length > budget) {
      const remaining = budget - text.length;
      if (remaining > MIN_TRUNCATED_CHUNK) {
        text += chunk.slice(0, remaining);
        included.push(f.rel);
      } else {
        overBudget.push(f.rel);
      }
      stopped = true;
      continue;
    }
    text += chunk;
    included.push(f.rel);
    if (f.text.length > MAX_FILE_CHARS) cut.push(f.rel);
  }
  return { text: text === "" ? EMPTY_WORKSPACE : text, included, cut, overBudget };
}

/** Directory names never descended into, anywhere in the tree. */
const SKIP_DIRS = new Set([
  ".git",
  "node_modules",
  ".comet",
  "__pycache__",
  ".pytest_cache",
  "venv",
  ".venv",
  "env",
]);
/** The harness's own files, anywhere in the tree. */
const HARNESS_FILES = new Set(["_test_context.json", "_test_results.json"]);
/** The harness's own folders at the workspace root. */
const HARNESS_ROOT_DIRS = new Set(["validation", "data"]);

/** Why a path is left out by name alone, or null. `rel` uses POSIX separators. */
export function skipReasonForPath(rel: string, isDir: boolean): string | null {
  const parts = rel.split("/");
  const name = parts[parts.length - 1] ?? rel;
  if (parts.some((p) => p.startsWith("."))) return "dot path";
  if (parts.some((p, i) => SKIP_DIRS.has(p) && (isDir || i < parts.length - 1)))
    return "skipped folder";
  if (isDir && parts.length === 1 && HARNESS_ROOT_DIRS.has(name)) return "harness folder";
  if (!isDir && HARNESS_FILES.has(name)) return "harness file";
  return null;
}
