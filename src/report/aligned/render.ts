import { interval, pValue, signed } from "../comparison/fmt.js";
import { cell, f2, table } from "../format.js";
import type { AlignedComparison } from "./build.js";

/** aligned_comparison_report.md from an AlignedComparison. Pure. */
export function renderAlignedMarkdown(c: AlignedComparison): string {
  const out: string[] = ["# Aligned comparison", ""];
  if (c.endpoint.label) out.push(`> **${c.endpoint.label}**`, "");
  out.push(
    table(
      ["", "Folder", "Experiment", "Runs", "Agent", "Model"],
      (["a", "b"] as const).map((k) => [
        k.toUpperCase(),
        cell(c[k].dir),
        cell(c[k].experiment_id ?? "—"),
        String(c[k].runs),
        cell(c[k].agents.join(", ")),
        cell(c[k].models.join(", ")) + (c[k].scripted ? " (scripted)" : ""),
      ]),
    ),
    "",
    "Runs are aligned by case: the same task content (hash), treatment and repetition in both folders.",
    `**${c.cases.aligned.length}** case(s) aligned, ${c.cases.only_a.length} only in A, ${c.cases.only_b.length} only in B.`,
    "",
    "## What drifted between A and B",
    "",
  );
  if (c.drift.length === 0)
    out.push(
      "Nothing: same agent version, model, task and Skill content, sandbox and profile.",
      "",
    );
  else out.push(...c.drift.map((d) => `- ${d}`), "");
  if (c.changed_tasks.length > 0)
    out.push(
      `Changed tasks are not aligned (their runs are listed below as unmatched): ${c.changed_tasks.map((t) => `\`${t.task}\``).join(", ")}.`,
      "",
    );

  out.push("## Aligned cases, per treatment (B vs A)", "");
  if (c.treatments.length === 0) out.push("No case is in both folders: nothing to compare.", "");
  for (const t of c.treatments) {
    const p = t.paired;
    out.push(
      `### ${t.treatment}`,
      "",
      `${t.aligned_cases} aligned case(s), ${t.analysed_cases} in both analysis sets; ${t.flipped_to_pass} went from fail to pass, ${t.flipped_to_fail} from pass to fail.`,
      "",
    );
    if (p.tasks.length > 0)
      out.push(
        table(
          ["Statistic", "Value", "Notes"],
          [
            ["Pass rate — A", f2(p.baseline_pass_rate), `${p.baseline_runs} run(s)`],
            ["Pass rate — B", f2(p.candidate_pass_rate), `${p.candidate_runs} run(s)`],
            [
              "Δ pass rate (B − A)",
              `${signed(p.delta_pass_rate?.estimate)} ${interval(p.delta_pass_rate)}`,
              "paired bootstrap 95% interval (tasks, then runs)",
            ],
            [
              "Sign test (per task)",
              p.sign_test ? `p = ${pValue(p.sign_test.p)}` : "—",
              p.sign_test
                ? `${p.sign_test.pos} better, ${p.sign_test.neg} worse, ${p.sign_test.ties} tied`
                : "—",
            ],
            [
              "McNemar exact (same case)",
              p.mcnemar ? `p = ${pValue(p.mcnemar.p)}` : "—",
              p.mcnemar
                ? `${p.mcnemar.pairs} pairs: ${p.mcnemar.candidate_only} pass only in B, ${p.mcnemar.baseline_only} only in A`
                : "—",
            ],
          ],
        ),
        "",
      );
    out.push(
      p.conclusion.replaceAll(`\`${p.candidate}\``, "B").replaceAll(`\`${p.baseline}\``, "A"),
      "",
    );
  }

  const flips = c.cases.aligned.filter((x) => x.analysed && x.a_passed !== x.b_passed);
  out.push("## Cases whose outcome changed", "");
  if (flips.length === 0) out.push("None.", "");
  else
    out.push(
      table(
        ["Task", "Treatment", "Rep", "A", "B"],
        flips.map((x) => [
          cell(x.task),
          cell(x.treatment),
          String(x.rep),
          x.a_passed ? "pass" : "fail",
          x.b_passed ? "pass" : "fail",
        ]),
      ),
      "",
    );
  const notAnalysed = c.cases.aligned.filter((x) => !x.analysed);
  if (notAnalysed.length > 0)
    out.push(
      `${notAnalysed.length} aligned case(s) are left out of the statistics because a run of theirs is excluded as infrastructure noise: ${notAnalysed.map((x) => `${x.a_run} / ${x.b_run}`).join(", ")}.`,
      "",
    );
  const unmatched = [
    ...c.cases.only_a.map((x) => ({ ...x, side: "A" })),
    ...c.cases.only_b.map((x) => ({ ...x, side: "B" })),
  ];
  out.push("## Unmatched runs", "");
  if (unmatched.length === 0) out.push("None.", "");
  else
    out.push(
      table(
        ["Only in", "Run", "Task", "Task hash", "Treatment", "Rep"],
        unmatched.map((x) => [
          x.side,
          cell(x.run),
          cell(x.task),
          cell(x.task_hash.slice(0, 19)),
          cell(x.treatment),
          String(x.rep),
        ]),
      ),
      "",
    );
  return `${out.join("\n").trimEnd()}\n`;
}
