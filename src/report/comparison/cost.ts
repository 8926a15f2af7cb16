/**
 * What the comparison's answer cost (#35 item 5, docs/cost.md): the extra dollars per extra
 * passed run of the candidate over the baseline, and what the whole experiment that gave the
 * verdict cost. Pure, from the runs' digests (the agent's own cost figures).
 */
import type { RunDigest } from "../../core/digest.js";
import type { Roles } from "../../plan/roles.js";

export interface CostOfAnswer {
  candidate: string;
  baseline: string;
  /**
   * (mean cost per run of the candidate − the baseline's) ÷ (pass rate of the candidate − the
   * baseline's), over the analysis set: with as many runs in each arm, Δcost ÷ Δpasses. Null
   * when it does not exist (`na` says why).
   */
  per_extra_pass_usd: number | null;
  na: string | null;
  /** Mean cost per run and pass rate of each arm (analysis set; null: no run reported a cost). */
  candidate_cost_per_run: number | null;
  baseline_cost_per_run: number | null;
  delta_pass_rate: number | null;
  /** Every run of the experiment, excluded ones included (they were paid for too). */
  experiment_usd: number | null;
  experiment_tokens: number | null;
  runs: number;
  /** Runs that reported no cost (left out of experiment_usd). */
  unpriced_runs: number;
}

function arm(runs: readonly RunDigest[]): { costPerRun: number | null; passRate: number | null } {
  const costs = runs
    .map((r) => r.events_summary?.total_cost_usd)
    .filter((x): x is number => typeof x === "number");
  return {
    costPerRun: costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0) / costs.length,
    passRate: runs.length === 0 ? null : runs.filter((r) => r.passed).length / runs.length,
  };
}

export function costOfAnswer(reports: readonly RunDigest[], roles: Roles): CostOfAnswer {
  const analysis = reports.filter((r) => r.sample_quality.include_in_analysis);
  const cand = arm(analysis.filter((r) => r.treatment === roles.candidate));
  const base = arm(analysis.filter((r) => r.treatment === roles.baseline));
  const dPass =
    cand.passRate === null || base.passRate === null ? null : cand.passRate - base.passRate;
  let per: number | null = null;
  let na: string | null = null;
  if (dPass === null) na = "an arm has no analysis-set run";
  else if (cand.costPerRun === null || base.costPerRun === null)
    na = "the runs of an arm reported no cost";
  else if (dPass <= 0)
    na = `the candidate passes no more often than the baseline (Δ pass rate ${dPass.toFixed(2)}): there is no extra passed run to pay for`;
  else per = (cand.costPerRun - base.costPerRun) / dPass;
  const costs = reports.map((r) => r.events_summary?.total_cost_usd);
  const tokens = reports.map((r) => r.events_summary?.total_tokens);
  const priced = costs.filter((x): x is number => typeof x === "number");
  const counted = tokens.filter((x): x is number => typeof x === "number");
  return {
    candidate: roles.candidate,
    baseline: roles.baseline,
    per_extra_pass_usd: per,
    na,
    candidate_cost_per_run: cand.costPerRun,
    baseline_cost_per_run: base.costPerRun,
    delta_pass_rate: dPass,
    experiment_usd: priced.length === 0 ? null : priced.reduce((a, b) => a + b, 0),
    experiment_tokens: counted.length === 0 ? null : counted.reduce((a, b) => a + b, 0),
    runs: reports.length,
    unpriced_runs: reports.length - priced.length,
  };
}

/** The two lines under the spend table. */
export function costOfAnswerLines(c: CostOfAnswer, usd: (x: number) => string): string[] {
  const sign = (x: number, f: (y: number) => string): string => (x < 0 ? `−${f(-x)}` : `+${f(x)}`);
  const per =
    c.per_extra_pass_usd === null
      ? `n/a: ${c.na ?? "not known"}`
      : `${sign(c.per_extra_pass_usd, usd)} (Δ cost per run ${sign(
          (c.candidate_cost_per_run ?? 0) - (c.baseline_cost_per_run ?? 0),
          usd,
        )} ÷ Δ pass rate ${sign(c.delta_pass_rate ?? 0, (x) => x.toFixed(2))}; analysis set)`;
  const total =
    c.experiment_usd === null
      ? "no run reported a cost"
      : `${usd(c.experiment_usd)}${c.experiment_tokens === null ? "" : `, ${Math.round(c.experiment_tokens).toLocaleString("en-US")} tokens`}${c.unpriced_runs > 0 ? ` (${c.unpriced_runs} run(s) reported no cost)` : ""}`;
  return [
    `- **Extra cost per extra passed run** (${c.candidate} over ${c.baseline}): ${per}`,
    `- **Cost of the experiment behind this verdict** (all ${c.runs} runs, excluded ones included): ${total}`,
  ];
}
