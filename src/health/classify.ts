/**
 * The health of one task from what was observed (pure): the validators' checks on the oracle's
 * workspace and on the untouched one, each repeated, and how the reference solution ended.
 * docs/health.md says what each kind means.
 */
import { checkName } from "../core/check-name.js";
import { healthEffect, type HealthProblem, type TaskHealth } from "../core/health.js";

export interface CheckSet {
  passed: string[];
  failed: string[];
}

export interface OracleObservation {
  outcome: NonNullable<TaskHealth["oracle"]>["outcome"];
  exit_code: number | null;
  duration_ms: number;
  output_tail: string;
  /** Why it did not end well (outcome other than ok), one line. */
  cause: string | null;
  /** The validators' checks, once per repeat (none when the solution did not end well). */
  repeats: CheckSet[];
}

export interface TaskObservation {
  task: string;
  solution: TaskHealth["solution"];
  sandbox: string;
  oracle: OracleObservation | null;
  /** The validators' checks on the untouched workspace, once per repeat. */
  null_agent: CheckSet[];
}

/** Per check name, its results in one repeat, sorted ("failed,passed" when named twice). */
function resultsByName(set: CheckSet): Map<string, string> {
  const m = new Map<string, string[]>();
  for (const [list, word] of [
    [set.passed, "passed"],
    [set.failed, "failed"],
  ] as const)
    for (const msg of list) {
      const k = checkName(msg);
      m.set(k, [...(m.get(k) ?? []), word]);
    }
  return new Map([...m].map(([k, v]) => [k, v.sort().join(",")]));
}

/**
 * The checks whose result differs between repeats (a check missing from a repeat counts as a
 * different result), each with what it gave, in first-seen order.
 */
export function flakyChecks(repeats: readonly CheckSet[]): { check: string; seen: string[] }[] {
  if (repeats.length < 2) return [];
  const per = repeats.map(resultsByName);
  const names: string[] = [];
  for (const m of per) for (const k of m.keys()) if (!names.includes(k)) names.push(k);
  const out: { check: string; seen: string[] }[] = [];
  for (const name of names) {
    const seen = per.map((m) => m.get(name) ?? "absent");
    if (new Set(seen).size > 1) out.push({ check: name, seen });
  }
  return out;
}

/** The task's status and its problems, in a stable order: oracle, null agent, flaky. */
export function classifyTask(o: TaskObservation): {
  health: TaskHealth;
  problems: HealthProblem[];
} {
  const problems: HealthProblem[] = [];
  const task = o.task;
  const oracleFirst = o.oracle?.repeats[0] ?? { passed: [], failed: [] };
  if (o.oracle !== null) {
    const kind =
      o.oracle.outcome === "timeout"
        ? "oracle_timeout"
        : o.oracle.outcome === "escaped"
          ? "oracle_escape"
          : o.oracle.outcome === "ok"
            ? null
            : "oracle_error";
    if (kind !== null)
      problems.push({
        task,
        kind,
        phase: "oracle",
        cause: o.oracle.cause ?? `the reference solution ended: ${o.oracle.outcome}`,
      });
    else {
      // A check that differs between repeats is named flaky below, not failed here.
      const flakyOnOracle = new Set(flakyChecks(o.oracle.repeats).map((f) => f.check));
      for (const msg of oracleFirst.failed.filter((m) => !flakyOnOracle.has(checkName(m))))
        problems.push({
          task,
          check: checkName(msg),
          kind: "oracle_failed",
          phase: "oracle",
          cause: `fails on the reference solution's workspace: ${msg}`,
        });
      if (oracleFirst.passed.length === 0 && oracleFirst.failed.length === 0)
        problems.push({
          task,
          kind: "oracle_failed",
          phase: "oracle",
          cause: "the validators reported no check on the reference solution's workspace",
        });
    }
  }
  const nullFirst = o.null_agent[0] ?? { passed: [], failed: [] };
  // No check at all is not vacuous: a run's pass is then the rubric's (expected artifacts, the
  // judge), which this check cannot see; it is noted.
  if (nullFirst.failed.length === 0)
    problems.push(
      nullFirst.passed.length === 0
        ? {
            task,
            kind: "no_checks",
            phase: "null agent",
            cause:
              "the validators report no check on the untouched workspace: only the rubric decides a run",
          }
        : {
            task,
            kind: "vacuous",
            phase: "null agent",
            cause: `all ${nullFirst.passed.length} check(s) pass on the untouched workspace (an agent that does nothing passes)`,
          },
    );
  for (const [phase, repeats] of [
    ["oracle", o.oracle?.repeats ?? []],
    ["null agent", o.null_agent],
  ] as const)
    for (const f of flakyChecks(repeats)) {
      // A check flaky in both workspaces is named once.
      if (problems.some((p) => p.kind === "flaky" && p.check === f.check)) continue;
      problems.push({
        task,
        check: f.check,
        kind: "flaky",
        phase,
        cause: `gave ${f.seen.join(" / ")} in ${f.seen.length} runs of the validators on the ${phase === "oracle" ? "reference solution's" : "untouched"} workspace`,
      });
    }
  const leftOut = problems.some((p) => healthEffect(p.kind) === "leave_out");
  const status = leftOut ? "unsound" : o.oracle === null ? "unverified" : "sound";
  return {
    health: {
      task,
      solution: o.solution,
      status,
      oracle:
        o.oracle === null
          ? null
          : {
              outcome: o.oracle.outcome,
              exit_code: o.oracle.exit_code,
              duration_ms: o.oracle.duration_ms,
              output_tail: o.oracle.output_tail,
              passed: oracleFirst.passed,
              failed: oracleFirst.failed,
            },
      null_agent: { passed: nullFirst.passed, failed: nullFirst.failed },
      sandbox: o.sandbox,
    },
    problems,
  };
}
