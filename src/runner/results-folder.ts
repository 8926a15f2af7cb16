import { readdir } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import type { RunSpec } from "../plan/matrix.js";
import { experimentPaths } from "../store/layout.js";
import { LOCK_FILE, withResultsLock, type LockOptions } from "../store/lock.js";
import { readMetadata, readResultsOwner, type ExperimentMetadata } from "../store/metadata.js";
import { readStoredRuns } from "../store/read.js";
import type { Suite } from "../suite/index.js";
import type { RunOptions } from "./run-options.js";

/**
 * A results folder belongs to one suite: `--resume` into another suite's folder, and `--out` into
 * a non-empty folder that is not a results folder (no metadata.json), are bad input.
 */
async function checkOutDir(outDir: string, suite: Suite, resume: boolean): Promise<void> {
  // What `skillbench eval` puts there before the run (the compiled suite, the manifest, the
  // task generator's transcripts) is ours.
  const entries = (await readdir(outDir).catch(() => [] as string[])).filter((e) => {
    if (e === "eval.yaml" || e === "generation") return false;
    // The folder's lock (store/lock.ts), which this process has just taken.
    if (e === LOCK_FILE || e.startsWith(`${LOCK_FILE}.`)) return false;
    const rel = path.relative(path.join(outDir, e), suite.root);
    return !(rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel)));
  });
  if (entries.length === 0) return;
  const owner = await readResultsOwner(experimentPaths(outDir).metadata);
  if (owner === null)
    throw new InputError(
      `${outDir} is not empty and is not a skillbench results folder (no metadata.json): choose a new or empty --out`,
      { file: outDir, field: "--out" },
    );
  if (!resume) return;
  const { suitePath, suiteHash } = owner;
  if (suitePath !== null && path.resolve(suitePath) !== path.resolve(suite.root)) {
    if (suiteHash !== suite.hash)
      throw new InputError(
        `--resume: ${outDir} holds the results of another suite (${suitePath}), not of ${suite.root}: resume it with that suite, or choose another --out`,
        { file: path.join(outDir, "metadata.json"), field: "suite.path" },
      );
  }
}

/** What an earlier run of the experiment left that this one keeps (`--resume`). */
export interface PriorResults {
  experimentId: string | null;
  startedAt: string | null;
  roles: ExperimentMetadata["comparison_roles"];
  margin: number | undefined;
  /** Complete stored runs of this request: not run again. */
  reused: RunDigest[];
  /** Complete stored runs outside this request: kept in the reports. */
  keptOutside: RunDigest[];
  /** The earlier invocation's budget record (its judge spend counts again on `--resume`). */
  budget?: ExperimentMetadata["budget"];
}

/**
 * Check the results folder a run writes into and, on `--resume`, what it already holds: a stored
 * run is reused only when it did not error and its task and skills are unchanged.
 */
export async function openResultsFolder(
  outDir: string,
  suite: Suite,
  planned: RunSpec[],
  resume: boolean,
  note: (message: string) => void,
): Promise<PriorResults> {
  const prior: PriorResults = {
    experimentId: null,
    startedAt: null,
    roles: undefined,
    margin: undefined,
    reused: [],
    keptOutside: [],
  };
  await checkOutDir(outDir, suite, resume);
  if (!resume) {
    const existing = await readdir(path.join(outDir, "runs")).catch(() => [] as string[]);
    if (existing.length > 0)
      throw new InputError(
        `${outDir} already holds runs: pass --resume to complete it, or choose another --out`,
        { file: outDir, field: "--out" },
      );
    return prior;
  }
  const prev = await readMetadata(experimentPaths(outDir).metadata);
  if (prev) {
    prior.experimentId = prev.experiment_id;
    prior.startedAt = prev.started_at;
    prior.roles = prev.comparison_roles;
    prior.margin = prev.margin;
    prior.budget = prev.budget;
  }
  const wanted = new Set(planned.map((r) => r.run_id));
  // A stored run is reused only when its task and skills are unchanged.
  const current = (r: RunDigest): boolean => {
    const task = suite.tasks.find((t) => t.name === r.task);
    const tr = suite.treatments.find((t) => t.name === r.treatment);
    if (!task || !tr || r.hashes.task !== task.hash) return false;
    const want = tr.skills.map((s) => `${s.name}@${s.hash}`).join(",");
    return r.skill_sources.map((s) => `${s.name}@${s.hash}`).join(",") === want;
  };
  const stored = (await readStoredRuns(outDir).catch(() => ({ digests: [] as RunDigest[] })))
    .digests;
  const complete = stored.filter((r) => r.status !== "errored");
  prior.reused = complete.filter((r) => wanted.has(r.run_id) && current(r));
  const stale = complete.filter((r) => wanted.has(r.run_id) && !current(r));
  if (stale.length > 0)
    note(`${stale.length} stored run(s) are for a changed task or skill and will run again`);
  // --resume never shrinks an experiment: complete stored runs outside this request (a smaller
  // --count, a narrower --task/--treatment) stay in the reports (docs/statistics.md §10).
  prior.keptOutside = complete.filter((r) => !wanted.has(r.run_id) && current(r));
  const droppedStale = complete.filter((r) => !wanted.has(r.run_id) && !current(r));
  if (prior.keptOutside.length > 0)
    note(
      `${prior.keptOutside.length} complete stored run(s) outside this --count/--task/--treatment are kept in the reports (an experiment never shrinks on --resume)`,
    );
  if (droppedStale.length > 0)
    note(
      `${droppedStale.length} stored run(s) outside this request are for a changed task or skill and are left out of the reports: ${droppedStale.map((r) => r.run_id).join(", ")}`,
    );
  return prior;
}

/** How a run takes its results folder's lock (store/lock.ts): the command it names, --wait, Ctrl-C. */
export function resultsLockOptions(
  opts: RunOptions,
  outDir: string,
  note: (message: string) => void,
): LockOptions {
  return {
    // The command's name only: its arguments may hold secrets (--env KEY=VALUE).
    command: `${opts.lockCommand ?? "skillbench run"}${opts.resume ? " --resume" : ""}${opts.queue?.dispatch ? " --queue" : ""}`,
    wait: opts.waitForLock,
    signal: opts.stopSignal,
    onWait: (h) =>
      note(
        `waiting for the skillbench that writes ${outDir} (pid ${h.pid} on ${h.host}, since ${h.started_at}) to end`,
      ),
    onStale: (h) =>
      note(`took over the lock of ${outDir} left by pid ${h.pid} (${h.started_at}), which is gone`),
  };
}

/**
 * Run `fn` holding the lock of the results folder `opts.out` names, when it names one: what a
 * command writes there around `runSuite` (an eval's compiled suite and gates, the rounds of
 * --until-decided, calibration.json) is covered too. runSuite takes the same lock again (nested).
 */
export async function holdResultsFolder<T>(opts: RunOptions, fn: () => Promise<T>): Promise<T> {
  if (!opts.out) return fn();
  const outDir = path.resolve(opts.cwd ?? process.cwd(), opts.out);
  const note = (message: string): void => opts.onProgress?.({ type: "note", message });
  return withResultsLock(outDir, resultsLockOptions(opts, outDir, note), fn);
}
