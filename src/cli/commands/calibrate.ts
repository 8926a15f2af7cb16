import path from "node:path";
import type { Command } from "commander";
import {
  floorLine,
  isSkillFolder,
  prepareEval,
  runCalibration,
  DEFAULT_PER_ARM,
  InputError,
  MIN_PER_ARM,
  planTarget,
  renderPlan,
  runSuite,
  runWithPilot,
} from "../../index.js";
import type { Calibration } from "../../report/calibration/types.js";
import { addFlags, CALIBRATE_ONLY_FLAGS, RUN_FLAGS, type FlagValues } from "../flags.js";
import { runReported } from "../reporters.js";
import { planEstimateText } from "../estimate.js";
import {
  defaultProgress,
  printWarning,
  runOptionsFromFlags,
  runsPassedText,
  runWithSignals,
  type RunFlags,
} from "./run.js";

/** `skillbench calibrate SUITE --treatment T --count N` (docs/statistics.md §13). */
export function registerCalibrate(program: Command, ctx: { exitCode: number }): void {
  addFlags(
    program
      .command("calibrate")
      .description(
        "A/A calibration: run one treatment as two arms (2 × --count runs per task) and report its flip rate per task and how often the verdict rule would claim a difference.",
      )
      .argument(
        "<suite>",
        "suite folder (with tasks/), a single task folder, or a Skill folder (compiled as `eval` does: CONTROL, WITH_SKILL and its baselines)",
      ),
    [...RUN_FLAGS, ...CALIBRATE_ONLY_FLAGS],
  ).action(async (suite: string, f: RunFlags & FlagValues<typeof CALIBRATE_ONLY_FLAGS>) => {
    if (!f.treatment)
      throw new InputError("calibrate needs --treatment T: the one treatment to run as two arms", {
        field: "--treatment",
      });
    const treatment = f.treatment;
    const perArm = f.count ?? DEFAULT_PER_ARM;
    // Below the minimum the runs are still recorded, but no floor is quoted from them.
    if (perArm < MIN_PER_ARM)
      process.stderr.write(
        `warning: calibrate --count ${perArm}: ${perArm} run(s) per arm is below the minimum of ${MIN_PER_ARM}: the runs are recorded, but no noise floor is quoted from them (a floor from so few runs is itself noise)\n`,
      );
    if (f.dryRun) {
      // The runs calibrate would run: the one treatment, 2 × --count per task (as eval compiles
      // a Skill folder when it is one).
      const plan = await planTarget(suite, {
        ...runOptionsFromFlags(f),
        treatment,
        count: 2 * perArm,
        onWarning: printWarning,
      });
      process.stdout.write(renderPlan(plan, await planEstimateText(plan, f)));
      return;
    }
    let opts = runOptionsFromFlags(f);
    let target = suite;
    // A Skill folder is compiled into a suite as `eval` compiles it (docs/manifest.md), with
    // eval's defaults: the best sandbox and a results folder under .skillbench/runs/.
    if (await isSkillFolder(path.resolve(suite))) {
      const prepared = await prepareEval({
        skill: suite,
        ...opts,
        onNote: (m: string) => void process.stderr.write(`${m}\n`),
      });
      target = prepared.compiled.dir;
      opts = { ...opts, out: prepared.outDir, sandbox: opts.sandbox ?? "auto" };
      process.stderr.write(
        `skillbench calibrate: Skill ${prepared.compiled.skillName} (${prepared.loaded.skillDir}), treatments ${prepared.compiled.treatments.join(", ")}\n`,
      );
    }
    const got: { calibration: Calibration | null } = { calibration: null };
    await runReported(
      f,
      opts.env,
      ctx,
      {
        run: (hooks) =>
          runWithSignals({ suite: target, ...opts, ...hooks(defaultProgress()) }, (o) =>
            runWithPilot(
              // The pilot runs the one treatment; the calibration then runs it 2 × --count times.
              { ...o, treatment },
              {
                rest: (x) =>
                  runCalibration(x, { treatment, perArm, splits: f.splits }).then((r) => {
                    got.calibration = r.calibration;
                    return r;
                  }),
                first: runSuite,
                fullCount: 2 * perArm,
              },
            ),
          ),
        summary: (res) => res,
        settle: (res) => {
          process.stdout.write(
            `\n${runsPassedText(res, res.outDir)}` +
              (got.calibration
                ? `\n\n${floorLine(got.calibration).replace(/\*\*|`/g, "")}\n`
                : "\n") +
              `\nResults: ${res.outDir}\n${res.files.map((x) => `  ${x}`).join("\n")}\n`,
          );
          // A calibration measures failures; they are no error. Incomplete runs are.
          ctx.exitCode = res.incomplete.length > 0 ? 1 : 0;
          return [];
        },
      },
      "calibrate",
    );
  });
}
