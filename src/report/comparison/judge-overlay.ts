import type { RunDigest } from "../../core/digest.js";
import { mean } from "../../stats/index.js";
import type { JudgeOverlayRow, RubricSection } from "./types.js";

/** The rule dimension a judge dimension is set beside (same name unless mapped). */
const JUDGE_TO_RULE: Record<string, string> = {
  task_completion: "completion",
  instruction_adherence: "instruction_following",
};

/** The rule dimension a judge dimension is compared with (the HTML run page uses it too). */
export function ruleDimensionOf(judgeDimension: string): string {
  return JUDGE_TO_RULE[judgeDimension] ?? judgeDimension;
}

/**
 * "LLM-judge overlay (rule vs judge)": per judge dimension and treatment, the
 * mean rule score, the mean judge score and the gap. A side with no data is null
 * (rendered "—"), never a crash. Pure.
 */
export function judgeOverlay(analysis: RunDigest[], treatments: string[]): JudgeOverlayRow[] {
  const dims: string[] = [];
  for (const r of analysis)
    for (const d of r.judge?.dimensions ?? []) if (!dims.includes(d.name)) dims.push(d.name);
  const rows: JudgeOverlayRow[] = [];
  for (const dim of dims) {
    const ruleDim = ruleDimensionOf(dim);
    for (const t of treatments) {
      const runs = analysis.filter((r) => r.treatment === t);
      const judged = runs
        .map((r) => r.judge?.dimensions.find((d) => d.name === dim)?.score)
        .filter((x): x is number => typeof x === "number");
      const rule = runs
        .map((r) => r.rubric?.dimensions.find((d) => d.name === ruleDim)?.score)
        .filter((x): x is number => typeof x === "number");
      const jm = mean(judged);
      const rm = mean(rule);
      rows.push({
        dimension: dim,
        rule_dimension: rule.length > 0 ? ruleDim : null,
        treatment: t,
        rule: rm,
        judge: jm,
        gap: jm !== null && rm !== null ? jm - rm : null,
        runs_judged: judged.length,
      });
    }
  }
  return rows;
}

export function renderJudgeOverlay(
  rows: JudgeOverlayRow[],
  tests: RubricSection["judge"] = [],
): string | null {
  if (rows.length === 0) return null;
  const f = (x: number | null): string => (x === null ? "—" : x.toFixed(2));
  const g = (x: number | null): string =>
    x === null ? "—" : `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
  const lines = [
    "## LLM-judge overlay (rule vs judge)",
    "",
    "_The judge never changes rule scores or weighted_score; Gap = judge − rule. task_completion is set beside completion, instruction_adherence beside instruction_following._",
    "",
    "| Dimension | Treatment | Rule | Judge | Gap | Runs judged |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.dimension}${r.rule_dimension && r.rule_dimension !== r.dimension ? ` (rule: ${r.rule_dimension})` : ""} | ${r.treatment} | ${f(r.rule)} | ${f(r.judge)} | ${g(r.gap)} | ${r.runs_judged} |`,
    ),
  ];
  if (tests.length > 0)
    lines.push(
      "",
      `_Judge Δ (candidate − baseline), tested with the rubric's dimensions (same interval and Holm correction): ${tests
        .map((t) => {
          const iv = t.test.ci ? ` [${g(t.test.ci.low)}, ${g(t.test.ci.high)}]` : "";
          const mark =
            t.test.status === "regression"
              ? " ⚠️ regression"
              : t.test.status === "unresolved"
                ? " (unresolved)"
                : "";
          return `${t.name} ${g(t.test.delta)}${iv}${mark}`;
        })
        .join("; ")}._`,
    );
  return lines.join("\n");
}
