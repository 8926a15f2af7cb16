/**
 * `--dry-run`'s estimate (docs/cost.md): the planned runs' expected tokens, cost and wall time,
 * printed under the matrix by `run`, `eval` and `calibrate`.
 */
import path from "node:path";
import { agentDriver } from "../agents/registry.js";
import { estimatePlan, estimateRun, probeFigure, sumRanges } from "../cost/estimate.js";
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

/**
 * `triggers --dry-run`: the probes' estimate, from each agent's figure scaled to a probe. With
 * several agents (`--agent a,b`) every agent runs every probe, priced under its own model; they
 * run one after the other (runTriggersOnAgents), so the wall time is the sum of theirs.
 */
export async function probeEstimateText(
  plan: {
    probes: readonly { variant: string; query_id: string }[];
    agents: readonly { agent: string; model: string | null }[];
    concurrency: number;
    maxTurns: number;
    timeoutSec: number;
    scripted: boolean;
  },
  f: { pricing?: string | undefined },
  cwd = process.cwd(),
): Promise<string> {
  const pricing = await pricingOf({ pricing: f.pricing }, cwd);
  const perAgent = plan.agents.map(({ agent, model }) => {
    const typicalRun = agentDriver(agent)?.typicalRun;
    const typical = typicalRun ? probeFigure(typicalRun, plan.maxTurns, plan.timeoutSec) : null;
    return plan.probes.map((p) =>
      estimateRun({
        run: { task: p.query_id, treatment: p.variant, agent, model },
        samples: [],
        typical,
        pricing,
      }),
    );
  });
  const all = estimatePlan(perAgent.flat(), plan.concurrency, pricing);
  const seconds = sumRanges(
    perAgent.map((per) => estimatePlan(per, plan.concurrency, pricing).seconds),
  );
  return renderEstimate({ ...all, seconds }, [], {
    scripted: plan.scripted,
    from: [],
    noun: "probes",
  });
}
