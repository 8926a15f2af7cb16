import { cp, mkdir } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import type { RunReport } from "../core/report.js";
import { resolveRoles } from "../report/comparison/roles.js";
import { treatmentOrder } from "../report/group.js";
import { experimentPaths, runPaths } from "../store/layout.js";
import { readMetadata } from "../store/metadata.js";
import { readReports } from "../store/read.js";
import type { Suite } from "../suite/index.js";
import { fingerprintDrift, type CurrentFingerprint } from "../report/fingerprint.js";

/**
 * `run --baseline-from DIR`: the baseline arm of an earlier results folder, reused instead of run
 * again (docs/statistics.md §11). Its runs are copied into the new folder only when their
 * fingerprints match this run's; otherwise the run refuses with the list of differences, or,
 * with --allow-drift, records them.
 */
export interface FrozenBaseline {
  dir: string;
  treatment: string;
  /** complete, non-errored baseline runs of the tasks planned now */
  reports: RunReport[];
}

export async function loadFrozenBaseline(dir: string, tasks: string[]): Promise<FrozenBaseline> {
  const meta = await readMetadata(experimentPaths(dir).metadata);
  const { reports } = await readReports(dir).catch(() => ({ reports: [] as RunReport[] }));
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
  return { dir, treatment, reports: runs };
}

/** Copy the frozen runs' folders into the new results folder. */
async function copyFrozenRuns(fb: FrozenBaseline, outDir: string): Promise<void> {
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  for (const r of fb.reports)
    await cp(runPaths(fb.dir, r.run_id).dir, runPaths(outDir, r.run_id).dir, { recursive: true });
}

export function suiteFingerprint(
  suite: Suite,
  opts: {
    agentVersion: string | null;
    model: string | null;
    sandbox: string | null;
    profileOverride: string | null;
    treatment: string;
  },
): CurrentFingerprint {
  const tr = suite.treatments.find((t) => t.name === opts.treatment);
  return {
    agentVersion: opts.agentVersion,
    model: opts.model,
    taskHash: (task) => suite.tasks.find((t) => t.name === task)?.hash,
    sandbox: (task) => {
      const choice =
        opts.sandbox ??
        suite.tasks.find((t) => t.name === task)?.environment.sandbox ??
        suite.config.sandbox ??
        "local";
      return choice === "auto" ? null : choice;
    },
    profile: (task) =>
      opts.profileOverride ??
      tr?.profile ??
      suite.tasks.find((t) => t.name === task)?.evaluation.inferred_profile ??
      "generic",
  };
}

/**
 * Reuse the frozen baseline in a new results folder: refuse when its fingerprints differ from
 * this run's (unless --allow-drift), else copy its runs in. Returns the differences found.
 */
export async function adoptFrozenBaseline(
  frozen: FrozenBaseline,
  outDir: string,
  now: CurrentFingerprint,
  allowDrift: boolean,
  note: (message: string) => void,
): Promise<string[]> {
  const drift = fingerprintDrift(frozen.reports, now);
  if (drift.length > 0 && !allowDrift)
    throw new InputError(
      `--baseline-from ${frozen.dir}: the frozen ${frozen.treatment} runs do not match this run:\n  - ${drift.join("\n  - ")}\nRun the baseline again, or pass --allow-drift to compare anyway (the differences are recorded in the reports).`,
      { file: frozen.dir, field: "--baseline-from" },
    );
  await mkdir(outDir, { recursive: true });
  await copyFrozenRuns(frozen, outDir);
  note(
    `baseline ${frozen.treatment}: ${frozen.reports.length} frozen run(s) reused from ${frozen.dir}${drift.length > 0 ? ` despite ${drift.length} difference(s) (--allow-drift): ${drift.join("; ")}` : " (fingerprints match)"}`,
  );
  return drift;
}
