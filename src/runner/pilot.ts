/**
 * `--pilot N` (docs/cost.md): the first N repetitions of every task and treatment run first, as
 * ordinary runs of the experiment (they count); the rest is then estimated from them and run
 * into the same folder as a resume. The rest's start-up line carries that estimate, from the
 * pilot's runs (runner/estimate-sources.ts).
 */
import path from "node:path";
import { loadSuite } from "../suite/index.js";
import type { RunOptions, RunSummary } from "./run-options.js";

type Runner = (o: RunOptions) => Promise<RunSummary>;

export async function runWithPilot(
  opts: RunOptions,
  r: {
    /** The whole experiment (sequential rounds, a calibration, or one run of the suite). */
    rest: Runner;
    /** One plain run of the suite: the pilot. */
    first: Runner;
    /** Repetitions per task and treatment of the whole experiment, when not `opts.count`. */
    fullCount?: number | undefined;
  },
): Promise<RunSummary> {
  const n = opts.cost?.pilot;
  if (n === undefined) return r.rest(opts);
  const cwd = opts.cwd ?? process.cwd();
  const full =
    r.fullCount ??
    opts.count ??
    (await loadSuite(path.resolve(cwd, opts.suite), { taskFilter: opts.task })).config.count ??
    1;
  // A pilot as large as the experiment is the experiment.
  if (n >= full) return r.rest(opts);
  const cost = { ...opts.cost, pilot: undefined };
  const pilot = await r.first({ ...opts, count: n, cost });
  // Stopped (Ctrl-C, a full disk) or incomplete: what ran is recorded; --resume goes on.
  if (opts.stopSignal?.aborted || pilot.incomplete.length > 0) return pilot;
  opts.onProgress?.({
    type: "note",
    message: `pilot: ${pilot.reports.length} run(s) done (${n} per task and treatment); the rest is estimated from them`,
  });
  return r.rest({
    ...opts,
    out: pilot.outDir,
    resume: true,
    cost: { ...cost, fromPilot: true },
  });
}
