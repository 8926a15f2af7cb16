/**
 * What the comparison's answer cost (#35 item 5, docs/cost.md): the extra dollars per extra
 * passed run of the candidate over the baseline, and what the whole experiment that gave the
 * verdict cost. Pure, from the runs' digests (the agent's own cost figures).
 */
import type { RunDigest } from "../../core/digest.js";
import type { Roles } from "../../plan/roles.js";
import { int, Tally } from "../format.js";

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
  /**
   * The LLM judge's calls over the runs (their judge blocks), counted apart from the runs' own
   * spend (#38 item 3); absent when no judge call was sent (none asked for, or all cached).
   */
  judge?: JudgeCost | undefined;
}

/** What the judge's calls cost, as their transport reported it. */
export interface JudgeCost {
  /** Requests sent (samples and repair turns); a cache hit sends none. */
  calls: number;
  /** Runs whose judge sent at least one call. */
  runs: number;
  /** Input and output tokens summed; null when no call reported usage. */
  tokens: number | null;
  /** Dollars the transport reported (a CLI judge does; the HTTP one reports tokens only); null: none did. */
  usd: number | null;
  /** Judged runs whose calls reported no dollars (left out of `usd`). */
  unreported_runs: number;
}

/** The judge's cost over the runs, or null when no run's judge sent a call. */
function judgeCostOf(reports: readonly RunDigest[]): JudgeCost | null {
  let calls = 0;
  let runs = 0;
  let tokens: number | null = null;
  let usd: number | null = null;
  let unreported = 0;
  for (const r of reports) {
    const j = r.judge;
    if (!j || j.calls === 0) continue;
    calls += j.calls;
    runs += 1;
    if (j.tokens) tokens = (tokens ?? 0) + j.tokens.input + j.tokens.output;
    if (j.cost_usd === null) unreported += 1;
    else usd = (usd ?? 0) + j.cost_usd;
  }
  return runs === 0 ? null : { calls, runs, tokens, usd, unreported_runs: unreported };
}

/** One arm's analysis-set runs: their costs (meanOf's values, in run order) and passes. */
class Arm {
  private readonly cost = new Tally();
  private runs = 0;
  private passed = 0;

  add(r: RunDigest, cost: number | null | undefined): void {
    this.cost.add(cost);
    this.runs++;
    if (r.passed) this.passed++;
  }

  get costPerRun(): number | null {
    return this.cost.mean();
  }

  get passRate(): number | null {
    return this.runs === 0 ? null : this.passed / this.runs;
  }
}

export function costOfAnswer(reports: readonly RunDigest[], roles: Roles): CostOfAnswer {
  // One pass: each run's events_summary is read once (a packed digest builds the object at each
  // read), for the experiment's sums and its arm's mean; Tally adds as sumOf and meanOf did.
  const cand = new Arm();
  const base = new Arm();
  const cost = new Tally();
  const tokens = new Tally();
  let priced = 0;
  for (const r of reports) {
    const e = r.events_summary;
    const c = e?.total_cost_usd;
    cost.add(c);
    tokens.add(e?.total_tokens);
    if (typeof c === "number") priced++;
    if (!r.sample_quality.include_in_analysis) continue;
    if (r.treatment === roles.candidate) cand.add(r, c);
    if (r.treatment === roles.baseline) base.add(r, c);
  }
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
  const judge = judgeCostOf(reports);
  return {
    candidate: roles.candidate,
    baseline: roles.baseline,
    per_extra_pass_usd: per,
    na,
    candidate_cost_per_run: cand.costPerRun,
    baseline_cost_per_run: base.costPerRun,
    delta_pass_rate: dPass,
    experiment_usd: cost.total(),
    experiment_tokens: tokens.total(),
    runs: reports.length,
    unpriced_runs: reports.length - priced,
    ...(judge ? { judge } : {}),
  };
}

/** The judge's cost in a few words (comparison_report.md, summary.md, the HTML). */
function judgeCostText(j: JudgeCost, usd: (x: number) => string): string {
  const dollars =
    j.usd === null
      ? "no dollars reported by its transport (an HTTP judge reports tokens only)"
      : `${usd(j.usd)}${j.unreported_runs > 0 ? ` (${j.unreported_runs} judged run(s) reported no dollars)` : ""}`;
  const tokens = j.tokens === null ? "" : `${int(j.tokens)} tokens, `;
  return `${j.calls} call(s) on ${j.runs} run(s): ${tokens}${dollars}; not in the runs' figures`;
}

/**
 * The two lines under the spend table. Token counts go through format.ts's int: the text of
 * `Math.round(x).toLocaleString("en-US")`, without starting Intl's number formatting (~10 ms,
 * which no other part of a report needs).
 */
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
      : `${usd(c.experiment_usd)}${c.experiment_tokens === null ? "" : `, ${int(c.experiment_tokens)} tokens`}${c.unpriced_runs > 0 ? ` (${c.unpriced_runs} run(s) reported no cost)` : ""}`;
  return [
    `- **Extra cost per extra passed run** (${c.candidate} over ${c.baseline}): ${per}`,
    `- **Cost of the experiment behind this verdict** (all ${c.runs} runs, excluded ones included): ${total}`,
    ...(c.judge ? [`- **The LLM judge's cost**: ${judgeCostText(c.judge, usd)}`] : []),
  ];
}

/** summary.md's line of the judge's cost, when a judge call was sent. */
export function judgeCostLines(
  reports: readonly RunDigest[],
  usd: (x: number) => string,
): string[] {
  const j = judgeCostOf(reports);
  return j ? [`- LLM judge: ${judgeCostText(j, usd)}`] : [];
}
