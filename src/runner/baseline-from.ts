import { cp, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { agentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { RunReport } from "../core/report.js";
import type { RunSpec } from "../plan/matrix.js";
import { settleRun, type PlanSettings } from "../plan/run-plan.js";
import { resolveRoles } from "../plan/roles.js";
import {
  experimentFingerprintOf,
  fingerprintDrift,
  storedFingerprint,
  type ExperimentFingerprint,
  type RunFingerprint,
} from "../plan/fingerprint.js";
import { planFingerprintPart, plannedFingerprint } from "../plan/run-key.js";
import { treatmentOrder } from "../plan/group.js";
import { experimentPaths, runPaths } from "../store/layout.js";
import { readMetadata } from "../store/metadata.js";
import { readReports } from "../store/read.js";
import { parseRunPlan } from "../store/run-files.js";
import type { Suite } from "../suite/index.js";

/**
 * `run --baseline-from DIR`: the baseline arm of an earlier results folder, reused instead of run
 * again (docs/statistics.md §11). Its runs are copied into the new folder only when their
 * fingerprints match this run's (src/plan/fingerprint.ts) and their reports agree with their
 * stored evidence (frozen-evidence.ts); otherwise the run refuses with the list of differences,
 * or, for fingerprints, with --allow-drift, records them.
 */
export interface FrozenBaseline {
  dir: string;
  treatment: string;
  /** complete, non-errored baseline runs of the tasks planned now */
  reports: RunReport[];
  /** each run's fingerprint as recorded (same order as `reports`) */
  fingerprints: RunFingerprint[];
}

export async function loadFrozenBaseline(dir: string, tasks: string[]): Promise<FrozenBaseline> {
  const meta = await readMetadata(experimentPaths(dir).metadata);
  const { reports } = await readReports(dir).catch((e: unknown) => {
    // A report.json broken where its digest does not look (store/read.ts) is named as it is,
    // with its file and field, rather than taken for a folder without runs.
    if (e instanceof InputError && e.details.file?.endsWith("report.json")) throw e;
    return { reports: [] as RunReport[] };
  });
  if (!meta || reports.length === 0)
    throw new InputError(`--baseline-from ${dir}: not a skillbench results folder with runs`, {
      file: dir,
      field: "--baseline-from",
    });
  const treatments = treatmentOrder(reports, meta.treatments);
  let treatment: string;
  try {
    treatment = resolveRoles(treatments, meta.comparison_roles ?? {}).baseline;
  } catch {
    treatment = resolveRoles(treatments, {}).baseline;
  }
  const runs = reports.filter(
    (r) => r.treatment === treatment && tasks.includes(r.task) && r.status !== "errored",
  );
  if (runs.length === 0)
    throw new InputError(
      `--baseline-from ${dir}: no complete run of its baseline ${treatment} for the tasks planned (${tasks.join(", ")})`,
      { file: dir, field: "--baseline-from" },
    );
  // Folders written before metadata.json recorded the endpoint: its kind is read from the runs.
  const experiment = experimentFingerprintOf(meta, reports);
  const fingerprints: RunFingerprint[] = [];
  for (const r of runs) {
    const plan = parseRunPlan(
      await readFile(runPaths(dir, r.run_id).plan, "utf8").catch(() => null),
    );
    fingerprints.push(storedFingerprint(r, experiment, plan ? planFingerprintPart(plan) : null));
  }
  return { dir, treatment, reports: runs, fingerprints };
}

/** Copy the frozen runs' folders into the new results folder. */
async function copyFrozenRuns(fb: FrozenBaseline, outDir: string): Promise<void> {
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  for (const r of fb.reports)
    await cp(runPaths(fb.dir, r.run_id).dir, runPaths(outDir, r.run_id).dir, { recursive: true });
}

/**
 * Each frozen run's fingerprint now: the run settled again under this experiment's settings
 * (its sandbox resolved as a run of it would be), with this experiment's endpoint and judge.
 */
export function currentFingerprints(
  frozen: FrozenBaseline,
  suite: Suite,
  settings: PlanSettings,
  experiment: ExperimentFingerprint,
  /** every run selected now, the frozen arm's included: its agent is the one that would run it */
  specs: readonly RunSpec[],
): RunFingerprint[] {
  return frozen.reports.map((r) => {
    const own = agentDriver(r.agent.name)?.name ?? r.agent.name;
    const same = specs.filter((x) => x.task === r.task && x.treatment === r.treatment);
    const spec =
      same.find((x) => x.rep === r.rep && x.agent === own && x.model === r.model) ??
      same.find((x) => x.rep === r.rep && x.agent === own) ??
      same.find((x) => x.rep === r.rep) ??
      same[0];
    const plan = settleRun(
      settings,
      {
        run_id: r.run_id,
        task: r.task,
        treatment: r.treatment,
        rep: r.rep,
        agent: spec?.agent ?? own,
        // The model that would run it now, compared with the one it ran with.
        model: spec ? spec.model : settings.model,
      },
      r.run_uuid ?? r.run_id,
    );
    const hash = suite.tasks.find((t) => t.name === r.task)?.hash ?? null;
    return plannedFingerprint(plan, hash, experiment);
  });
}

/**
 * Reuse the frozen baseline in a new results folder: refuse when its fingerprints differ from
 * this run's (unless --allow-drift) or `verify` throws (its reports against their evidence:
 * frozen-evidence.ts), else copy its runs in. Returns the differences found.
 */
export async function adoptFrozenBaseline(
  frozen: FrozenBaseline,
  outDir: string,
  now: RunFingerprint[],
  allowDrift: boolean,
  note: (message: string) => void,
  verify: () => Promise<void>,
): Promise<string[]> {
  const drift = fingerprintDrift(
    frozen.fingerprints.map((then, i) => ({ then, now: now[i] ?? then })),
  );
  if (drift.length > 0 && !allowDrift)
    throw new InputError(
      `--baseline-from ${frozen.dir}: the frozen ${frozen.treatment} runs do not match this run:\n  - ${drift.join("\n  - ")}\nRun the baseline again, or pass --allow-drift to compare anyway (the differences are recorded in the reports).`,
      { file: frozen.dir, field: "--baseline-from" },
    );
  await verify();
  await mkdir(outDir, { recursive: true });
  await copyFrozenRuns(frozen, outDir);
  note(
    `baseline ${frozen.treatment}: ${frozen.reports.length} frozen run(s) reused from ${frozen.dir}${drift.length > 0 ? ` despite ${drift.length} difference(s) (--allow-drift): ${drift.join("; ")}` : " (fingerprints match)"}`,
  );
  return drift;
}
