/**
 * The markdown appended to $GITHUB_STEP_SUMMARY: the headline numbers, the per-treatment
 * table, the pass@k table, the verdict and the --fail-under result. Rendering is pure;
 * appendStepSummary does the one write.
 */
import { appendFile } from "node:fs/promises";
import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "./comparison/types.js";
import { cell, f2, int, meanOf, pct, sumOf, table, usd } from "./format.js";
import { treatmentOrder } from "../plan/group.js";
import { renderPassKTable } from "./passk-md.js";
import type { ThresholdResult } from "./thresholds.js";

export interface StepSummaryInput {
  experimentId: string | null;
  treatments: string[];
  reports: RunDigest[];
  comparison?: Comparison | null;
  thresholds?: ThresholdResult | null;
  /** where the full reports are (e.g. the results folder or an artifact link) */
  resultsLocation?: string | null;
}

export function renderStepSummary(s: StepSummaryInput): string {
  const treatments = treatmentOrder(s.reports, s.treatments);
  const passed = s.reports.filter((r) => r.passed).length;
  const lines = [
    `## skillbench: ${passed}/${s.reports.length} runs passed${s.experimentId ? ` (${s.experimentId})` : ""}`,
    "",
  ];
  if (s.thresholds) {
    lines.push(s.thresholds.ok ? "**Thresholds: all met** ✅" : "**Thresholds: not met** ❌", "");
    for (const c of s.thresholds.checks)
      lines.push(
        `- ${c.ok ? "✅" : "❌"} ${cell(c.treatment)} ${c.metric} = ${c.value === null ? "not computable" : c.value.toFixed(3)} (min ${c.min})`,
      );
    lines.push("");
  }
  if (s.comparison)
    lines.push(`**Verdict:** ${s.comparison.verdict.headline.replace(/\n+/g, " ")}`, "");
  const rows = treatments.map((t) => {
    const runs = s.reports.filter((r) => r.treatment === t);
    const p = runs.filter((r) => r.passed).length;
    const es = runs.map((r) => r.events_summary);
    return [
      cell(t),
      `${p}/${runs.length}`,
      pct(p, runs.length),
      f2(meanOf(runs.map((r) => r.rubric?.weighted_score))),
      String(runs.filter((r) => !r.sample_quality.include_in_analysis).length),
      int(sumOf(es.map((e) => e?.total_tokens))),
      usd(sumOf(es.map((e) => e?.total_cost_usd))),
    ];
  });
  lines.push(
    table(["Treatment", "Passed", "Pass %", "weighted_score", "Excluded", "Tokens", "Cost"], rows),
    "",
  );
  lines.push(renderPassKTable(s.reports, treatments), "");
  const failed = s.reports.filter((r) => !r.passed);
  if (failed.length > 0) {
    lines.push("<details><summary>Failed runs</summary>", "");
    lines.push(
      table(
        ["Run", "Status", "First failed check"],
        failed
          .slice(0, 100)
          .map((r) => [cell(r.run_id), r.status, cell(r.checks_failed[0] ?? r.outcome_detail)]),
      ),
    );
    if (failed.length > 100) lines.push("", `…and ${failed.length - 100} more.`);
    lines.push("", "</details>", "");
  }
  if (s.resultsLocation)
    lines.push(
      `Full reports: \`${s.resultsLocation}\` (summary.html, comparison_report.html).`,
      "",
    );
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Append to the file named by GITHUB_STEP_SUMMARY; does nothing (returns null) when it is not set. */
export async function appendStepSummary(
  markdown: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | null> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file === undefined || file === "") return null;
  await appendFile(file, `${markdown}\n`, "utf8");
  return file;
}
