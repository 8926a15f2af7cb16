/**
 * `--dry-run`'s estimate (docs/cost.md): the planned runs' expected tokens, cost and wall time,
 * printed under the matrix by `run`, `eval` and `calibrate`.
 */
import path from "node:path";
import { defaultAgent } from "../agents/registry.js";
import { estimatePlan, estimateRun, probeFigure } from "../cost/estimate.js";
import { estimateExperiment, pricingOf } from "../runner/estimate-sources.js";
import { renderEstimate } from "../cost/render.js";
import type { SuitePlan } from "../inspect/plan.js";
import { historyResultsFolders, historySourceTarget } from "../history/results-folders.js";

export interface EstimateFlags {
  estimateFrom?: string[] | undefined;
  pricing?: string | undefined;
  pilot?: number | undefined;
  resume?: boolean | undefined;
  out?: string | undefined;
  /** `--history FILE|URL`, `--no-history` (false): the store read for earlier runs. */
  history?: string | boolean | undefined;
}

/** The estimate block of a plan. */
export async function planEstimateText(
  plan: Pick<SuitePlan, "runs" | "model" | "model_script" | "concurrency" | "count" | "tasks">,
  f: EstimateFlags,
  cwd = process.cwd(),
): Promise<string> {
  const pricing = await pricingOf({ pricing: f.pricing }, cwd);
  const e = await estimateExperiment({
    runs: plan.runs,
    model: plan.model,
    concurrency: plan.concurrency,
    estimateFrom: (f.estimateFrom ?? []).map((d) => path.resolve(cwd, d)),
    resumeDir: f.resume && f.out ? path.resolve(cwd, f.out) : null,
    pricing,
    taskHashes: new Map(plan.tasks.map((t) => [t.name, t.hash])),
    // The store the run would record in (a default results folder's is `.skillbench/history.db`).
    // `--pilot N` asks for this experiment's own figures: the store is not read then.
    history:
      f.pilot !== undefined
        ? undefined
        : () =>
            historyResultsFolders(
              historySourceTarget(
                f.history,
                f.out ?? path.join(".skillbench", "runs", "next"),
                cwd,
              ),
              (line) => process.stderr.write(`${line}\n`),
            ),
  });
  const pilot =
    f.pilot !== undefined
      ? `  pilot   --pilot ${f.pilot}: the first ${Math.min(f.pilot, plan.count)} run(s) of each task and treatment run first (they count), then the rest is estimated from them\n`
      : "";
  return (
    renderEstimate(e.plan, e.per, { scripted: plan.model_script !== null, from: e.from }) + pilot
  );
}

/** `triggers --dry-run`: the probes' estimate, from the agent's figure scaled to a probe. */
export async function probeEstimateText(
  plan: {
    probes: readonly { variant: string; query_id: string }[];
    concurrency: number;
    maxTurns: number;
    timeoutSec: number;
    model: string | null;
    scripted: boolean;
  },
  f: { pricing?: string | undefined },
  cwd = process.cwd(),
): Promise<string> {
  const pricing = await pricingOf({ pricing: f.pricing }, cwd);
  const agent = defaultAgent();
  const typical = agent.typicalRun
    ? probeFigure(agent.typicalRun, plan.maxTurns, plan.timeoutSec)
    : null;
  const per = plan.probes.map((p) =>
    estimateRun({
      run: { task: p.query_id, treatment: p.variant, agent: agent.name, model: plan.model },
      samples: [],
      typical,
      pricing,
    }),
  );
  return renderEstimate(estimatePlan(per, plan.concurrency, pricing), [], {
    scripted: plan.scripted,
    from: [],
    noun: "probes",
  });
}
