import { errorPath, isDiskFull } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { RunSpec } from "../plan/matrix.js";
import type { RunPlan } from "../plan/run-plan.js";
import { runPool } from "../util/pool.js";
import type { RunContext } from "./context.js";
import type { ProgressEvent } from "./run-options.js";
import { executeRun } from "./run-one.js";

const specOf = (p: RunPlan): RunSpec => ({
  run_id: p.run_id,
  task: p.task,
  treatment: p.treatment,
  rep: p.rep,
  agent: p.agent.name,
});

/**
 * Execute planned runs on the local pool. A run's crash never stops the others; a full disk stops
 * new runs (the running ones finish what they can, docs/sandbox.md) and is reported back with the
 * file that did not fit. Returns the digests of the runs that completed (each whole report is in
 * its run folder and goes to onProgress: holding them all would grow with the experiment).
 */
export async function executePlans(
  ctx: RunContext,
  plans: RunPlan[],
  o: {
    concurrency: number;
    stop?: AbortSignal | undefined;
    onProgress?: ((e: ProgressEvent) => void) | undefined;
  },
): Promise<{ fresh: RunDigest[]; diskFullFile: string | null }> {
  const fresh: RunDigest[] = [];
  const diskStop = new AbortController();
  const full: { file: string | null } = { file: null };
  // Each run's temporary folders are removed in the background (not between one run's report and
  // the next run's start); all removed before this returns.
  const cleanups = new Set<Promise<void>>();
  const background = (cleanup: Promise<void>) => {
    cleanups.add(cleanup);
    void cleanup.finally(() => cleanups.delete(cleanup));
  };
  await runPool(
    plans,
    o.concurrency,
    async (plan) => {
      o.onProgress?.({ type: "start", run: specOf(plan) });
      const report = await executeRun(ctx, plan, background).catch((e: unknown) => {
        if (!isDiskFull(e)) throw e;
        full.file ??= errorPath(e) ?? ctx.store.outDir;
        diskStop.abort();
        return null;
      });
      if (report) fresh.push(digestOf(report));
      o.onProgress?.({ type: "end", run: specOf(plan), report });
    },
    {
      stop: o.stop ? AbortSignal.any([o.stop, diskStop.signal]) : diskStop.signal,
      onError: (plan, e) =>
        o.onProgress?.({ type: "note", message: `${plan.run_id}: ${String(e)}` }),
    },
  ).finally(() => Promise.all(cleanups));
  return { fresh, diskFullFile: full.file };
}
