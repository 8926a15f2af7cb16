import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { InputError } from "../../core/errors.js";
import { buildJudgeCalibration } from "../../judge/calibration/build.js";
import { judgeIdentityOf } from "../../judge/calibration/identity.js";
import { errorCode, parseLabels } from "../../judge/calibration/labels.js";
import { renderJudgeCalibration } from "../../judge/calibration/render.js";
import { DEFAULT_JUDGE_ALPHA_MIN } from "../../judge/calibration/require.js";
import { JUDGE_CALIBRATION_FILE } from "../../judge/calibration/schema.js";
import { recordCalibrationInHistory } from "../../judge/calibration/history.js";
import { historySourceTarget } from "../../history/results-folders.js";
import { readReports } from "../../store/read.js";
import { writeJsonAtomic } from "../../util/fs.js";
import { addFlags, JUDGE_CALIBRATE_FLAGS, type FlagValues } from "../flags.js";

/**
 * `skillbench judge calibrate DIR --labels FILE` (docs/judge.md, Calibration): the judge's scores
 * of a results folder against human labels; writes DIR/judge-calibration.json and prints the
 * markdown, and records it in the history store. Gates on judge dimensions read both
 * (judge/calibration/require.ts).
 */
export function registerJudge(program: Command): void {
  const judge = program.command("judge").description("The LLM judge's own tools (docs/judge.md).");
  addFlags(
    judge
      .command("calibrate")
      .description(
        "Agreement of the judge with human labels of a results folder's runs: Cohen's κ, Krippendorff's α and the confusion per dimension with bootstrap intervals, and the judge's repeatability across --judge-samples; writes judge-calibration.json, which a gate on a judge dimension requires.",
      )
      .argument("<dir>", "results folder whose runs were judged"),
    JUDGE_CALIBRATE_FLAGS,
  ).action(async (dir: string, f: FlagValues<typeof JUDGE_CALIBRATE_FLAGS>) => {
    if (!f.labels)
      throw new InputError("judge calibrate needs --labels FILE (JSONL human labels)", {
        field: "--labels",
      });
    const labelsFile = path.resolve(f.labels);
    const text = await readFile(labelsFile, "utf8").catch((e: unknown) => {
      throw new InputError(`${labelsFile}: cannot read the labels (${errorCode(e)})`, {
        file: labelsFile,
        field: "--labels",
      });
    });
    const labels = parseLabels(labelsFile, text);
    const outDir = path.resolve(dir);
    const { reports } = await readReports(outDir);
    if (reports.length === 0)
      throw new InputError(`${outDir}: no stored runs (is it a results folder?)`, {
        file: outDir,
      });
    const id = await judgeIdentityOf(reports.map((r) => r.judge));
    if (!id.ok)
      throw new InputError(`${outDir}: cannot calibrate: the judge's ${id.missing.join("; ")}`, {
        file: outDir,
        field: "judge",
      });
    const calibration = buildJudgeCalibration(reports, labels, id.identity, {
      levels: f.levels,
      experimentId: reports[0]?.experiment_id ?? null,
      createdAt: new Date().toISOString(),
    });
    const file = path.join(outDir, JUDGE_CALIBRATION_FILE);
    await writeJsonAtomic(file, calibration);
    process.stdout.write(
      renderJudgeCalibration(calibration, f.judgeAlphaMin ?? DEFAULT_JUDGE_ALPHA_MIN),
    );
    process.stdout.write(`\nWritten: ${file}\n`);
    // Also in the history store (--history, else the default beside the results), where a gate of
    // a later experiment of the same judge finds it; a store that cannot be reached is a warning.
    const target = historySourceTarget(f.history, outDir, process.cwd());
    if (target !== null) {
      const rec = await recordCalibrationInHistory(target, outDir, calibration);
      if (rec.ok) process.stdout.write(`Recorded in the history store: ${rec.where}\n`);
      else process.stderr.write(`${rec.warning}\n`);
    }
  });
}
