/**
 * What the budget's admission holds a run to before it starts (docs/budgets.md): the estimate
 * from real evidence only. Pure: the samples are read by runner/estimate-sources.ts.
 *
 * Best first:
 * 1. `experiment`: the runs of the same task this experiment has finished (this invocation's,
 *    and on `--resume` the recorded ones): their metered spend, the largest of them.
 * 2. `history` / `pilot`: `estimateRun` (cost/estimate.ts) over earlier runs of the same task,
 *    treatment, agent and model (`--estimate-from` folders) or the pilot's: the largest of them.
 * 3. `run cap`: `--max-run-usd`, the most one run may spend.
 * 4. `none`: nothing held back (the budget is then checked against what was spent).
 *
 * The agent's default figure (`typicalRun`) is never used here: it is a guess for a small task,
 * not evidence, and against the scripted model (a few hundred tokens a run) it would refuse every
 * run. The largest, not the mean, is held back: a run stopped half way by the budget is paid for
 * and wasted, a run refused can still run with `--resume`.
 */
import type { RunSpend, RunEstimateFigures } from "../cost/budget.js";
import { estimateRun, pickSamples, type UsageSample } from "../cost/estimate.js";
import { tokenTotal } from "../cost/meter.js";
import type { PricingTable } from "../cost/pricing.js";

/** The run the admission asks about. */
export interface AdmitRun {
  readonly run_id: string;
  readonly task: string;
  readonly treatment: string;
  /** The driver's name of the run's agent (`claude`). */
  readonly agent: string;
  /**
   * The task's content hash: a history store's sample counts only for the same task content
   * (cost/estimate.ts `same_content_only`); absent, such samples never count.
   */
  readonly task_hash?: string | null | undefined;
}

/** The estimate of one run, and where it came from (said in a refusal). */
export interface AdmissionFigures extends RunEstimateFigures {
  readonly source: "experiment" | "history" | "pilot" | "run cap" | "none";
  /** A few words for the refusal: "the largest of 2 earlier runs of t/CONTROL (history)". */
  readonly why: string;
}

export type AdmissionEstimate = (run: AdmitRun) => AdmissionFigures;

const usd = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;

export function admissionEstimate(o: {
  /** This experiment's finished runs by task (their metered spend), filled as runs end. */
  finished: ReadonlyMap<string, readonly RunSpend[]>;
  /** `--max-run-usd`, or null. */
  runUsd: number | null;
  /** Earlier runs and the pilot's: the samples `estimateRun` chooses from. */
  samples: () => readonly UsageSample[];
  /** The model the runs are asked for (`--model`), null: the agent's default. */
  model: string | null;
  pricing: PricingTable;
}): AdmissionEstimate {
  return (run) => {
    const same = o.finished.get(run.task) ?? [];
    if (same.length > 0)
      return {
        source: "experiment",
        usd: Math.max(...same.map((s) => s.usd)),
        tokens: Math.max(...same.map((s) => tokenTotal(s.tokens))),
        why: `the largest of ${same.length} run(s) of ${run.task} this experiment metered`,
      };
    const key = {
      task: run.task,
      treatment: run.treatment,
      agent: run.agent,
      model: o.model,
      task_hash: run.task_hash ?? null,
    };
    const samples = o.samples().filter((s) => s.task === run.task);
    const e = estimateRun({ run: key, samples, typical: null, pricing: o.pricing });
    if (e.source === "history" || e.source === "pilot") {
      // The harness's own metered dollars when every sample has them; else the table's price of
      // their tokens; unpriced, a dollar budget falls back to the run cap, as without evidence
      // (their tokens are still held back).
      const picked = pickSamples(key, samples)?.picked ?? [];
      const metered = picked.map((s) => s.metered_usd ?? null);
      const allMetered = metered.length > 0 && metered.every((x): x is number => x !== null);
      const dollars = allMetered ? Math.max(...metered) : (e.usd_range?.max ?? o.runUsd);
      const unpriced = !allMetered && e.usd_range === null;
      return {
        source: e.source,
        usd: dollars,
        tokens: e.total_tokens.max,
        why: `the largest of ${e.samples} ${e.source === "pilot" ? "pilot" : "earlier"} run(s) of ${run.task}/${run.treatment} (${e.source}${allMetered ? ", metered" : ""})${unpriced ? `; their cost is unpriced (${e.unpriced ?? "unknown"})${o.runUsd === null ? "" : `, so the run cap ${usd(o.runUsd)} is held`}` : ""}`,
      };
    }
    if (o.runUsd !== null)
      return {
        source: "run cap",
        usd: o.runUsd,
        tokens: null,
        why: `no earlier run of ${run.task}/${run.treatment}: the run cap ${usd(o.runUsd)} (--max-run-usd)`,
      };
    return {
      source: "none",
      usd: null,
      tokens: null,
      why: `no earlier run of ${run.task}/${run.treatment} and no run cap: nothing is held back (the agent's default figure is a guess, not used)`,
    };
  };
}
