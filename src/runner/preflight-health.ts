/**
 * The task health check before a run's agents start (`--preflight`, docs/health.md): the planned
 * tasks' validators on their reference solutions, on the untouched workspace and repeated, in
 * the sandboxes the runs get. Its health.json goes into the results folder, where the verdict
 * and the reports read it; nothing is refused here: an unsound task still runs, and is left out
 * of the comparison with its reason.
 */
import path from "node:path";
import { errorMessage } from "../core/errors.js";
import type { ArmProblem } from "../core/arm-integrity.js";
import {
  healthEffect,
  healthSummary,
  type HealthProblem,
  type HealthReport,
  type HealthSummary,
} from "../core/health.js";
// Not health/index.ts: its `check` entry compiles Skill folders through manifest/, which imports runner/.
import { checkSuiteHealth, DEFAULT_HEALTH_REPEATS } from "../health/check-suite.js";
import { requestedSandbox } from "../sandbox/index.js";
import { cachedCheck, healthCacheDir, storeCheck, taskCheckKey } from "./health-cache.js";
import { healthHeadline, problemLine } from "../health/render.js";
import { HEALTH_FILE } from "../health/write.js";
import type { SandboxProbe } from "../sandbox/index.js";
import type { Suite } from "../suite/index.js";
import { writeJsonAtomic } from "../util/fs.js";
import type { RunOptions } from "./run-options.js";

/**
 * An arm-integrity problem found before runs, as health.json has it: a task's arm mismatch and a
 * host Skill's shadow are reported (the runs decide: an `arm_leak` after them makes the band
 * inconclusive); one of every task (the runs' environment names the host user's HOME) makes the
 * band inconclusive at once. The checks after runs (`arm_leak`,
 * `skill_drift`) and the assertion hygiene are the comparison's (comparison.json `arm_integrity`).
 */
function armHealthProblem(p: ArmProblem): HealthProblem[] {
  const where = [p.treatment, p.agent].filter((x) => x !== null).join("/");
  const cause = `${p.subject}: ${p.cause}`;
  const common = {
    cause,
    phase: "arm integrity, before runs",
    ...(p.treatment !== null ? { treatment: p.treatment } : {}),
  };
  if (p.kind === "host_skill_shadow")
    return [{ task: p.task ?? "(every task)", kind: "host_skill_shadow", ...common }];
  if (p.kind !== "arm_mismatch") return [];
  return p.task === null
    ? [{ task: "(every task)", kind: "arm_unsafe", ...common, cause: `${where}: ${cause}` }]
    : [{ task: p.task, kind: "arm_mismatch", ...common }];
}

export async function preflightHealth(a: {
  opts: RunOptions;
  suite: Suite;
  tasks: readonly string[];
  outDir: string;
  probe: SandboxProbe | null;
  hostEnv: Record<string, string | undefined>;
  redact: (s: string) => string;
  note: (message: string) => void;
  /** What the arm-integrity check before runs found (runner/arm-preflight.ts): health problems too. */
  armProblems?: readonly ArmProblem[];
}): Promise<HealthSummary | null> {
  const level = a.opts.preflight ?? "quick";
  // A queue worker runs one planned run: its coordinator checked the tasks before dispatching.
  if (level === "off" || a.opts.queue?.only) return null;
  const repeats = a.opts.healthRepeats ?? DEFAULT_HEALTH_REPEATS;
  const tasks = a.suite.tasks.filter((t) => a.tasks.includes(t.name));
  // Tasks checked before beside these results, unchanged since, are not checked again.
  const cacheDir = healthCacheDir(a.outDir);
  const machine = { bwrap: a.probe?.bwrap ?? null, docker: a.probe?.dockerDaemon ?? null };
  const keys = new Map<string, string>();
  const cached = new Map<string, NonNullable<Awaited<ReturnType<typeof cachedCheck>>>>();
  for (const t of tasks) {
    const key = await taskCheckKey(t, {
      sandbox: requestedSandbox(a.opts.sandbox, t, a.suite.config.sandbox),
      machine,
      repeats,
    });
    keys.set(t.name, key);
    const hit = await cachedCheck(cacheDir, t.name, key);
    if (hit) cached.set(t.name, hit);
  }
  const toCheck = tasks.filter((t) => !cached.has(t.name));
  let checked: HealthReport;
  try {
    checked = await checkSuiteHealth(a.suite, {
      tasks: toCheck,
      repeats,
      sandbox: a.opts.sandbox,
      resultsDir: a.outDir,
      hostEnv: a.hostEnv,
      signal: a.opts.killSignal,
      probe: a.probe,
      redact: a.redact,
    });
  } catch (e) {
    a.opts.killSignal?.throwIfAborted();
    // The runs meet the same machine; they say what is wrong with it, run by run.
    a.note(`warning: preflight could not check the tasks: ${errorMessage(e)}`);
    return null;
  }
  for (const h of checked.tasks) {
    const key = keys.get(h.task);
    if (key !== undefined)
      await storeCheck(
        cacheDir,
        key,
        h,
        checked.problems.filter((p) => p.task === h.task),
      );
  }
  const report: HealthReport = {
    ...checked,
    tasks: tasks.flatMap((t) => {
      const h = cached.get(t.name)?.health ?? checked.tasks.find((x) => x.task === t.name);
      return h ? [h] : [];
    }),
    problems: tasks.flatMap(
      (t) => cached.get(t.name)?.problems ?? checked.problems.filter((p) => p.task === t.name),
    ),
  };
  report.sound = report.problems.every((p) => healthEffect(p.kind) === "note");
  if (cached.size > 0)
    a.note(
      `preflight: ${cached.size} of ${tasks.length} task(s) unchanged since their last check beside these results (${cacheDir}): not checked again`,
    );
  // `full` adds what starts an agent (arm integrity, issue 34 point 5): none is built yet, so
  // it checks what `quick` does and says so.
  if (level === "full") {
    report.level = "full";
    a.note("preflight full: no check that starts an agent exists yet; ran the quick checks");
  }
  report.problems.push(...(a.armProblems ?? []).flatMap(armHealthProblem));
  await writeJsonAtomic(path.join(a.outDir, HEALTH_FILE), report);
  a.note(`preflight: ${healthHeadline(report)}`);
  for (const p of report.problems) a.note(`preflight: ${problemLine(p)}`);
  return healthSummary(report);
}
