/**
 * `run --baseline-from DIR`: each frozen run's report derived again from its stored evidence
 * (stream, validation, saved workspace), by the code path `rescore` uses (rescore-run.ts), before
 * the run counts in a new experiment. A report.json that says something else than its evidence
 * (edited by hand, or by another tool) is refused with the run and the fields named: a verdict
 * must not rest on it. Nothing in the frozen folder is written.
 */
import { InputError } from "../core/errors.js";
import type { RunReport } from "../core/report.js";
import { readSuiteSnapshot } from "../store/suite-snapshot.js";
import type { FrozenBaseline } from "./baseline-from.js";
import { rescoreContext } from "./rescore-context.js";
import { rescoreRun } from "./rescore-run.js";

/** What a frozen run's verdict rests on: these must read the same in report.json and its evidence. */
function counted(r: RunReport): Record<string, unknown> {
  return {
    passed: r.passed,
    status: r.status,
    outcome: r.outcome,
    checks_passed: r.checks_passed,
    checks_failed: r.checks_failed,
    "sample_quality.status": r.sample_quality.status,
    "sample_quality.reason_code": r.sample_quality.reason_code,
    "sample_quality.include_in_analysis": r.sample_quality.include_in_analysis,
    "rubric.weighted_score": r.rubric?.weighted_score ?? null,
    "rubric.rubric_avg": r.rubric?.rubric_avg ?? null,
  };
}

/** The fields of `stored` that its evidence does not support, as `field: stored X, evidence Y`. */
function evidenceDisagreements(stored: RunReport, derived: RunReport): string[] {
  const a = counted(stored);
  const b = counted(derived);
  return Object.keys(a).flatMap((k) =>
    JSON.stringify(a[k]) === JSON.stringify(b[k])
      ? []
      : [`${k}: report.json ${JSON.stringify(a[k])}, evidence ${JSON.stringify(b[k])}`],
  );
}

/**
 * Derive every frozen run again from its evidence; throws an InputError naming each run whose
 * report.json disagrees (exit 2). The judge is not asked again (its stored block is kept).
 */
export async function checkFrozenEvidence(
  frozen: FrozenBaseline,
  hostEnv: Record<string, string | undefined>,
): Promise<void> {
  const snapshot = await readSuiteSnapshot(frozen.dir);
  const ctx = {
    ...(await rescoreContext(frozen.dir, snapshot, { judgeFlags: { judge: false } }, hostEnv, {
      url: null,
      scriptHasJudge: false,
      scriptId: "",
    })),
    readOnly: true as const,
  };
  const bad: string[] = [];
  for (const r of frozen.reports) {
    const derived = (await rescoreRun(ctx, r.run_id))?.derived;
    if (derived === undefined) {
      bad.push(`${r.run_id}: report.json could not be read again`);
      continue;
    }
    const diff = evidenceDisagreements(r, derived);
    if (diff.length > 0) bad.push(`${r.run_id}: ${diff.join("; ")}`);
  }
  if (bad.length > 0)
    throw new InputError(
      `--baseline-from ${frozen.dir}: the report.json of ${bad.length} frozen run(s) disagrees with the run's stored evidence (as \`skillbench rescore\` derives it):\n  - ${bad.join("\n  - ")}\nRescore that folder (skillbench rescore ${frozen.dir}) or run the baseline again.`,
      { file: frozen.dir, field: "--baseline-from" },
    );
}
