/**
 * What a budget spent and left (docs/budgets.md), for summary.md, comparison_report.md, the
 * console's end line and the HTML summary: the spend as the harness metered it, the runs left
 * unrun, the runs a budget stopped (invalid, cause budget: never failures), and how to go on.
 * Pure.
 */
import type { BudgetRecord } from "../store/metadata.js";

const dollars = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;

function limitsText(b: BudgetRecord): string {
  const parts = [
    ...(b.usd !== null ? [`${dollars(b.usd)} (--budget-usd)`] : []),
    ...(b.tokens !== null ? [`${b.tokens} tokens (--budget-tokens)`] : []),
    ...(b.max_run_usd !== null ? [`${dollars(b.max_run_usd)} a run (--max-run-usd)`] : []),
  ];
  return parts.join(", ");
}

/** The resume command's budget flags, each larger than what was spent. */
function continueFlags(b: BudgetRecord): string {
  const flags: string[] = [];
  if (b.usd !== null) flags.push("--budget-usd <more than the spend>");
  if (b.tokens !== null) flags.push("--budget-tokens <more than the spend>");
  return flags.join(" ");
}

/** One sentence each: spent, unrun, stopped, and how to continue. */
export function budgetSentences(b: BudgetRecord, outDir: string): string[] {
  const out = [
    `Budget ${limitsText(b)}: spent ${dollars(b.spent_usd)}, ${b.spent_tokens} tokens (metered by skillbench, every recorded run).`,
  ];
  // Only when the judge was asked under the budget: other experiments' reports stay as they were.
  const j = b.judge;
  if (j)
    out.push(
      `The LLM judge spent ${dollars(j.usd)}, ${j.tokens} tokens apart from the runs (${j.calls} call(s)${j.refused > 0 ? `, ${j.refused} refused by the budget` : ""}${j.unpriced.length > 0 ? `; unpriced, tokens only: ${j.unpriced.join(", ")}` : ""}; every invocation and worker of the experiment).`,
    );
  if (b.stopped.length > 0)
    out.push(
      `${b.stopped.length} run(s) stopped by the budget: invalid (cause budget), excluded from the analysis, not failures: ${b.stopped.join(", ")}.`,
    );
  if (b.unrun.length > 0)
    out.push(
      `${b.unrun.length} run(s) left unrun (budget): ${b.refused ?? "the budget was spent"}.`,
      `To continue: skillbench run <suite> --resume --out ${outDir} ${continueFlags(b)} (the budget counts what was already spent).`,
    );
  return out;
}

/** The `## Budget` section of summary.md and comparison_report.md. */
export function budgetSection(b: BudgetRecord, outDir: string): string {
  return ["## Budget", "", ...budgetSentences(b, outDir).map((s) => `- ${s}`), ""].join("\n");
}

/** A markdown report with its budget section appended (unchanged without a budget). */
export function withBudgetSection(
  text: string,
  b: BudgetRecord | undefined,
  outDir: string,
): string {
  return b ? `${text.trimEnd()}\n\n${budgetSection(b, outDir)}` : text;
}
