import { statfs } from "node:fs/promises";
import { errorPath, isDiskFull } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { RunSpec } from "../plan/matrix.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { RunContext } from "./context.js";
import type { ProgressEvent } from "./run-options.js";
import { executeRun } from "./run-one.js";
import { scheduleRuns } from "./schedule.js";

/**
 * Below this much free space on the results disk, an agent does not start beside the checks of the
 * runs before it, so that a disk they fill stops the runs before another agent starts (as at
 * -j 1 without the overlap).
 */
const LOW_DISK_BYTES = 512 * 1024 * 1024;

/** Whether the results disk has room for an agent to start beside other runs' checks. */
async function roomBeside(outDir: string): Promise<boolean> {
  const s = await statfs(outDir).catch(() => null);
  return s === null || s.bavail * s.bsize >= LOW_DISK_BYTES;
}

const specOf = (p: RunPlan): RunSpec => ({
  run_id: p.run_id,
  task: p.task,
  treatment: p.treatment,
  rep: p.rep,
  agent: p.agent.name,
  model: p.model,
});

/**
 * Execute planned runs on the local schedule (runner/schedule.ts): at most `concurrency` agents at
 * once, the next runs prepared and the finished ones checked beside them. A run's crash never stops
 * the others; a full disk stops new runs (the running ones finish what they can, docs/sandbox.md)
 * and is reported back with the file that did not fit. Returns the digests of the runs that
 * completed (each whole report is in its run folder and goes to onProgress: holding them all would
 * grow with the experiment).
 *
 * Progress: a run's "start" is its agent's start (a run that fails before then gets it with its
 * "end"); a run stopped while prepared, before its agent started, gets neither, like a run never
 * begun (its folder has no report, so --resume runs it).
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
  // The second Ctrl-C (ctx.signal) stops the runs too, not only the first (`stop`).
  // A budget that refused a run stops the admission of the rest (they stay unrun, --resume runs them).
  const stop = AbortSignal.any([
    ctx.signal,
    diskStop.signal,
    ...(o.stop ? [o.stop] : []),
    ...(ctx.budget ? [ctx.budget.exhausted] : []),
  ]);
  await scheduleRuns(
    plans,
    o.concurrency,
    async (plan, passage) => {
      const run = { started: false };
      const begin = (): void => {
        if (run.started) return;
        run.started = true;
        o.onProgress?.({ type: "start", run: specOf(plan) });
      };
      const report = await executeRun(ctx, plan, {
        background,
        passage: {
          toAgent: async () => {
            let go = await passage.toAgent();
            // The budget is asked last, with the agent slot in hand: what the runs under way
            // still hold is known then (runner/budget.ts).
            if (go && ctx.budget) {
              const refused = await ctx.budget.admit({
                run_id: plan.run_id,
                task: plan.task,
                treatment: plan.treatment,
                agent: plan.agent.name,
                task_hash: ctx.suite.spec.tasks.find((t) => t.name === plan.task)?.hash ?? null,
              });
              if (refused !== null) {
                ctx.note(`budget: no more runs start: ${refused} (the rest are left unrun)`);
                go = false;
              }
            }
            if (go) begin();
            return go;
          },
          toChecks: () => passage.toChecks(),
        },
      }).catch((e: unknown) => {
        if (!isDiskFull(e)) throw e;
        full.file ??= errorPath(e) ?? ctx.store.outDir;
        diskStop.abort();
        return null;
      });
      if (report) fresh.push(digestOf(report));
      if (!report && !run.started) return;
      begin();
      o.onProgress?.({ type: "end", run: specOf(plan), report });
    },
    {
      stop,
      beside: () => roomBeside(ctx.store.outDir),
      onError: (plan, e) =>
        o.onProgress?.({ type: "note", message: `${plan.run_id}: ${String(e)}` }),
    },
  ).finally(() => Promise.all(cleanups));
  return { fresh, diskFullFile: full.file };
}
