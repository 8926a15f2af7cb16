/**
 * calibration.json on disk: written by `skillbench calibrate`, recomputed from the stored runs by
 * `report` and `rescore`, and looked up by a comparison (docs/statistics.md §13).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../../core/errors.js";
import type { RunDigest } from "../../core/digest.js";
import { readMetadata } from "../../store/metadata.js";
import { readStoredRuns } from "../../store/read.js";
import { readJsonFile, writeJsonAtomic } from "../../util/fs.js";
import { experimentFingerprintOf, isScripted } from "../../plan/fingerprint.js";
import { buildCalibration } from "./build.js";
import {
  CalibrationSchema,
  LegacyCalibrationSchema,
  type Calibration,
  type CalibrationSettings,
} from "./types.js";

const CALIBRATION_FILE = "calibration.json";

/** calibration.json of a results folder, parsed; null when there is none or it does not parse. */
export async function readCalibration(dir: string): Promise<Calibration | null> {
  const json = await readJsonFile(path.join(dir, CALIBRATION_FILE)).catch(() => null);
  const parsed = CalibrationSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const legacy = LegacyCalibrationSchema.safeParse(json);
  return legacy.success ? legacy.data : null;
}

/** Compute the calibration of a results folder from its stored runs and write calibration.json. */
export async function writeCalibration(
  outDir: string,
  settings: CalibrationSettings,
  given?: { reports: RunDigest[]; metadata: unknown; experimentId: string | null },
): Promise<Calibration> {
  let input = given;
  if (!input) {
    const metadata = await readMetadata(path.join(outDir, "metadata.json"));
    const { digests: all } = await readStoredRuns(outDir);
    const planned = metadata?.matrix ? new Set(metadata.matrix.map((r) => r.run_id)) : null;
    input = {
      reports: planned ? all.filter((r) => planned.has(r.run_id)) : all,
      metadata,
      experimentId: metadata?.experiment_id ?? null,
    };
  }
  const cal = buildCalibration({
    reports: input.reports,
    settings,
    experimentId: input.experimentId,
    scripted: isScripted(input.reports, input.metadata),
    experiment: experimentFingerprintOf(input.metadata, input.reports),
  });
  await writeJsonAtomic(path.join(outDir, CALIBRATION_FILE), cal);
  return cal;
}

/**
 * When the folder holds a calibration: recompute it from these (re-scored) reports with its own
 * settings and write it again. Returns it, or null when the folder is no calibration.
 */
export async function refreshCalibration(
  outDir: string,
  reports: RunDigest[],
  metadata: { experiment_id: string } | null,
): Promise<Calibration | null> {
  const old = await readCalibration(outDir);
  if (!old) return null;
  return writeCalibration(outDir, old.settings, {
    reports,
    metadata,
    experimentId: metadata?.experiment_id ?? old.experiment_id,
  });
}

export interface FoundCalibration {
  dir: string;
  calibration: Calibration;
  /** named with --calibration (a mismatch is an error), else found beside the results folder */
  explicit: boolean;
}

/**
 * The calibrations a comparison of `outDir` may use: `explicit` (a results folder given with
 * --calibration; its calibration.json must exist), else every results folder beside `outDir` in
 * the same results root (e.g. .skillbench/runs/) that holds a calibration.json, newest first.
 */
export async function findCalibrations(
  outDir: string,
  explicit?: string,
): Promise<FoundCalibration[]> {
  if (explicit !== undefined) {
    const dir = path.resolve(explicit);
    const cal = await readCalibration(dir);
    if (!cal)
      throw new InputError(
        `--calibration ${explicit}: no readable ${CALIBRATION_FILE} there (run \`skillbench calibrate\` with --out ${explicit})`,
        { file: path.join(dir, CALIBRATION_FILE), field: "--calibration" },
      );
    return [{ dir, calibration: cal, explicit: true }];
  }
  const root = path.dirname(path.resolve(outDir));
  const self = path.resolve(outDir);
  const names = await readdir(root).catch(() => [] as string[]);
  const found: FoundCalibration[] = [];
  for (const name of names.sort().reverse()) {
    const dir = path.join(root, name);
    if (dir === self) continue;
    const cal = await readCalibration(dir);
    if (cal) found.push({ dir, calibration: cal, explicit: false });
  }
  return found;
}
