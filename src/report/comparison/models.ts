import type { RunDigest } from "../../core/digest.js";
import { bandHeadline, MIXED_MODELS_NOISE } from "./band.js";
import { cell, table } from "../format.js";
import { percent, signed } from "./fmt.js";
import { mixedRunsOf } from "./split.js";
import type {
  Comparison,
  MixedModelArm,
  ModelComparison,
  ModelRow,
  ModelSubComparison,
  Roles,
} from "./types.js";

/**
 * Comparisons by model (docs/agents.md, "Models as a matrix axis"; docs/statistics.md §9), as
 * agents.ts does by agent. A treatment may run on several models (`--model a,b`, a pinned list);
 * when the candidate's or the baseline's arm holds runs of more than one model, pooling them would
 * mix each model's own pass rate into the treatment's effect, so the pooled verdict is
 * inconclusive ("mixed models: split per model") and the same candidate and baseline are compared
 * on each model alone, whose verdicts the reason names ("helps on large, hurts on small"). Pure.
 */

/** A run's model as the reports name it: the agent's own default when none was asked for. */
const modelName = (r: Pick<RunDigest, "model">): string => r.model ?? "CLI default";

/** Every model of the runs, first seen first; one row per model. */
export function modelRows(reports: readonly RunDigest[]): ModelRow[] {
  const rows = new Map<string, { row: ModelRow; treatments: Set<string> }>();
  for (const r of reports) {
    const m = modelName(r);
    let at = rows.get(m);
    if (!at)
      rows.set(m, (at = { row: { model: m, runs: 0, treatments: [] }, treatments: new Set() }));
    at.row.runs++;
    if (!at.treatments.has(r.treatment)) {
      at.treatments.add(r.treatment);
      at.row.treatments.push(r.treatment);
    }
  }
  return [...rows.values()].map((x) => x.row);
}

/** Treatments (of those given) whose runs used more than one model. */
export function mixedModelArms(
  reports: readonly RunDigest[],
  treatments: string[],
): MixedModelArm[] {
  return mixedRunsOf(reports, treatments, modelName).map(({ treatment, runs }) => ({
    treatment,
    models: runs.map(([model, n]) => ({ model, runs: n })),
  }));
}

/** The comparison on each model alone, built by `build` with the experiment's roles. */
export function byModel(
  reports: readonly RunDigest[],
  rows: readonly ModelRow[],
  roles: Roles,
  build: (reports: RunDigest[], roles: Roles) => Comparison,
): ModelComparison[] {
  return rows.map((m) => {
    const rs = reports.filter((r) => modelName(r) === m.model);
    const head = { model: m.model, runs: m.runs, treatments: m.treatments };
    const missing = [roles.candidate, roles.baseline].filter((t) => !m.treatments.includes(t));
    if (missing.length > 0)
      return {
        ...head,
        comparison: null,
        reason: `no run of ${missing.map((t) => `\`${t}\``).join(" or ")} on ${m.model}`,
      };
    const control = roles.control !== null && m.treatments.includes(roles.control);
    return {
      ...head,
      comparison: subComparison(build(rs, { ...roles, control: control ? roles.control : null })),
      reason: null,
    };
  });
}

function subComparison(full: Comparison): ModelSubComparison {
  const {
    agents: _a,
    mixed_arms: _m,
    by_agent: _b,
    source_evidence: _s,
    models: _ms,
    mixed_model_arms: _mm,
    by_model: _bm,
    ...sub
  } = full;
  return sub;
}

/** What a model's band says of the candidate, in a few words. */
const EFFECT: Record<string, string> = {
  improved: "helps",
  regressed: "hurts",
  non_inferior: "does not hurt",
  inconclusive: "undecided",
};

/** "helps on large, hurts on small" (the models compared; the others by their reason). */
function modelEffects(split: readonly ModelComparison[]): string {
  return split
    .map((m) =>
      m.comparison === null
        ? `not compared on ${m.model}`
        : `${EFFECT[m.comparison.verdict.band] ?? m.comparison.verdict.band} on ${m.model}`,
    )
    .join(", ");
}

/** The pooled verdict when an arm mixes models: inconclusive, saying why and where to look. */
export function mixedModelVerdict(
  v: Comparison["verdict"],
  mixed: MixedModelArm[],
  split: ModelComparison[],
  candidate: string,
): Comparison["verdict"] {
  const arms = mixed
    .map((m) => `\`${m.treatment}\` (${m.models.map((x) => `${x.model} ${x.runs}`).join(", ")})`)
    .join(" and ");
  const reason = `mixed models: split per model. ${arms} ran on more than one model, so a pooled Δ would mix each model's own pass rate into the treatments' effect; per model: ${modelSentence(split)}; \`${candidate}\` ${modelEffects(split)}.`;
  return {
    ...v,
    kind: "mixed_models",
    band: "inconclusive",
    rule: "mixed_models",
    reason,
    noise: MIXED_MODELS_NOISE,
    runs_needed: {
      status: "nothing",
      goal: null,
      per_treatment_total: null,
      more_per_treatment: null,
      more_per_task: null,
      text: "Per model: see each model's comparison (by_model).",
    },
    headline: bandHeadline({ band: "inconclusive", reason }),
  };
}

/** "large Δ +1.00 [+0.34, +1.00], improved; small Δ -1.00 [...], regressed". */
function modelSentence(split: readonly ModelComparison[]): string {
  return split
    .map((m) => {
      const c = m.comparison;
      if (c === null) return `${m.model}: ${m.reason ?? "not compared"}`;
      const ci = c.verdict.ci ? ` [${signed(c.verdict.ci.low)}, ${signed(c.verdict.ci.high)}]` : "";
      return `${m.model} Δ ${signed(c.verdict.delta)}${ci}, ${c.verdict.band.replace("_", "-")}`;
    })
    .join("; ");
}

/** The By model section of comparison_report.md; null when every run used one model. */
export function renderByModel(c: Comparison): string | null {
  const split = c.by_model;
  if (split === undefined || split.length === 0) return null;
  const { candidate, baseline } = c.roles;
  const rows = split.map((m) => {
    const s = m.comparison;
    if (s === null) return [cell(m.model), String(m.runs), "—", "—", "—", cell(m.reason ?? "")];
    const rate = (t: string): string => {
      const r = s.run_counts.find((x) => x.treatment === t);
      return r ? `${r.passed}/${r.runs} (${percent(r.pass_rate)})` : "—";
    };
    const v = s.verdict;
    return [
      cell(m.model),
      String(m.runs),
      rate(candidate),
      rate(baseline),
      `${signed(v.delta)} ${v.ci ? `[${signed(v.ci.low)}, ${signed(v.ci.high)}]` : ""}`.trim(),
      `**${v.band.replace("_", "-")}** (${EFFECT[v.band] ?? v.band})`,
    ];
  });
  const out = [
    "## By model",
    "",
    `\`${candidate}\` vs \`${baseline}\` on each model alone (analysis set; each row is a full comparison in comparison.json \`by_model\`): \`${candidate}\` ${modelEffects(split)}.`,
    "",
    table(
      ["Model", "Runs", `\`${candidate}\` passed`, `\`${baseline}\` passed`, "Δ pass rate", "Band"],
      rows,
    ),
  ];
  const mixed = c.mixed_model_arms ?? [];
  if (mixed.length > 0)
    out.push(
      "",
      `_${mixed.map((m) => `\`${m.treatment}\` ran on ${m.models.map((x) => `${x.model} (${x.runs})`).join(" and ")}`).join("; ")}: the pooled sections below mix models; the verdict is per model._`,
    );
  return out.join("\n");
}
