/**
 * The preflight's memory of tasks it has checked (docs/health.md, "Cache"): a task whose content,
 * reference solution, sandbox and repeats are unchanged since a check beside the same results is
 * not checked again before every run of it. The key is the content (task hash, a hash of its
 * `solution/` folder), how it was checked (the requested sandbox and what the machine offered,
 * the repeats) and the checker's version; anything else changed means a new check.
 * `skillbench check` never reads it: asked by name, a check is run.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { HealthProblemSchema, TaskHealthSchema, type HealthReport } from "../core/health.js";
import { besideResults } from "../store/layout.js";
import type { TaskSpec } from "../suite/index.js";
import { canonicalJson, hashTree, sha256 } from "../util/hash.js";
import { writeJsonAtomic } from "../util/fs.js";
import { SKILLBENCH_VERSION } from "./experiment-metadata.js";

/** Bump when what a check observes or how it classifies changes (src/health/). */
const HEALTH_CHECK_VERSION = 1;

const EntrySchema = z.object({
  key: z.string(),
  health: TaskHealthSchema,
  problems: z.array(HealthProblemSchema),
});

/** `.skillbench/health-cache/` beside the results folder (as the history store is). */
export function healthCacheDir(outDir: string): string {
  return path.join(besideResults(outDir), "health-cache");
}

/** The cache key of one task's check. */
export async function taskCheckKey(
  task: TaskSpec,
  how: { sandbox: string; machine: unknown; repeats: number },
): Promise<string> {
  const solution = path.join(task.dir, "solution");
  return sha256(
    canonicalJson({
      v: HEALTH_CHECK_VERSION,
      skillbench: SKILLBENCH_VERSION,
      task: task.hash,
      solution: existsSync(solution) ? await hashTree(solution) : null,
      ...how,
    }),
  );
}

/** The stored check of a task under `key`, or null (none, or one that does not parse). */
export async function cachedCheck(
  dir: string,
  task: string,
  key: string,
): Promise<{ health: HealthReport["tasks"][number]; problems: HealthReport["problems"] } | null> {
  try {
    const got = EntrySchema.safeParse(
      JSON.parse(await readFile(path.join(dir, `${key}.json`), "utf8")),
    );
    if (!got.success || got.data.key !== key || got.data.health.task !== task) return null;
    return { health: got.data.health, problems: got.data.problems };
  } catch {
    return null;
  }
}

/** Remember a task's check; a cache that cannot be written is no error (the next run checks again). */
export async function storeCheck(
  dir: string,
  key: string,
  health: HealthReport["tasks"][number],
  problems: HealthReport["problems"],
): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await writeJsonAtomic(path.join(dir, `${key}.json`), { key, health, problems });
  } catch {
    // The check's result is in health.json either way.
  }
}
