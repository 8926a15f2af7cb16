/**
 * Assertion hygiene (issue #34 item 6, docs/statistics.md, "Arm integrity"), from stored runs, so `run`,
 * `report` and `rescore` say the same. Pure.
 *
 * - `non_discriminating`: a check of a task with the same result (passed every time, or failed
 *   every time) in every analysis-set run of every compared arm: it cannot tell the arms apart.
 * - `never_exercised`: a task where no analysis-set run of the candidate invoked one of its
 *   own Skills: the task does not measure the Skill.
 * - `case_defect` (trigger sets): a query no description variant got right in any probe.
 */
import type { ArmProblem } from "../core/arm-integrity.js";
import { checkName } from "../core/check-name.js";
import type { RunDigest } from "../core/digest.js";

type Runs = ReadonlyArray<
  Pick<
    RunDigest,
    | "task"
    | "treatment"
    | "checks_passed"
    | "checks_failed"
    | "sample_quality"
    | "skill_sources"
    | "events_summary"
  >
>;

/** The runs of each task, in first-seen order (one pass: an experiment may hold 100,000 runs). */
function byTask<R extends { task: string }>(runs: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of runs) {
    const l = out.get(r.task);
    if (l) l.push(r);
    else out.set(r.task, [r]);
  }
  return out;
}

type CheckResult = "passed" | "failed";

/**
 * Each run's check results by check name (a name in both lists: failed), made once per distinct
 * pair of check lists: runs of the same task and outcome share their lists (a packed digest's
 * are the very arrays every run with them holds, store/packed-digests.ts), so at 10,000 runs a
 * few hundred maps are made instead of one per run. Held only while one task is walked.
 */
class ResultsOf {
  private readonly byLists = new Map<
    readonly string[],
    Map<readonly string[], Map<string, CheckResult>>
  >();

  get(passed: readonly string[], failed: readonly string[]): Map<string, CheckResult> {
    let byFailed = this.byLists.get(passed);
    if (!byFailed)
      this.byLists.set(passed, (byFailed = new Map<readonly string[], Map<string, CheckResult>>()));
    let m = byFailed.get(failed);
    if (!m) {
      m = new Map<string, CheckResult>();
      for (const l of passed) m.set(checkName(l), "passed");
      for (const l of failed) m.set(checkName(l), "failed");
      byFailed.set(failed, m);
    }
    return m;
  }
}

function nonDiscriminating(runs: Runs, arms: readonly string[]): ArmProblem[] {
  const out: ArmProblem[] = [];
  for (const [task, mine] of byTask(runs)) {
    // Every compared arm must have run the task, else nothing was compared on it.
    if (!arms.every((a) => mine.some((r) => r.treatment === a))) continue;
    // Each distinct results map with the number of runs that have it, in first-seen order.
    const resultsOf = new ResultsOf();
    const counts = new Map<Map<string, CheckResult>, number>();
    for (const r of mine) {
      const m = resultsOf.get(r.checks_passed, r.checks_failed);
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    // Per check name (first-seen order over the runs): its first result, whether every run
    // that has it agrees, and how many runs have it. A check qualifies when every run has it
    // with the same result.
    const names = new Map<string, { first: CheckResult; same: boolean; runs: number }>();
    for (const [m, n] of counts)
      for (const [name, result] of m) {
        const got = names.get(name);
        if (!got) names.set(name, { first: result, same: true, runs: n });
        else {
          got.runs += n;
          if (got.first !== result) got.same = false;
        }
      }
    for (const [name, { first, same, runs: seen }] of names) {
      if (!same || seen !== mine.length) continue;
      out.push({
        kind: "non_discriminating",
        task,
        treatment: null,
        agent: null,
        subject: name,
        runs: [],
        cause: `${first} in all ${mine.length} runs of ${arms.join(" and ")}: it cannot tell the arms apart`,
      });
    }
  }
  return out;
}

function neverExercised(runs: Runs, candidate: string): ArmProblem[] {
  const out: ArmProblem[] = [];
  for (const [task, rs] of byTask(runs.filter((r) => r.treatment === candidate))) {
    // Each distinct list once (runs of a treatment share it), in first-seen order.
    const lists = new Set(rs.map((r) => r.skill_sources));
    const skills = [...new Set([...lists].flatMap((l) => l.map((s) => s.name)))];
    if (skills.length === 0) continue;
    const fired = rs.some((r) =>
      (r.events_summary?.skills_invoked ?? []).some((s) => skills.includes(s)),
    );
    if (fired) continue;
    out.push({
      kind: "never_exercised",
      task,
      treatment: candidate,
      agent: null,
      subject: skills.join(", "),
      runs: [],
      cause: `none of the ${rs.length} runs of ${candidate} invoked its Skill: the task does not measure it`,
    });
  }
  return out;
}

/**
 * The hygiene problems of the compared arms (candidate, baseline), over their analysis-set runs
 * (an excluded run says nothing of the checks).
 */
export function assertionHygiene(
  runs: Runs,
  roles: { candidate: string; baseline: string },
): ArmProblem[] {
  const arms = [...new Set([roles.candidate, roles.baseline])];
  const analysed = runs.filter(
    (r) => arms.includes(r.treatment) && r.sample_quality.include_in_analysis,
  );
  return [...nonDiscriminating(analysed, arms), ...neverExercised(analysed, roles.candidate)];
}

/** Trigger sets: the should/should-not outcome of each query under each description variant. */
export interface VariantQueries {
  variant: string;
  queries: ReadonlyArray<{ id: string; query: string; runs: number; correct: number }>;
}

/** Queries that no description variant got right in any probe with an answer. */
export function caseDefects(variants: readonly VariantQueries[], skill: string): ArmProblem[] {
  const ids = [...new Set(variants.flatMap((v) => v.queries.map((q) => q.id)))];
  const out: ArmProblem[] = [];
  for (const id of ids) {
    const qs = variants.flatMap((v) => v.queries.filter((q) => q.id === id));
    const answered = qs.reduce((s, q) => s + q.runs, 0);
    if (answered === 0 || qs.some((q) => q.correct > 0)) continue;
    out.push({
      kind: "case_defect",
      task: null,
      treatment: null,
      agent: null,
      subject: id,
      runs: [],
      cause: `no description variant of ${skill} got "${qs[0]?.query ?? id}" right (${answered} probe(s) under ${variants.length} variant(s)): the query or its should_trigger may be wrong`,
    });
  }
  return out;
}
