/**
 * `skillbench check SUITE|SKILL_DIR` (docs/health.md): a suite folder is loaded as `run` loads
 * it; a Skill folder is compiled as `eval` compiles it (inspect/target.ts), and checked while
 * the compiled suite exists. Bad input throws InputError (exit 2).
 */
import path from "node:path";
import type { HealthReport } from "../core/health.js";
import { InputError } from "../core/errors.js";
import { planTarget } from "../inspect/target.js";
import { loadSuite, selectNames, type SuiteWarning } from "../suite/index.js";
import { checkSuiteHealth, type HealthOptions } from "./check-suite.js";
import { writeHealth } from "./write.js";

export interface CheckTargetOptions extends Omit<HealthOptions, "tasks" | "target" | "resultsDir"> {
  /** `--task`: a comma list of tasks (default: all). */
  task?: string | undefined;
  /** Where health.json and health.md are written. */
  out: string;
  cwd?: string | undefined;
  onWarning?: ((w: SuiteWarning) => void) | undefined;
}

export interface CheckTargetResult {
  report: HealthReport;
  files: string[];
}

/** Check a suite or Skill folder's tasks and write health.json + health.md into `out`. */
export async function checkTarget(
  target: string,
  o: CheckTargetOptions,
): Promise<CheckTargetResult> {
  const cwd = o.cwd ?? process.cwd();
  const abs = path.resolve(cwd, target);
  const out = path.resolve(cwd, o.out);
  // Set by planTarget's callback (the type checker cannot see it run).
  const got: { report: HealthReport | null } = { report: null };
  await planTarget(abs, {
    cwd,
    task: o.task,
    probe: false,
    onWarning: o.onWarning,
    inspect: async (dir) => {
      const suite = await loadSuite(dir, { taskFilter: o.task });
      const names = selectNames(
        "task",
        suite.tasks.map((t) => t.name),
        o.task,
      );
      got.report = await checkSuiteHealth(suite, {
        ...o,
        tasks: suite.tasks.filter((t) => names.includes(t.name)),
        resultsDir: out,
        target: abs,
      });
    },
  });
  const report = got.report;
  if (report === null)
    throw new InputError(`${abs}: no tasks to check (a Skill without tasks of its own)`, {
      file: abs,
    });
  return { report, files: await writeHealth(out, report) };
}
