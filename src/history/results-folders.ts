/**
 * The results folders the history store knows (docs/history.md, "The store as a source"): where
 * `--reuse history` looks for runs to take and where an estimate without `--estimate-from` finds
 * earlier runs. Reading never creates a store: a SQLite file that does not exist is no folders,
 * and a store that cannot be read (a server down) is one warning and no folders, since a source of
 * estimates or reusable runs is an optimisation the experiment does not need.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../core/errors.js";
import { defaultHistoryTarget, isPostgresUrl, maskUrl, openHistory } from "./store.js";

/**
 * At most this many folders, newest first: each is read in full (its reports), so an old store of
 * hundreds of experiments would otherwise make every dry run read them all.
 */
export const HISTORY_FOLDER_CAP = 20;

/**
 * Pure: the records' folders, newest first (by `recorded_at`; ties keep the store's order
 * reversed), each once, only those `usable` says exist with runs, at most `cap`.
 */
export function pickResultsFolders(
  records: readonly { results_dir: string; recorded_at: string }[],
  usable: (dir: string) => boolean,
  cap: number = HISTORY_FOLDER_CAP,
): string[] {
  const newest = records
    .map((r, i) => ({ dir: path.resolve(r.results_dir), at: r.recorded_at, i }))
    .sort((a, b) => (a.at === b.at ? b.i - a.i : a.at < b.at ? 1 : -1));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of newest) {
    if (out.length >= cap) break;
    if (seen.has(r.dir)) continue;
    seen.add(r.dir);
    if (usable(r.dir)) out.push(r.dir);
  }
  return out;
}

/** A results folder still on disk with its runs/ (a moved or deleted one is skipped). */
function hasRuns(dir: string): boolean {
  try {
    return statSync(path.join(dir, "runs")).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The store a run reads as a source: `--history` as given (a relative file is the cwd's), none
 * with `--no-history`, else the default beside `outDir` (SKILLBENCH_HISTORY_URL first).
 */
export function historySourceTarget(
  history: string | boolean | undefined,
  outDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (history === false) return null;
  if (typeof history === "string")
    return isPostgresUrl(history) ? history : path.resolve(cwd, history);
  return defaultHistoryTarget(path.resolve(cwd, outDir), env);
}

/**
 * The results folders the store at `target` knows (see `pickResultsFolders`). A SQLite file that
 * does not exist is none (it is not created); a store that cannot be opened or read is one
 * `warn` line and none.
 */
export async function historyResultsFolders(
  target: string | null,
  warn: (line: string) => void,
): Promise<{ where: string; folders: string[] }> {
  if (target === null) return { where: "", folders: [] };
  const postgres = isPostgresUrl(target);
  const where = postgres ? maskUrl(target) : target;
  if (!postgres && !existsSync(target)) return { where, folders: [] };
  try {
    const store = await openHistory(target);
    try {
      return { where: store.where, folders: pickResultsFolders(await store.records(), hasRuns) };
    } finally {
      await store.close();
    }
  } catch (e) {
    warn(
      `warning: the history store ${where} was not read as a source of earlier runs: ${errorMessage(e).replaceAll(target, where)}`,
    );
    return { where, folders: [] };
  }
}
