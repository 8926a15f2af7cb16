/**
 * The files behind a cost estimate (docs/cost.md): the pricing table (`--pricing FILE`, else
 * data/pricing.yaml) and the usage of earlier runs, read from results folders (`--estimate-from`,
 * the folder being resumed, this experiment's pilot). The estimate itself is pure
 * (cost/estimate.ts); this reads and hands it samples.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { agentDriver } from "../agents/registry.js";
import type { RunReport } from "../core/report.js";
import { InputError } from "../core/errors.js";
import {
  estimatePlan,
  estimateRun,
  type PlanEstimate,
  type RunEstimate,
  type UsageSample,
} from "../cost/estimate.js";
import { loadPricing, type PricingTable } from "../cost/pricing.js";
import { estimateLine } from "../cost/render.js";
import type { RunSpec } from "../plan/matrix.js";
import type { CostOptions } from "./run-options.js";
import { readStoredRuns } from "../store/read.js";

/** The driver's name of an agent as a report or a plan names it (`claude-code` → `claude`). */
function agentKey(name: string): string {
  return agentDriver(name)?.name ?? name;
}

/** One run's usage as a sample; null when it used no tokens the report knows of. */
function sampleOf(
  r: RunReport,
  from: UsageSample["from"],
  sameContentOnly: boolean,
): UsageSample | null {
  const e = r.events_summary;
  if (!e) return null;
  const tokens = {
    input: e.input_tokens ?? 0,
    output: e.output_tokens ?? 0,
    cache_read: e.cache_read_input_tokens ?? 0,
    cache_write: e.cache_creation_input_tokens ?? 0,
  };
  if (tokens.input + tokens.output + tokens.cache_read + tokens.cache_write === 0) return null;
  // The model the agent billed: its usage's one model; with several (a subagent on another
  // model) the tokens are not split by kind per model, so the run's own model prices them.
  const billed = Object.keys(e.model_usage);
  return {
    task: r.task,
    treatment: r.treatment,
    agent: agentKey(r.agent.name),
    model: r.model,
    billed_model: billed.length === 1 ? (billed[0] ?? null) : null,
    tokens,
    reported_usd: e.total_cost_usd,
    seconds: r.timing.wall_ms / 1000,
    from,
    metered_usd: r.metered && r.metered.unpriced.length === 0 ? r.metered.usd : null,
    ...(sameContentOnly
      ? { task_hash: r.run_key?.parts.task_hash ?? null, same_content_only: true }
      : {}),
  };
}

/** Every finished run's usage in a results folder. A folder that is not one is bad input. */
async function readUsageSamples(
  dir: string,
  from: UsageSample["from"],
  field = "--estimate-from",
  sameContentOnly = false,
): Promise<{ samples: UsageSample[]; finished: Set<string> }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new InputError(`${field} ${dir}: no such results folder`, { file: dir, field });
  if (!existsSync(path.join(dir, "runs")))
    throw new InputError(`${field} ${dir}: not a results folder (it has no runs/)`, {
      file: dir,
      field,
    });
  // Read-only: an earlier experiment's folder is not ours to index.
  const stored = await readStoredRuns(dir, { index: false });
  const samples: UsageSample[] = [];
  const finished = new Set<string>();
  await stored.reports(
    stored.digests.map((d) => d.run_id),
    (r) => {
      finished.add(r.run_id);
      const s = sampleOf(r, from, sameContentOnly);
      if (s) samples.push(s);
    },
  );
  return { samples, finished };
}

export interface EstimateRequest {
  /** The planned runs, in plan order. */
  runs: readonly {
    run_id: string;
    task: string;
    treatment: string;
    agent: string;
    /** The run's own model (plan/models.ts); absent: `model` below. */
    model?: string | null;
  }[];
  model: string | null;
  concurrency: number;
  /** `--estimate-from` folders (resolved). */
  estimateFrom: readonly string[];
  /** `--resume --out DIR`: the folder's finished runs are history, and are not run again. */
  resumeDir?: string | null | undefined;
  /** This experiment's folder after its pilot (`--pilot N`): its runs are pilot samples. */
  pilotDir?: string | null | undefined;
  pricing: PricingTable;
  /** Each task's content hash: the history store's runs count only for the same content. */
  taskHashes?: ReadonlyMap<string, string> | undefined;
  /**
   * The history store's results folders (history/results-folders.ts), read when no
   * `--estimate-from` is given; null or absent: no store.
   */
  history?: (() => Promise<{ where: string; folders: string[] } | null>) | undefined;
}

export interface ExperimentEstimate {
  plan: PlanEstimate & { readonly pricing: Pick<PricingTable, "version" | "file"> };
  per: RunEstimate[];
  /** The folders the history came from. */
  from: string[];
  pricing: PricingTable;
  /** Every sample read (history and pilot): the budget's admission estimates from them too. */
  samples: UsageSample[];
}

/**
 * The history store's folders as samples (docs/cost.md), each marked to count only for the same
 * task content; this experiment's own folder is read as itself (resume, pilot), not again here.
 * A folder that cannot be read as results is passed over: the store named it, the user did not.
 * Returns the source's name for the estimate's source line, or nothing when it gave no sample.
 */
async function historySamples(
  history: () => Promise<{ where: string; folders: string[] } | null>,
  samples: UsageSample[],
  ...own: (string | null | undefined)[]
): Promise<string[]> {
  const store = await history();
  if (!store) return [];
  const skip = new Set(own.filter((d): d is string => !!d).map((d) => path.resolve(d)));
  let got = 0;
  for (const dir of store.folders) {
    if (skip.has(dir)) continue;
    try {
      const read = await readUsageSamples(dir, "history", "--history", true);
      samples.push(...read.samples);
      got += read.samples.length;
    } catch {
      continue;
    }
  }
  return got > 0 ? [`history store ${store.where}`] : [];
}

/** Estimate the runs still to run of a plan from the best sources available. */
export async function estimateExperiment(req: EstimateRequest): Promise<ExperimentEstimate> {
  const { pricing } = req;
  const samples: UsageSample[] = [];
  const from: string[] = [];
  for (const dir of req.estimateFrom) {
    samples.push(...(await readUsageSamples(dir, "history")).samples);
    from.push(dir);
  }
  if (req.estimateFrom.length === 0 && req.history)
    from.push(...(await historySamples(req.history, samples, req.resumeDir, req.pilotDir)));
  let done = new Set<string>();
  if (req.resumeDir && existsSync(path.join(req.resumeDir, "runs"))) {
    const got = await readUsageSamples(req.resumeDir, "history", "--resume");
    samples.push(...got.samples);
    done = got.finished;
    from.push(req.resumeDir);
  }
  if (req.pilotDir) {
    const got = await readUsageSamples(req.pilotDir, "pilot", "--pilot");
    samples.push(...got.samples);
    done = new Set([...done, ...got.finished]);
  }
  // Every source a run's estimate may use is of its task: samples by task, and one estimate per
  // task, treatment, agent and model (the repetitions share it), so a large plan over a large history
  // is not runs × samples.
  const byTask = new Map<string, UsageSample[]>();
  for (const x of samples) {
    const list = byTask.get(x.task);
    if (list) list.push(x);
    else byTask.set(x.task, [x]);
  }
  const memo = new Map<string, RunEstimate>();
  const per = req.runs
    .filter((r) => !done.has(r.run_id))
    .map((r) => {
      const agent = agentKey(r.agent);
      const model = r.model !== undefined ? r.model : req.model;
      const key = JSON.stringify([r.task, r.treatment, agent, model]);
      let e = memo.get(key);
      if (!e) {
        e = estimateRun({
          run: {
            task: r.task,
            treatment: r.treatment,
            agent,
            model,
            task_hash: req.taskHashes?.get(r.task) ?? null,
          },
          samples: byTask.get(r.task) ?? [],
          typical: agentDriver(agent)?.typicalRun ?? null,
          pricing,
        });
        memo.set(key, e);
      }
      return e;
    });
  return { plan: estimatePlan(per, req.concurrency, pricing), per, from, pricing, samples };
}

/** `--pricing FILE`, else the table shipped with skillbench; a relative path is the cwd's. */
export function pricingOf(cost: CostOptions | undefined, cwd: string): Promise<PricingTable> {
  return loadPricing(cost?.pricing === undefined ? undefined : path.resolve(cwd, cost.pricing));
}

/**
 * The estimate of a run's start-up line (`skillbench: N runs planned …`), and the samples it was
 * made from (the budget's admission uses them: runner/budget-estimate.ts).
 */
export async function startEstimateLine(a: {
  cost: CostOptions | undefined;
  pricing: PricingTable;
  toRun: readonly RunSpec[];
  model: string | null;
  concurrency: number;
  /** The results folder when resumed: its finished runs are history. */
  resumeDir: string | null;
  scripted: boolean;
  cwd: string;
  taskHashes?: ReadonlyMap<string, string> | undefined;
  history?: (() => Promise<{ where: string; folders: string[] } | null>) | undefined;
}): Promise<{ line: string; samples: readonly UsageSample[] }> {
  const estimateFrom = (a.cost?.estimateFrom ?? []).map((d) => path.resolve(a.cwd, d));
  const e = await estimateExperiment({
    runs: a.toRun,
    model: a.model,
    concurrency: a.concurrency,
    estimateFrom,
    // The folder's finished runs are not run again: only their usage is read (the pilot's,
    // when they are this experiment's pilot).
    resumeDir: a.cost?.fromPilot ? null : a.resumeDir,
    pilotDir: a.cost?.fromPilot ? a.resumeDir : null,
    pricing: a.pricing,
    taskHashes: a.taskHashes,
    // After a pilot the user asked for this experiment's own figures: the store is not read.
    history: a.cost?.fromPilot ? undefined : a.history,
  });
  return { line: estimateLine(e.plan, { scripted: a.scripted, from: e.from }), samples: e.samples };
}
