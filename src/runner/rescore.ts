import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import { mapPool } from "../util/pool.js";
import { loadSuiteProfiles, resolveProfile, type RubricProfile } from "../scoring/index.js";
import { writeExperimentReports } from "./finish.js";
import { readSuiteSnapshot, type SuiteSnapshot } from "../store/suite-snapshot.js";
import { setupJudge, type JudgeFlags } from "./judge-setup.js";
import { loadModelScript, scriptServesRole, startModelServer } from "../model/index.js";
import { makeRedactor, secretsFromEnv } from "../util/redact.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import { resolveClaudeBinary } from "../agents/claude/binary.js";
import { RunIndexWriter } from "../store/run-index.js";
import { sha256 } from "../util/hash.js";
import { rescoreRun, type RescoreContext } from "./rescore-run.js";

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
  onProgress?: (message: string) => void;
}

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
  /** every rescored run, as its digest (the full reports are in the results folder) */
  reports: RunDigest[];
  changed: string[];
  files: string[];
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
  const snapshot = await readSuiteSnapshot(outDir);
  const hostEnv = opts.hostEnv ?? process.env;
  const script = opts.modelScript ? await loadModelScript(opts.modelScript) : null;
  const server = script ? await startModelServer({ script, scriptFile: opts.modelScript }) : null;
  try {
    const scriptId = opts.modelScript ? sha256(await readFile(opts.modelScript)) : "";
    return await rescoreWith(
      outDir,
      snapshot,
      opts,
      hostEnv,
      server?.url ?? null,
      script ? scriptServesRole(script, "judge") : false,
      scriptId,
    );
  } finally {
    await server?.close();
  }
}

async function rescoreWith(
  outDir: string,
  snapshot: SuiteSnapshot,
  opts: RescoreOptions,
  hostEnv: Record<string, string | undefined>,
  serverUrl: string | null,
  scriptHasJudge: boolean,
  scriptId: string,
): Promise<RescoreResult> {
  // The profiles kept in the results folder: edit them there and rescore.
  const suiteProfiles = await loadSuiteProfiles(
    snapshot.profiles.map((p) => ({ name: p.name, file: path.join(outDir, p.file) })),
  );
  const judge = setupJudge({
    flags: opts.judgeFlags ?? {},
    hostEnv,
    suiteSection: undefined,
    outDir,
    scriptedServerUrl: serverUrl,
    scriptHasJudge,
    scriptId,
  });
  const redact = makeRedactor(secretsFromEnv(hostEnv));
  const bin = resolveClaudeBinary({ env: hostEnv });
  let ids: string[];
  try {
    ids = (await readdir(`${outDir}/runs`, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    throw new InputError(`${outDir}: not a skillbench results folder (no runs/ folder)`, {
      file: outDir,
    });
  }
  // Looked up once per rescore, not per run (the first of a name, as the suite lists them).
  const tasks = new Map<string, TaskSpec>();
  for (const t of snapshot.tasks) if (!tasks.has(t.name)) tasks.set(t.name, t);
  const treatments = new Map<string, TreatmentSpec>();
  for (const t of snapshot.treatments) if (!treatments.has(t.name)) treatments.set(t.name, t);
  const profiles = new Map<string, RubricProfile>();
  const profileNamed = (name: string): RubricProfile => {
    let p = profiles.get(name);
    if (p === undefined) profiles.set(name, (p = resolveProfile(name, suiteProfiles)));
    return p;
  };
  const ctx: RescoreContext = {
    outDir,
    profile: opts.profile,
    tasks,
    treatments,
    profileNamed,
    judge,
    redact,
    hostEnv,
    claudeBin: "error" in bin ? undefined : bin.path,
  };
  // The run index is written anew beside the old one and renamed over it at the end (never
  // appended to: a folder copied with hard links shares its index with the original), with a
  // line for every rescored run, so that the experiment reports read it instead of every
  // report.json again.
  const index = await RunIndexWriter.create(outDir);
  // Runs are rescored RESCORE_CONCURRENCY at a time (a judge waits on its model); what is kept
  // of each is its digest, in id order.
  const done: Array<{ digest: RunDigest; changed: boolean } | null> = ids.map(() => null);
  try {
    await mapPool(ids, RESCORE_CONCURRENCY, async (id, i) => {
      if (i % RUNS_PER_TURN === RUNS_PER_TURN - 1)
        await new Promise<void>((resolve) => setImmediate(resolve));
      const run = await rescoreRun(ctx, id);
      if (run === null) return; // an incomplete run: nothing to rescore
      // The index's copy of the digest holds its shared values once for all runs (memory that
      // does not grow with every run's copy of them).
      const digest = index
        ? index.add(id, run.stamp, run.digest, run.reportJson).digest
        : run.digest;
      done[i] = { digest, changed: run.changed };
      await index?.drained();
      opts.onProgress?.(`${run.changed ? "rescored" : "unchanged"} ${id}`);
    });
  } finally {
    // Also after a failure: its lines are those of runs whose report.json they match.
    await index?.commit();
  }
  const reports = done.flatMap((d) => (d ? [d.digest] : []));
  const changed = ids.filter((_, i) => done[i]?.changed === true);
  if (reports.length === 0)
    throw new InputError(`${outDir}: no run reports found: run a suite first`, { file: outDir });
  const files = await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html });
  return { reports, changed, files };
}
