import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "../report/comparison/index.js";
import { meanOf } from "../report/format.js";
import { analysisSet } from "../report/outcomes.js";
import { metricValue } from "../report/thresholds.js";
import { judgeDimensionValue } from "../report/judge-status.js";

/**
 * Quality gates from a manifest's `evaluation.qualityGates`: each is a minimum the
 * candidate (the Skill as it is now) must reach, or `noRegression: true` (the candidate is
 * not worse than the frozen baseline). Pure: parsed from the manifest, decided from stored
 * reports and the comparison. A gate whose value cannot be computed fails, saying why.
 */

export type GateSpec =
  | { key: string; kind: "pass_rate" | "weighted_score" | "checks_pass_rate"; min: number }
  | { key: string; kind: "pass_at_k" | "pass_hat_k"; k: number; min: number }
  | { key: string; kind: "dimension"; dimension: string; min: number }
  | { key: string; kind: "judge_dimension"; dimension: string; min: number }
  | { key: string; kind: "no_regression" };

interface GateResult {
  key: string;
  /** e.g. `pass_rate`, `pass^3`, `skill_invocation`, `no regression vs BASELINE` */
  metric: string;
  treatment: string;
  value: number | null;
  min: number | null;
  ok: boolean;
  detail: string;
}

export interface GateReport {
  schema: "skillbench.quality-gates.v1";
  ok: boolean;
  candidate: string;
  gates: GateResult[];
}

const GATE_HELP =
  "minPassRate, minWeightedScore, minChecksPassRate, minPassAt<K>, minPassHat<K> (pass^K), min<Dimension> (a rubric dimension, e.g. minSkillInvocation), minJudge<Dimension> (an LLM-judge dimension, e.g. minJudgeTaskCompletion; needs a judge calibration), noRegression";

const snake = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();

/** One gate from its key and value; an error string when it is not a gate. */
export function parseGate(key: string, value: number | boolean): GateSpec | string {
  const k = key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  if (k === "noRegression") {
    if (typeof value !== "boolean") return "expected true or false";
    return value ? { key, kind: "no_regression" } : "noRegression: false is no gate; remove it";
  }
  if (!k.startsWith("min") || k.length <= 3) return `unknown gate (known: ${GATE_HELP})`;
  if (typeof value !== "number" || value < 0 || value > 1)
    return `expected a number from 0 to 1, got ${JSON.stringify(value)}`;
  const name = k.slice(3);
  if (name === "PassRate") return { key, kind: "pass_rate", min: value };
  if (name === "WeightedScore") return { key, kind: "weighted_score", min: value };
  if (name === "ChecksPassRate") return { key, kind: "checks_pass_rate", min: value };
  const pk = /^Pass(At|Hat)(\d+)$/.exec(name);
  if (pk) {
    const kk = Number(pk[2]);
    if (kk < 1) return "K must be at least 1";
    return { key, kind: pk[1] === "At" ? "pass_at_k" : "pass_hat_k", k: kk, min: value };
  }
  if (/^Judge[A-Z0-9]/.test(name))
    return {
      key,
      kind: "judge_dimension",
      // the generic judge's criteria are custom_0 …: minJudgeCustom0 and min_judge_custom_0 name them
      dimension: snake(name.slice(5)).replace(/^custom(\d+)$/, "custom_$1"),
      min: value,
    };
  return { key, kind: "dimension", dimension: snake(name), min: value };
}

/** The judge dimensions these gates gate on (each needs a calibration: judge/calibration/require.ts). */
export function judgeGates(gates: GateSpec[]): Array<{ key: string; dimension: string }> {
  return gates.flatMap((g) =>
    g.kind === "judge_dimension" ? [{ key: g.key, dimension: g.dimension }] : [],
  );
}

export function parseGates(gates: Record<string, number | boolean>): {
  gates: GateSpec[];
  errors: { key: string; message: string }[];
} {
  const out: GateSpec[] = [];
  const errors: { key: string; message: string }[] = [];
  for (const [key, value] of Object.entries(gates)) {
    const g = parseGate(key, value);
    if (typeof g === "string") errors.push({ key, message: g });
    else out.push(g);
  }
  return { gates: out, errors };
}

const f3 = (x: number | null): string => (x === null ? "not computable" : x.toFixed(3));

export interface GateInput {
  reports: RunDigest[];
  candidate: string;
  /** The frozen baseline noRegression compares with (null: none in this eval). */
  baseline: string | null;
  /** Built with candidate and baseline roles; null when fewer than two treatments ran. */
  comparison: Comparison | null;
}

function decideOne(g: GateSpec, input: GateInput): GateResult {
  const { reports, candidate } = input;
  const runs = analysisSet(reports).filter((r) => r.treatment === candidate);
  const minGate = (metric: string, value: number | null, min: number, why: string): GateResult => {
    const ok = value !== null && value >= min - 1e-9;
    return {
      key: g.key,
      metric,
      treatment: candidate,
      value,
      min,
      ok,
      detail:
        value === null
          ? `${metric} is not computable: ${why}`
          : `${metric} = ${f3(value)} ${ok ? "≥" : "<"} ${min}`,
    };
  };
  const noRuns = `no analysis-set runs of ${candidate}`;
  switch (g.kind) {
    case "pass_rate":
      return minGate(
        "pass_rate",
        metricValue(reports, candidate, { kind: "pass_rate" }),
        g.min,
        noRuns,
      );
    case "weighted_score":
      return minGate(
        "weighted_score",
        metricValue(reports, candidate, { kind: "weighted_score" }),
        g.min,
        "no rubric scores",
      );
    case "checks_pass_rate": {
      const p = runs.reduce((s, r) => s + r.checks_passed.length, 0);
      const f = runs.reduce((s, r) => s + r.checks_failed.length, 0);
      return minGate("checks_pass_rate", p + f === 0 ? null : p / (p + f), g.min, "no checks ran");
    }
    case "pass_at_k":
    case "pass_hat_k": {
      const metric = g.kind === "pass_at_k" ? `pass@${g.k}` : `pass^${g.k}`;
      return minGate(
        metric,
        metricValue(reports, candidate, { kind: g.kind, k: g.k }),
        g.min,
        `fewer than ${g.k} runs of a task`,
      );
    }
    case "dimension": {
      const scores = runs.flatMap((r) => {
        const d = r.rubric?.dimensions.find((x) => x.name === g.dimension);
        return d && d.score !== null ? [d.score] : [];
      });
      const known = [
        ...new Set(runs.flatMap((r) => r.rubric?.dimensions.map((d) => d.name) ?? [])),
      ];
      return minGate(
        g.dimension,
        meanOf(scores),
        g.min,
        known.includes(g.dimension)
          ? "not applicable in every run"
          : `no rubric dimension ${g.dimension} (the profile has: ${known.join(", ") || "none"})`,
      );
    }
    case "judge_dimension": {
      // Fails closed: N/A on any run (the judge failed there) is not computable, with the cause.
      const v = judgeDimensionValue(reports, candidate, g.dimension);
      return minGate(`judge.${g.dimension}`, v.value, g.min, v.why);
    }
    case "no_regression": {
      const metric = `no regression vs ${input.baseline ?? "a frozen baseline"}`;
      const base = { key: g.key, metric, treatment: candidate, value: null, min: null };
      if (!input.baseline)
        return {
          ...base,
          ok: false,
          detail: "no frozen baseline in this eval: add evaluation.baselineTreatments",
        };
      const c = input.comparison;
      if (!c || c.roles.candidate !== candidate || c.roles.baseline !== input.baseline)
        return {
          ...base,
          ok: false,
          detail: `no comparison of ${candidate} with ${input.baseline}`,
        };
      // Runs of several agents in an arm: the gate holds on every agent, each compared alone.
      const v = c.verdict;
      // So with runs of several models in an arm: each model compared alone (models.ts).
      const reasons =
        v.kind === "mixed_agents"
          ? c.by_agent.flatMap((a) =>
              a.comparison === null
                ? [`${a.agent}: ${a.reason ?? "not compared"}`]
                : regressionReasons(a.comparison).map((r) => `${a.agent}: ${r}`),
            )
          : v.kind === "mixed_models"
            ? (c.by_model ?? []).flatMap((m) =>
                m.comparison === null
                  ? [`${m.model}: ${m.reason ?? "not compared"}`]
                  : regressionReasons(m.comparison).map((r) => `${m.model}: ${r}`),
              )
            : regressionReasons(c);
      const d = v.ci && v.delta !== null ? { estimate: v.delta } : null;
      return {
        ...base,
        value: d?.estimate ?? null,
        ok: reasons.length === 0,
        detail:
          reasons.length === 0
            ? `band ${v.band}: no rubric dimension regresses and the pass rate is not shown lower (Δ ${d ? d.estimate.toFixed(3) : "n/a"})`
            : reasons.join("; "),
      };
    }
  }
}

/**
 * Why a comparison fails `noRegression` (none: it holds). The verdict band (docs/statistics.md
 * §9): regressed fails the gate; inconclusive fails it when the data cannot say (nothing to
 * compare, exclusion imbalance, more than half excluded) or the rubric regresses while the pass
 * rate improves ("mixed").
 */
function regressionReasons(c: Pick<Comparison, "verdict" | "settings">): string[] {
  const v = c.verdict;
  const reasons: string[] = [];
  if (v.regressions.length > 0 && (v.band === "regressed" || v.band === "inconclusive"))
    reasons.push(`rubric regression on ${v.regressions.map((r) => r.dimension).join(", ")}`);
  if (v.band === "regressed" && v.ci && v.ci.high < 0)
    reasons.push(
      `pass rate lower than the baseline (band regressed: Δ ${(v.delta ?? 0).toFixed(3)}, interval ${v.ci.low.toFixed(3)}…${v.ci.high.toFixed(3)})`,
    );
  const unreadable =
    v.delta === null ||
    v.exclusion.imbalanced ||
    [v.candidate_quality, v.baseline_quality].some(
      (q) => q.excluded_share !== null && q.excluded_share > c.settings.max_excluded_share,
    );
  if (v.band === "inconclusive" && unreadable) reasons.push(v.reason.replace(/`/g, ""));
  return reasons;
}

export function decideGates(gates: GateSpec[], input: GateInput): GateReport {
  const results = gates.map((g) => decideOne(g, input));
  return {
    schema: "skillbench.quality-gates.v1",
    ok: results.every((r) => r.ok),
    candidate: input.candidate,
    gates: results,
  };
}

export function renderGatesMarkdown(r: GateReport): string {
  const lines = [
    "## Quality gates",
    "",
    `Candidate: \`${r.candidate}\`. ${r.gates.length === 0 ? "No gates declared." : r.ok ? "✅ Every gate passes." : `❌ ${r.gates.filter((g) => !g.ok).length} of ${r.gates.length} gate(s) fail.`}`,
    "",
  ];
  if (r.gates.length > 0) {
    lines.push(
      "| gate | metric | value | min | result | detail |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const g of r.gates)
      lines.push(
        `| \`${g.key}\` | ${g.metric} | ${g.value === null ? "—" : g.value.toFixed(3)} | ${g.min ?? "—"} | ${g.ok ? "✅ pass" : "❌ fail"} | ${g.detail.replace(/\|/g, "\\|")} |`,
      );
    lines.push("");
  }
  return lines.join("\n");
}
