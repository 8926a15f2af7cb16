/**
 * A gate on a judge dimension needs a calibration (docs/judge.md, "Calibration"): a quality gate
 * `minJudge<Dimension>` or `--fail-under judge.<dimension>=MIN` is refused (InputError, exit 2)
 * unless a stored judge-calibration.json of the same judge model, prompt digest and rubric shows
 * Krippendorff's α (ordinal) at or above the threshold for that dimension. Without it a judge's
 * score is a number nobody has checked against people, and a release would hang on it.
 *
 * Where calibrations are looked for: judge-calibration.json in the results folder(s) being
 * gated, the file given with `--judge-calibration`, and the history store's calibrations of the
 * same judge (judge/calibration/history.ts), recorded there by `judge calibrate`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { JudgeBlock } from "../../core/judge.js";
import { InputError } from "../../core/errors.js";
import { historyCalibrations } from "./history.js";
import { judgeIdentityOf, type JudgeIdentity } from "./identity.js";
import { errorCode } from "./labels.js";
import { JUDGE_CALIBRATION_FILE, JudgeCalibrationSchema, type JudgeCalibration } from "./schema.js";

/** Krippendorff's customary lowest α for tentative conclusions. */
export const DEFAULT_JUDGE_ALPHA_MIN = 0.67;

export interface StoredCalibration {
  file: string;
  calibration: JudgeCalibration;
}

/** Read and check a calibration file; null when it does not exist (optional places only). */
async function readJudgeCalibration(
  file: string,
  required: boolean,
): Promise<StoredCalibration | null> {
  const text = await readFile(file, "utf8").catch((e: unknown) => {
    if (errorCode(e) === "ENOENT" && !required) return null;
    throw new InputError(`${file}: cannot read the judge calibration (${errorCode(e)})`, {
      file,
      field: "--judge-calibration",
    });
  });
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${file}: not JSON (${(e as Error).message})`, { file });
  }
  const parsed = JudgeCalibrationSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") ?? "";
    throw new InputError(
      `${file}: ${field || "(file)"}: ${issue?.message ?? "invalid"} (not a judge-calibration.json of this version: run skillbench judge calibrate again)`,
      { file, field },
    );
  }
  return { file, calibration: parsed.data };
}

/** Why one stored calibration does not vouch for this judge's dimension; null: it does. */
function mismatch(
  s: StoredCalibration,
  id: JudgeIdentity,
  dimension: string,
  alphaMin: number,
): string | null {
  const c = s.calibration;
  const name = s.file;
  if (c.judge.model !== id.model)
    return `${name}: calibrated judge model ${c.judge.model}, the runs were judged by ${id.model}`;
  if (c.judge.prompt_digest !== id.prompt_digest)
    return `${name}: prompt digest ${c.judge.prompt_digest.slice(0, 12)} calibrated, the runs' judge prompt is ${id.prompt_digest.slice(0, 12)} (the prompt changed: calibrate again)`;
  if (c.judge.rubric_digest !== id.rubric_digest)
    return `${name}: rubric ${c.judge.rubric.profile} [${c.judge.rubric.dimensions.join(", ")}] calibrated, the runs' rubric is ${id.rubric.profile} [${id.rubric.dimensions.join(", ")}]`;
  const d = c.dimensions.find((x) => x.name === dimension);
  if (!d) return `${name}: no human labels for ${dimension}`;
  const a = d.alpha_ordinal;
  if (a.estimate === null)
    return `${name}: α of ${dimension} is undefined (every label and score on one level, or no run with two labels)`;
  if (a.estimate < alphaMin - 1e-9)
    return `${name}: α of ${dimension} = ${a.estimate.toFixed(3)}${a.low !== null && a.high !== null ? ` [${a.low.toFixed(3)}, ${a.high.toFixed(3)}]` : ""} is below the threshold ${alphaMin}`;
  return null;
}

export interface CalibrationDemand {
  /** What asks for it, e.g. `--fail-under judge.task_completion=0.7`. */
  gate: string;
  dimension: string;
  /** The error's field and file (default: `--fail-under`, none). */
  field?: string;
  file?: string;
}

/**
 * Throws InputError naming what is missing unless every demand is vouched for by one of the
 * calibrations (in the results folders, then `file`). Returns which file vouched for each.
 */
export async function requireJudgeCalibration(opts: {
  demands: readonly CalibrationDemand[];
  blocks: ReadonlyArray<JudgeBlock | null>;
  outDirs: readonly string[];
  file?: string | undefined;
  alphaMin?: number | undefined;
  /** The history store to look in too (a SQLite file or postgres:// URL); null or absent: none. */
  history?: string | null | undefined;
}): Promise<Array<{ gate: string; file: string }>> {
  if (opts.demands.length === 0) return [];
  const alphaMin = opts.alphaMin ?? DEFAULT_JUDGE_ALPHA_MIN;
  const stored: StoredCalibration[] = [];
  for (const dir of opts.outDirs) {
    const s = await readJudgeCalibration(path.join(dir, JUDGE_CALIBRATION_FILE), false);
    if (s) stored.push(s);
  }
  if (opts.file !== undefined) {
    const s = await readJudgeCalibration(path.resolve(opts.file), true);
    if (s) stored.push(s);
  }
  const refuse = (d: CalibrationDemand, missing: string[]): InputError =>
    new InputError(
      `${d.gate} is refused: a gate on a judge dimension needs a stored calibration of the same judge model, prompt digest and rubric with α ≥ ${alphaMin} (docs/judge.md, Calibration). Missing: ${missing.join("; ")}. Label runs and run \`skillbench judge calibrate DIR --labels FILE\`, or pass --judge-calibration FILE`,
      { field: d.field ?? "--fail-under", ...(d.file ? { file: d.file } : {}) },
    );
  const id = await judgeIdentityOf(opts.blocks);
  const first = opts.demands[0] as CalibrationDemand;
  if (!id.ok) throw refuse(first, id.missing);
  const where = [
    ...opts.outDirs.map((d) => path.join(d, JUDGE_CALIBRATION_FILE)),
    ...(opts.file ? [opts.file] : []),
  ];
  // The store's calibrations of this judge, after the files; the same matching decides.
  if (opts.history) {
    const h = await historyCalibrations(opts.history, id.identity);
    where.push(`the history store ${h.where}${h.error === null ? "" : ` (not read: ${h.error})`}`);
    for (const c of h.found)
      stored.push({
        file: `the history store ${h.where} (calibration of ${c.results_dir}, ${c.calibration.created_at})`,
        calibration: c.calibration,
      });
  }
  const vouched: Array<{ gate: string; file: string }> = [];
  for (const demand of opts.demands) {
    if (stored.length === 0)
      throw refuse(demand, [
        `a calibration (none found at ${where.join(", ")}) for judge model ${id.identity.model}, prompt digest ${id.identity.prompt_digest.slice(0, 12)}, rubric ${id.identity.rubric.profile} [${id.identity.rubric.dimensions.join(", ")}] with α(${demand.dimension}) ≥ ${alphaMin}`,
      ]);
    const why = stored.map((s) => mismatch(s, id.identity, demand.dimension, alphaMin));
    const ok = stored.findIndex((_s, i) => why[i] === null);
    if (ok < 0)
      throw refuse(demand, [
        ...why.filter((w): w is string => w !== null),
        `no other calibration of this judge at ${where.join(", ")}`,
      ]);
    vouched.push({ gate: demand.gate, file: (stored[ok] as StoredCalibration).file });
  }
  return vouched;
}
