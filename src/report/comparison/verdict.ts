import { signed } from "./fmt.js";
import { MAX_EXCLUDED_SHARE } from "./tuning.js";
import type { BandVerdict, DataQualityRow, RubricSection, Roles, Verdict } from "./types.js";

/** The rubric-only reading (the original harness's verdict), before the band is decided. */
export type RubricVerdict = Omit<Verdict, keyof BandVerdict>;

const f2 = (x: number): string => x.toFixed(2);

/**
 * The rubric-only reading of the original harness (with the candidate and baseline named); the
 * band in band.ts decides the verdict. First that applies:
 * no analysis-set runs for either → insufficient clean data; excluded/raw > 0.5 for either →
 * inconclusive; no rubric scores for either → insufficient data; a dimension Δ below the
 * tolerance → regression; overall candidate ≥ baseline → stable; else overall lower. Pure.
 */
export function decideVerdict(
  roles: Roles,
  rubric: RubricSection,
  cq: DataQualityRow,
  bq: DataQualityRow,
): RubricVerdict {
  const { candidate: c, baseline: b } = roles;
  const co = rubric.overall.cells[c]?.mean ?? null;
  const bo = rubric.overall.cells[b]?.mean ?? null;
  // Only regressions the dimension's interval resolves (rubric-tests.ts); judge dimensions too.
  const regressions = [
    ...rubric.dimensions.flatMap((d) => {
      const cm = d.cells[c]?.mean;
      const bm = d.cells[b]?.mean;
      return d.regression && d.delta !== null && typeof cm === "number" && typeof bm === "number"
        ? [{ dimension: d.name, candidate: cm, baseline: bm, delta: d.delta }]
        : [];
    }),
    ...rubric.judge.flatMap((j) =>
      j.regression && j.candidate !== null && j.baseline !== null
        ? [
            {
              dimension: `judge:${j.name}`,
              candidate: j.candidate,
              baseline: j.baseline,
              delta: j.test.delta,
            },
          ]
        : [],
    ),
  ];
  const unresolved = [
    ...rubric.dimensions.flatMap((d) =>
      d.test?.status === "unresolved"
        ? [{ dimension: d.name, delta: d.test.delta, ci: d.test.ci }]
        : [],
    ),
    ...rubric.judge.flatMap((j) =>
      j.test.status === "unresolved"
        ? [{ dimension: `judge:${j.name}`, delta: j.test.delta, ci: j.test.ci }]
        : [],
    ),
  ];
  const base = {
    candidate_overall: co,
    baseline_overall: bo,
    candidate_quality: cq,
    baseline_quality: bq,
    distribution: rubric.distribution,
    unresolved,
  };
  const noClean = [cq, bq].filter((q) => q.analysis === 0).map((q) => `\`${q.treatment}\``);
  if (noClean.length > 0)
    return {
      ...base,
      kind: "insufficient_clean_data",
      regressions: [],
      headline: `⚠️ **Insufficient clean data**: ${noClean.join(" and ")} has no analysis-set runs (every run was excluded or none ran).`,
    };
  const noisy = [cq, bq].filter(
    (q) => q.excluded_share !== null && q.excluded_share > MAX_EXCLUDED_SHARE,
  );
  if (noisy.length > 0)
    return {
      ...base,
      kind: "inconclusive_data_quality",
      regressions: [],
      headline: `⚠️ **Inconclusive due to data quality**: more than half of the runs were excluded as infrastructure noise (${noisy
        .map((q) => `\`${q.treatment}\` ${q.excluded}/${q.raw}`)
        .join(", ")}).`,
    };
  if (co === null || bo === null)
    return {
      ...base,
      kind: "insufficient_data",
      regressions: [],
      headline: `Insufficient data: need rubric scores for both \`${c}\` and \`${b}\` runs.`,
    };
  if (regressions.length > 0)
    return {
      ...base,
      kind: "regression",
      regressions,
      headline: [
        `❌ **\`${c}\` regresses on ${regressions.length} dimension(s) vs \`${b}\`:**`,
        ...regressions.map(
          (r) =>
            `- **${r.dimension}**: \`${c}\` ${f2(r.candidate)} < \`${b}\` ${f2(r.baseline)} (Δ ${signed(r.delta)})`,
        ),
      ].join("\n"),
    };
  if (co >= bo)
    return {
      ...base,
      kind: "no_regression",
      regressions: [],
      headline: `No rubric regression: \`${c}\` overall ${f2(co)} ≥ \`${b}\` ${f2(bo)}, no dimension regresses beyond the 0.05 tolerance.`,
    };
  return {
    ...base,
    kind: "overall_lower",
    regressions: [],
    headline: `⚠️ **\`${c}\` overall lower** (${f2(co)} < ${f2(bo)}) but no single dimension regresses beyond tolerance.`,
  };
}
