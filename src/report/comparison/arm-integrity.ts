/**
 * The comparison's arm-integrity problems (docs/statistics.md, "Arm integrity"): the runs' own `arm_leak` and
 * `skill_drift` records (report.json `arm_integrity`), one problem per kind, task, treatment,
 * agent and Skill with the runs it was seen in. A leak in either compared arm makes the band
 * inconclusive (band.ts). Pure.
 */
import type { ArmProblem } from "../../core/arm-integrity.js";
import type { RunDigest } from "../../core/digest.js";
import { assertionHygiene } from "../../analysis/hygiene.js";
import { resolveRoles } from "../../plan/roles.js";
import type { Roles } from "./types.js";

/** The compared arms' problems, in the runs' order. */
export function armProblemsOf(reports: readonly RunDigest[], roles: Roles): ArmProblem[] {
  const arms = new Set([roles.candidate, roles.baseline]);
  const byKey = new Map<string, ArmProblem>();
  for (const r of reports) {
    if (!arms.has(r.treatment)) continue;
    for (const p of r.arm_integrity ?? []) {
      const key = [p.kind, r.task, r.treatment, r.agent.name, p.skill].join("\0");
      const got = byKey.get(key);
      if (got) {
        if (!got.runs.includes(r.run_id)) got.runs.push(r.run_id);
        continue;
      }
      byKey.set(key, {
        kind: p.kind,
        task: r.task,
        treatment: r.treatment,
        agent: r.agent.name,
        subject: p.skill,
        runs: [r.run_id],
        cause: p.cause,
      });
    }
  }
  return [...byKey.values()];
}

/** The band's reason when a Skill leaked into an arm without it. */
export function armLeakReason(leaks: readonly ArmProblem[]): string {
  const where = leaks
    .map(
      (l) =>
        `${l.subject} in \`${l.treatment ?? "?"}\` (${l.runs.length} run(s) of ${l.task ?? "?"})`,
    )
    .join(", ");
  return `A Skill reached an arm that does not install it (arm_leak: ${where}), so the arms do not differ by the Skill alone and the Δ pass rate says nothing about it.`;
}

/** What each kind means, for the section's footnote. */
const MEANING: Record<ArmProblem["kind"], string> = {
  arm_leak: "a Skill seen in an arm that does not install it (the band is inconclusive)",
  skill_drift: "a file of the arm's own Skill read with content other than the frozen copy's",
  host_skill_shadow: "the host user has a Skill of that name (the runs never see it)",
  arm_mismatch: "an arm's workspace or agent config differs from what its treatment declares",
  non_discriminating: "a check with the same result in every run of both arms",
  never_exercised: "no run of the candidate invoked its Skill on that task",
  case_defect: "a trigger query no description variant got right",
};

/** The markdown section of comparison_report.md and summary.md; null when there is no problem. */
export function renderArmIntegrity(problems: readonly ArmProblem[] | undefined): string | null {
  if (problems === undefined || problems.length === 0) return null;
  // Causes quote check names and paths: one line each, no column breaks.
  const esc = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
  const kinds = [...new Set(problems.map((p) => p.kind))];
  return [
    "## Arm integrity and assertion hygiene",
    "",
    "| Kind | Task | Treatment | Agent | Skill, check or query | Runs | Cause |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...problems.map(
      (p) =>
        `| ${p.kind} | ${p.task ?? "—"} | ${p.treatment ?? "—"} | ${p.agent ?? "—"} | ${esc(p.subject)} | ${p.runs.length || "—"} | ${esc(p.cause)} |`,
    ),
    "",
    `_${kinds.map((k) => `${k}: ${MEANING[k]}`).join("; ")}. docs/statistics.md, Arm integrity._`,
  ].join("\n");
}

/**
 * summary.md's section: the problems of the default candidate and baseline (the comparison's
 * roles without --candidate/--baseline); null with fewer than two treatments or no problem.
 */
export function summaryArmIntegrity(
  reports: readonly RunDigest[],
  treatments: readonly string[],
): string | null {
  if (treatments.length < 2) return null;
  const roles = resolveRoles([...treatments], {});
  return renderArmIntegrity([
    ...armProblemsOf(reports, roles),
    ...assertionHygiene(reports, roles),
  ]);
}
