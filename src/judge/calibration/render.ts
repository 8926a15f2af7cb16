/** The markdown `judge calibrate` prints (docs/judge.md, "Calibration"). Pure. */
import type { Estimate, JudgeCalibration } from "./schema.js";

const num = (x: number | null): string => (x === null ? "—" : x.toFixed(3));

function est(e: Estimate): string {
  if (e.estimate === null) return "undefined";
  return e.low === null || e.high === null
    ? num(e.estimate)
    : `${num(e.estimate)} [${num(e.low)}, ${num(e.high)}]`;
}

/** The level labels: 0, 0.5, 1 for 3 levels. */
function levelNames(levels: number): string[] {
  return Array.from({ length: levels }, (_x, i) => String(Number((i / (levels - 1)).toFixed(2))));
}

export function renderJudgeCalibration(c: JudgeCalibration, alphaMin: number): string {
  const pct = Math.round(c.bootstrap.level * 100);
  const out = [
    "# Judge calibration",
    "",
    `Judge \`${c.judge.model}\`, prompt \`${c.judge.prompt_kind}\` (digest \`${c.judge.prompt_digest.slice(0, 12)}\`), rubric \`${c.judge.rubric.profile}\`: ${c.judge.rubric.dimensions.join(", ")} (digest \`${c.judge.rubric_digest.slice(0, 12)}\`).`,
    `Labels: \`${c.labels_file}\`, raters ${c.raters.join(", ") || "none"}. Scores and labels on ${c.levels} levels (${levelNames(c.levels).join(", ")}). Intervals: ${pct}% percentile bootstrap over the labelled runs (${c.bootstrap.replicates} replicates, seed ${c.bootstrap.seed}).`,
    "",
    "## Agreement with people",
    "",
    `| dimension | runs | α ordinal | α nominal | gates (α ≥ ${alphaMin}) |`,
    "| --- | --- | --- | --- | --- |",
  ];
  for (const d of c.dimensions) {
    const a = d.alpha_ordinal.estimate;
    out.push(
      `| ${d.name} | ${d.units} | ${est(d.alpha_ordinal)} | ${est(d.alpha_nominal)} | ${a !== null && a >= alphaMin - 1e-9 ? "✅ may gate" : "❌ may not gate"} |`,
    );
  }
  out.push(
    "",
    "| dimension | rater | runs | κ | κ quadratic | agreement |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const d of c.dimensions)
    for (const r of d.raters)
      out.push(
        `| ${d.name} | ${r.rater} | ${r.units} | ${est(r.kappa)} | ${est(r.weighted_kappa)} | ${est(r.agreement)} |`,
      );
  const names = levelNames(c.levels);
  for (const d of c.dimensions)
    for (const r of d.raters) {
      out.push(
        "",
        `Confusion, ${d.name}: judge (rows) × ${r.rater} (columns)`,
        "",
        `| judge \\ ${r.rater} | ${names.join(" | ")} |`,
        `| --- | ${names.map(() => "---").join(" | ")} |`,
      );
      r.confusion.forEach((row, i) => out.push(`| ${names[i] ?? i} | ${row.join(" | ")} |`));
    }
  out.push(
    "",
    "## Repeatability (the judge against itself, across --judge-samples)",
    "",
    "| dimension | runs with ≥ 2 samples | samples | α ordinal | mean stdev |",
    "| --- | --- | --- | --- | --- |",
  );
  for (const r of c.repeatability)
    out.push(
      `| ${r.dimension} | ${r.runs} | ${r.samples_per_run || "—"} | ${r.runs === 0 ? "— (one sample per run)" : est(r.alpha_ordinal)} | ${num(r.mean_stdev)} |`,
    );
  out.push("", `Pairwise: ${c.pairwise.labels} pair label(s); ${c.pairwise.note}.`);
  for (const n of c.notes) out.push("", `Note: ${n}.`);
  out.push(
    "",
    "α undefined: every label and score on one level (nothing to tell apart), or no run with two labels. Undefined α never gates.",
    "",
  );
  return out.join("\n");
}
