/**
 * The end of `run`, `eval` and `calibrate`: their reporters (the CI outputs, then telemetry) run
 * through the library's one lifecycle (runner/lifecycle.ts `runWithReporters`); this prints what
 * they say and folds their failures into the exit code.
 */
import {
  ciReporters,
  runWithReporters,
  type CommandSteps,
  type ReporterOutcome,
} from "../index.js";
import { historyReporter } from "../history/record-experiment.js";
import type { CiFlags } from "./ci.js";
import { openTelemetryReporter, type TelemetryFlags } from "./telemetry.js";

/** Files first (under the results), then each reporter's lines: stderr notes, stdout lines. */
function printOutcomes(outcomes: ReporterOutcome[]): void {
  for (const o of outcomes) for (const file of o.files ?? []) process.stdout.write(`  ${file}\n`);
  for (const o of outcomes) {
    for (const n of o.notes ?? []) process.stderr.write(`${n}\n`);
    for (const l of o.lines ?? []) process.stdout.write(`${l}\n`);
  }
}

/**
 * Run a command's experiment with its reporters. `settle` prints the command's own block and
 * sets `ctx.exitCode`; a reporter that failed (a threshold, a required export) makes it 1.
 * `declared`: the --env values, redacted from telemetry.
 */
export async function runReported<R>(
  f: CiFlags & TelemetryFlags & { history?: string | boolean },
  declared: Record<string, string>,
  ctx: { exitCode: number },
  steps: Omit<CommandSteps<R>, "outcomes">,
  kind: "run" | "eval" | "calibrate" = "run",
): Promise<R> {
  const ci = ciReporters({
    junit: f.junit,
    failUnder: f.failUnder,
    judgeCalibration: f.judgeCalibration,
    judgeAlphaMin: f.judgeAlphaMin,
    history: f.history,
  });
  const telemetry = await openTelemetryReporter(f, declared);
  // Last: a store that cannot be reached is a warning after everything else is said.
  const history = historyReporter(kind, {
    off: f.history === false,
    ...(typeof f.history === "string" ? { target: f.history } : {}),
  });
  return runWithReporters([...ci.reporters, ...(telemetry ? [telemetry] : []), history], {
    ...steps,
    outcomes: (outcomes) => {
      printOutcomes(outcomes);
      if (outcomes.some((o) => o.failed === true) && ctx.exitCode === 0) ctx.exitCode = 1;
    },
  });
}
