/**
 * `skillbench calibrate SUITE --treatment T --count N` (docs/statistics.md §13): T runs 2N times
 * per task through the ordinary run pipeline; its runs are then read as two arms of the same
 * treatment (calibration.json and a section in summary.md).
 */
import { InputError } from "../core/errors.js";
import { DEFAULT_SPLITS, type Calibration } from "../report/calibration/types.js";
import { readCalibration, writeCalibration } from "../report/calibration/write.js";
import { writeExperimentReportsOf } from "./finish.js";
import { runSuite, type RunOptions, type RunSummary } from "./run-suite.js";

/** Repetitions per arm when --count is not given. */
export const DEFAULT_PER_ARM = 5;

export interface CalibrateOptions {
  /** the one treatment to calibrate */
  treatment: string;
  /** repetitions per arm (the treatment runs twice as many times per task) */
  perArm?: number | undefined;
  splits?: number | undefined;
}

export async function runCalibration(
  opts: RunOptions,
  cal: CalibrateOptions,
  run: (o: RunOptions) => Promise<RunSummary> = runSuite,
): Promise<RunSummary & { calibration: Calibration }> {
  if (!/^[^,*\s]+$/.test(cal.treatment))
    throw new InputError(
      `--treatment ${cal.treatment}: calibrate takes exactly one treatment name (no list, no wildcard)`,
      { field: "--treatment" },
    );
  const perArm = cal.perArm ?? DEFAULT_PER_ARM;
  const settings = {
    treatment: cal.treatment,
    per_arm: perArm,
    splits: cal.splits ?? DEFAULT_SPLITS,
    seed: 1,
    margin: opts.margin ?? 0.05,
  };
  // calibration.json is written at the end of the run, before the reports that show it: the
  // reports are written once.
  const res = await run({
    ...opts,
    treatment: cal.treatment,
    count: 2 * perArm,
    calibration: settings,
  });
  const written = res.source ? await readCalibration(res.outDir) : null;
  if (written) return { ...res, calibration: written };
  // The run wrote no reports (a queue's workers): the calibration and the reports now.
  const calibration = await writeCalibration(res.outDir, settings);
  const { files, source } = await writeExperimentReportsOf(res.outDir, {
    ks: opts.ks,
    html: opts.html,
  });
  return { ...res, files, source, calibration };
}
