/**
 * Judge calibrations in the history store (docs/judge.md, "Calibration"; docs/history.md): `judge
 * calibrate` records each one there besides the results folder, and a gate on a judge dimension
 * looks there too, so that one calibration vouches for the later experiments of the same judge.
 * Neither ever creates a store that is not there to be read, and recording never fails the command.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../../core/errors.js";
import {
  isPostgresUrl,
  maskUrl,
  openHistory,
  type JudgeKey,
  type StoredJudgeCalibration,
} from "../../history/store.js";
import type { JudgeCalibration } from "./schema.js";

/** Where a store is, for messages (a URL with its password masked). */
function storeWhere(target: string): string {
  return isPostgresUrl(target) ? maskUrl(target) : target;
}

/**
 * Record `c` (of the runs in `resultsDir`) in the store at `target`. Returns the store's name, or
 * a warning line when it could not be recorded (the calibration file is written regardless).
 */
export async function recordCalibrationInHistory(
  target: string,
  resultsDir: string,
  c: JudgeCalibration,
): Promise<{ ok: true; where: string } | { ok: false; warning: string }> {
  const where = storeWhere(target);
  try {
    const store = await openHistory(target);
    try {
      await store.recordCalibration(path.resolve(resultsDir), c);
    } finally {
      await store.close();
    }
    return { ok: true, where };
  } catch (e) {
    return {
      ok: false,
      warning: `warning: the judge calibration was not recorded in the history store ${where}: ${errorMessage(e).replaceAll(target, where)}`,
    };
  }
}

/**
 * The store's calibrations of this judge, newest first. A SQLite file that does not exist is none
 * (it is not created); a store that cannot be opened or read is `error` (the refusal names it).
 */
export async function historyCalibrations(
  target: string,
  key: JudgeKey,
): Promise<{ where: string; found: StoredJudgeCalibration[]; error: string | null }> {
  const where = storeWhere(target);
  if (!isPostgresUrl(target) && !existsSync(target)) return { where, found: [], error: null };
  try {
    const store = await openHistory(target);
    try {
      return { where, found: await store.calibrations(key), error: null };
    } finally {
      await store.close();
    }
  } catch (e) {
    return { where, found: [], error: errorMessage(e).replaceAll(target, where) };
  }
}
