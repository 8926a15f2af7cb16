/**
 * `rescore` on worker threads (util/threads.ts): reading and parsing a run's seven files is
 * nearly all of a rescore's time (bench/results/scale.md), the same work for every run, so runs
 * are handed to threads running rescore-worker.ts. A run is rescored by exactly the code a
 * single-threaded rescore runs (rescore-run.ts), so the files written are the same bytes whatever
 * the number of threads. What the main thread and its threads send each other is defined here.
 */
import { z } from "zod";
import type { RunDigest } from "../core/digest.js";

/** What a rescore thread is started with (its workerData). */
export const RescoreThreadSettingsSchema = z.object({
  outDir: z.string(),
  profile: z.string().optional(),
  hostEnv: z.record(z.string(), z.string().optional()),
});
export type RescoreThreadSettings = z.infer<typeof RescoreThreadSettingsSchema>;

/**
 * A rescored run (rescore-run.ts's RescoredRun), or null for an incomplete one. Its digest is
 * checked to be an object only: a thread makes it with digestOf from a report RunReportSchema
 * has just parsed, in the same build of this code (parsing it again would cost the main thread
 * what the thread saved it).
 */
export const RescoredRunSchema = z
  .object({
    digest: z.custom<RunDigest>((v) => typeof v === "object" && v !== null && !Array.isArray(v)),
    changed: z.boolean(),
    stamp: z.string(),
    reportJson: z.string(),
  })
  .nullable();

/**
 * The threads' module. The same relative path from this module (dist/runner/) and from the
 * bundled CLI (dist/cli/bundle.cjs, whose import.meta.url is its own file: scripts/build-cli.mjs):
 * both are two folders below the package root, and the thread runs the library's module of
 * dist/runner/.
 */
export const RESCORE_WORKER = new URL("../runner/rescore-worker.js", import.meta.url);
