/** health.json as text (pure): the lines `check` prints and the markdown section of health.md and summary.md. */
import { healthEffect, type HealthProblem, type HealthReport } from "../core/health.js";

/** "2 of 3 tasks sound, 2 verified by a reference solution, 1 unverified (no solution)". */
export function healthHeadline(r: Pick<HealthReport, "tasks">): string {
  const n = r.tasks.length;
  const unsound = r.tasks.filter((t) => t.status === "unsound").length;
  const verified = r.tasks.filter((t) => t.status === "sound").length;
  const unverified = r.tasks.filter((t) => t.status === "unverified").length;
  return `${n - unsound} of ${n} task(s) sound; ${verified} verified by a reference solution, ${unverified} unverified (no solution)${unsound > 0 ? `; ${unsound} unsound` : ""}`;
}

/** One line per problem: `task · check · kind: cause`. */
export function problemLine(p: HealthProblem): string {
  const where = p.check === undefined ? p.task : `${p.task} · ${p.check}`;
  return `${where} · ${p.kind}: ${p.cause}`;
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The markdown section (## Task health) for health.md, summary.md and the step summary. */
export function renderHealthMarkdown(r: HealthReport, heading = "##"): string {
  const lines = [
    `${heading} Task health`,
    "",
    `${healthHeadline(r)}. Validators ran ${r.repeats}× on the untouched workspace and on the reference solution's (docs/health.md).`,
    "",
    "| task | solution | reference solution | untouched workspace | status |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const t of r.tasks) {
    const oracle =
      t.oracle === null
        ? "—"
        : t.oracle.outcome === "ok"
          ? `${t.oracle.passed.length} passed, ${t.oracle.failed.length} failed`
          : t.oracle.outcome;
    const nullAgent = `${t.null_agent.passed.length} passed, ${t.null_agent.failed.length} failed`;
    lines.push(
      `| ${cell(t.task)} | ${t.solution ?? "none"} | ${oracle} | ${nullAgent} | ${t.status} |`,
    );
  }
  if (r.problems.length > 0) {
    lines.push("", "Problems (each leaves its task out of the comparison unless marked note):", "");
    for (const p of r.problems)
      lines.push(
        `- ${cell(problemLine(p))}${healthEffect(p.kind) === "leave_out" ? "" : ` (${healthEffect(p.kind)})`}`,
      );
  }
  return `${lines.join("\n")}\n`;
}
