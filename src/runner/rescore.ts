import { readFile } from "node:fs/promises";
import { errorFromSent, InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "../report/comparison/types.js";
import type { ComparisonSource } from "../report/comparison/write.js";
import { mapPool } from "../util/pool.js";
import { writeExperimentReportsOf } from "./finish.js";
import { runPairwiseStage } from "./pairwise-stage.js";
import { readSuiteSnapshot, type SuiteSnapshot } from "../store/suite-snapshot.js";
import { withResultsLock } from "../store/lock.js";
import type { JudgeFlags } from "./judge-setup.js";
import { loadModelScript, scriptServesRole, startModelServer } from "../model/index.js";
import { RunIndexWriter } from "../store/run-index.js";
import { runFolderIds } from "../store/read.js";
import { sha256 } from "../util/hash.js";
import { rescoreRun, type RescoredRun } from "./rescore-run.js";
import { rescoreContext, type JudgeServer } from "./rescore-context.js";
import { defaultThreads, runOnThreads } from "../util/threads.js";
import {
  RESCORE_WORKER,
  RescoredRunSchema,
  type RescoreThreadSettings,
} from "./rescore-threads.js";

export interface RescoreOptions {
  /** Score every run with this profile instead of the one it was scored with. */
  profile?: string | undefined;
  /** Judge again (answers cached in DIR/judge-cache/); without it a stored judge block is kept. */
  judgeFlags?: JudgeFlags | undefined;
  /** A scripted model to serve the judge. */
  modelScript?: string | undefined;
  hostEnv?: Record<string, string | undefined>;
  ks?: number[] | undefined;
  html?: boolean | undefined;
  /**
   * Threads that rescore runs (rescore-threads.ts); default: one per CPU (at most 8) from
   * THREADS_FROM runs on, else 1. Runs judged again are rescored on the main thread only (the
   * judge's cache and model are the main thread's).
   */
  concurrency?: number | undefined;
  onProgress?: (message: string) => void;
}

/** Runs from which a rescore uses worker threads by default (below, starting them costs more than they save). */
const THREADS_FROM = 500;

/**
 * Runs rescored at once. A run's files are read and written synchronously (rescore-files.ts), so
 * this matters only while one waits on something else (a judge on its model).
 */
const RESCORE_CONCURRENCY = 8;
/**
 * Runs rescored between two turns of the event loop: without a turn, nothing asynchronous
 * completes (the run index's writes would pile up in memory; a judge's model would not answer).
 */
const RUNS_PER_TURN = 64;

export interface RescoreResult {
  /**
   * every run of the folder after the rescore, as its digest, sorted by task, treatment, rep
   * (the ones the experiment reports were made from; the full reports are in the results folder)
   */
  reports: RunDigest[];
  changed: string[];
  files: string[];
  /** threads the runs were rescored on (1: this one; more: worker threads, rescore-threads.ts) */
  threads: number;
  /**
   * The one reading of the folder the reports were made from and the one comparison (null with
   * fewer than two treatments): the CI outputs are made from them (runner/ci-outputs.ts
   * writeCiOutputsFrom), so the step summary says what comparison_report.md says.
   */
  source: ComparisonSource;
  comparison: Comparison | null;
}

/**
 * Recompute every run's evaluation from what is stored — the raw stdout, the
 * saved workspace and the validators' output — and render the reports again.
 * No agent and no validator runs.
 */
export async function rescoreResults(
  outDir: string,
  opts: RescoreOptions = {},
): Promise<RescoreResult> {
  // Rescore rewrites every run's report: not while a run writes the folder (store/lock.ts).
  return withResultsLock(outDir, { command: "skillbench rescore", create: false }, () =>
    rescoreLocked(outDir, opts),
  );
}

async function rescoreLocked(outDir: string, opts: RescoreOptions): Promise<RescoreResult> {
  const snapshot = await readSuiteSnapshot(outDir);
  const hostEnv = opts.hostEnv ?? process.env;
  const script = opts.modelScript ? await loadModelScript(opts.modelScript) : null;
  const server = script ? await startModelServer({ script, scriptFile: opts.modelScript }) : null;
  try {
    const scriptId = opts.modelScript ? sha256(await readFile(opts.modelScript)) : "";
    return await rescoreWith(outDir, snapshot, opts, hostEnv, {
      url: server?.url ?? null,
      scriptHasJudge: script ? scriptServesRole(script, "judge") : false,
      scriptId,
    });
  } finally {
    await server?.close();
  }
}

async function rescoreWith(
  outDir: string,
  snapshot: SuiteSnapshot,
  opts: RescoreOptions,
  hostEnv: Record<string, string | undefined>,
  judgeServer: JudgeServer,
): Promise<RescoreResult> {
  const ctx = await rescoreContext(outDir, snapshot, opts, hostEnv, judgeServer);
  const ids = await runFolderIds(outDir);
  // The run index is written anew beside the old one and renamed over it at the end (never
  // appended to: a folder copied with hard links shares its index with the original), with a
  // line for every rescored run, so that the experiment reports read it instead of every
  // report.json again.
  const index = await RunIndexWriter.create(outDir);
  // What is kept of each run, by its position in `ids`: 0 not rescored (incomplete), 1
  // unchanged, 2 changed. The experiment reports read the digests again, from the new index.
  const done = new Uint8Array(ids.length);
  const take = async (i: number, run: RescoredRun | null): Promise<void> => {
    if (run === null) return; // an incomplete run: nothing to rescore
    const id = ids[i] ?? "";
    index?.add(id, run.stamp, run.digest, run.reportJson);
    done[i] = run.changed ? 2 : 1;
    await index?.drained();
    opts.onProgress?.(`${run.changed ? "rescored" : "unchanged"} ${id}`);
  };
  const jobs = ctx.judge.config.enabled
    ? 1
    : Math.max(
        1,
        Math.min(opts.concurrency ?? defaultThreads(ids.length, THREADS_FROM), ids.length),
      );
  try {
    if (jobs > 1)
      await runOnThreads({
        module: RESCORE_WORKER,
        settings: {
          outDir,
          ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
          hostEnv: { ...hostEnv },
        } satisfies RescoreThreadSettings,
        items: ids,
        threads: jobs,
        result: RescoredRunSchema,
        take,
        reviveError: errorFromSent,
      });
    else
      // RESCORE_CONCURRENCY at a time on this thread (a judge waits on its model).
      await mapPool(ids, RESCORE_CONCURRENCY, async (id, i) => {
        if (i % RUNS_PER_TURN === RUNS_PER_TURN - 1)
          await new Promise<void>((resolve) => setImmediate(resolve));
        await take(i, await rescoreRun(ctx, id));
      });
  } finally {
    // Also after a failure: its lines are those of runs whose report.json they match.
    await index?.commit();
  }
  const changed = ids.filter((_, i) => done[i] === 2);
  if (!done.some((d) => d > 0))
    throw new InputError(`${outDir}: no run reports found: run a suite first`, { file: outDir });
  // `--judge pairwise`: the pairs judged again from the stored runs (runner/pairwise-stage.ts).
  if (ctx.judge.pairFor)
    await runPairwiseStage({ outDir, judgeFor: ctx.judge.pairFor, redact: ctx.redact, hostEnv });
  const { files, reports, source, comparison } = await writeExperimentReportsOf(outDir, {
    ks: opts.ks,
    html: opts.html,
  });
  return { reports, changed, files, threads: jobs, source, comparison };
}
