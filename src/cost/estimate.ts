/**
 * What a planned run will use before it runs: tokens by kind, dollars and seconds, each as a
 * mean with the range of what it was estimated from, and which source that was (docs/cost.md).
 * Pure: the samples (earlier runs' usage) are read by the caller (runner/estimate-sources.ts).
 *
 * Sources, best first:
 * 1. `history`: earlier runs of the same task, treatment, agent and model (`--estimate-from`
 *    folders, the folder being resumed, else the history store's folders). A run the history
 *    store pointed at counts only when its task content hash is the planned task's: a task's
 *    name alone ("greet") is shared by unrelated suites.
 * 2. `pilot`: this experiment's own first runs (`--pilot N`), of the same key, else of the same
 *    task, agent and model under another treatment (a treatment changes the run less than a
 *    task does).
 * 3. `agent-default`: the driver's `typicalRun` figure, with a range of half to twice it: an
 *    order of magnitude, said as such.
 * 4. `none`: nothing to go on (an agent without a figure).
 *
 * Dollars come from the pricing table only: a model it does not know leaves the cost unpriced
 * (the tokens are still estimated), never guessed. Where earlier runs carried the agent's own
 * cost figure, its mean is given beside it (`reported_usd`), marked as the agent's.
 */
import type { TypicalRun } from "../agents/types.js";
import { costOf, type PricingTable, type TokenCounts } from "./pricing.js";

export type EstimateSource = "history" | "pilot" | "agent-default" | "none";

/** One finished run's usage, as the estimate uses it. */
export interface UsageSample {
  readonly task: string;
  readonly treatment: string;
  readonly agent: string;
  /** The model the run was asked for (report.json `model`; null: the agent's default). */
  readonly model: string | null;
  /** The model the agent says it billed (its usage's one model), else null. */
  readonly billed_model: string | null;
  readonly tokens: TokenCounts;
  /** The agent's own cost figure for the run, or null when it gave none. */
  readonly reported_usd: number | null;
  /** The run's wall time. */
  readonly seconds: number;
  /** An earlier experiment's run, or one of this experiment's pilot runs. */
  readonly from: "history" | "pilot";
  /**
   * What the harness metered for the run (report.json `metered`, written under a budget): its
   * dollars, when every model it used was priced. The budget's admission prefers it
   * (runner/budget-estimate.ts): it is the harness's own count, not the agent's.
   */
  readonly metered_usd?: number | null | undefined;
  /** The run's task content hash (its report's `run_key.parts.task_hash`), when recorded. */
  readonly task_hash?: string | null | undefined;
  /**
   * Found through the history store rather than a folder the user named: it counts only when
   * `task_hash` equals the planned run's (`RunKey.task_hash`).
   */
  readonly same_content_only?: boolean | undefined;
}

/** The part of a planned run an estimate depends on. */
export interface RunKey {
  readonly task: string;
  readonly treatment: string;
  readonly agent: string;
  /** The model asked for; null: the agent's default, which the harness does not know. */
  readonly model: string | null;
  /** The planned task's content hash, when known (history-store samples need it to count). */
  readonly task_hash?: string | null | undefined;
}

export interface Range {
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/** The input of `estimateRun` (what the budget's admission control calls too). */
export interface EstimateSpec {
  readonly run: RunKey;
  /** Every sample known (history and pilot); the estimate picks the ones that match. */
  readonly samples: readonly UsageSample[];
  /** The run's agent's default figure (`AgentDriver.typicalRun`), or null. */
  readonly typical: TypicalRun | null;
  readonly pricing: PricingTable;
}

export interface RunEstimate {
  readonly run: RunKey;
  readonly source: EstimateSource;
  /** How many samples the figures are from (0 for `agent-default` and `none`). */
  readonly samples: number;
  /** Mean tokens by kind. */
  readonly tokens: TokenCounts;
  /** All kinds together: mean, min, max. */
  readonly total_tokens: Range;
  readonly seconds: Range;
  /** Mean dollars from the pricing table; null: unpriced (see `unpriced`) or nothing to go on. */
  readonly usd: number | null;
  readonly usd_range: Range | null;
  /** The model the table was asked for and does not know (or why there was none); null when priced. */
  readonly unpriced: string | null;
  /** The table's entry that priced it, e.g. claude-sonnet-4-5 for a dated snapshot. */
  readonly priced_as: string | null;
  /** The mean of the agent's own cost figures of the samples, when every sample had one. */
  readonly reported_usd: number | null;
}

/** The agent-default figure's range: half to twice it (docs/cost.md). */
const DEFAULT_RANGE = { low: 0.5, high: 2 } as const;

const ZERO: TokenCounts = { input: 0, output: 0, cache_read: 0, cache_write: 0 };

function totalOf(t: TokenCounts): number {
  return t.input + t.output + t.cache_read + t.cache_write;
}

function rangeOf(xs: readonly number[]): Range {
  if (xs.length === 0) return { mean: 0, min: 0, max: 0 };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { mean: sum / xs.length, min, max };
}

/** Ranges added up: the means, the minima and the maxima each summed (e.g. over a plan's runs). */
export function sumRanges(rs: readonly Range[]): Range {
  return {
    mean: rs.reduce((a, r) => a + r.mean, 0),
    min: rs.reduce((a, r) => a + r.min, 0),
    max: rs.reduce((a, r) => a + r.max, 0),
  };
}

function meanTokens(samples: readonly UsageSample[]): TokenCounts {
  const n = samples.length;
  if (n === 0) return ZERO;
  const sum = (k: keyof TokenCounts): number => samples.reduce((a, s) => a + s.tokens[k], 0) / n;
  return {
    input: sum("input"),
    output: sum("output"),
    cache_read: sum("cache_read"),
    cache_write: sum("cache_write"),
  };
}

const sameKey = (a: RunKey, s: UsageSample): boolean =>
  s.task === a.task &&
  s.treatment === a.treatment &&
  s.agent === a.agent &&
  s.model === a.model &&
  sameContent(a, s);

/** A history-store sample counts only for the same task content; others by name as given. */
function sameContent(a: Pick<RunKey, "task_hash">, s: UsageSample): boolean {
  if (!s.same_content_only) return true;
  return a.task_hash != null && s.task_hash != null && s.task_hash === a.task_hash;
}

/** The samples an estimate of `run` uses, and which source they are. */
export function pickSamples(
  run: RunKey,
  samples: readonly UsageSample[],
): { source: "history" | "pilot"; picked: UsageSample[] } | null {
  const history = samples.filter((s) => s.from === "history" && sameKey(run, s));
  if (history.length > 0) return { source: "history", picked: history };
  const pilot = samples.filter((s) => s.from === "pilot");
  const same = pilot.filter((s) => sameKey(run, s));
  if (same.length > 0) return { source: "pilot", picked: same };
  const task = pilot.filter(
    (s) => s.task === run.task && s.agent === run.agent && s.model === run.model,
  );
  if (task.length > 0) return { source: "pilot", picked: task };
  return null;
}

/** Price each token count; null when one of them is unpriced, with the model the table lacked. */
function priceAll(
  pricing: PricingTable,
  items: readonly { model: string | null; tokens: TokenCounts }[],
): { usd: number[]; priced_as: string } | { unpriced: string } {
  const usd: number[] = [];
  let as = "";
  for (const it of items) {
    if (it.model === null)
      return { unpriced: "the agent's default model (name one with --model to price it)" };
    const c = costOf(pricing, it.model, it.tokens);
    if (!c.priced) return { unpriced: c.model };
    usd.push(c.usd);
    as = c.priced_as;
  }
  return { usd, priced_as: as };
}

/**
 * The estimate of one planned run from the best source available. The budget's admission control
 * calls this with the run's key; `usd` null means it cannot be priced (then only a token budget
 * can hold it back).
 */
export function estimateRun(spec: EstimateSpec): RunEstimate {
  const { run, pricing } = spec;
  const got = pickSamples(run, spec.samples);
  if (got) {
    const { picked } = got;
    const priced = priceAll(
      pricing,
      picked.map((s) => ({ model: s.billed_model ?? s.model ?? run.model, tokens: s.tokens })),
    );
    const reported = picked.map((s) => s.reported_usd);
    const usdRange = "usd" in priced ? rangeOf(priced.usd) : null;
    return {
      run,
      source: got.source,
      samples: picked.length,
      tokens: meanTokens(picked),
      total_tokens: rangeOf(picked.map((s) => totalOf(s.tokens))),
      seconds: rangeOf(picked.map((s) => s.seconds)),
      usd: usdRange?.mean ?? null,
      usd_range: usdRange,
      unpriced: "unpriced" in priced ? priced.unpriced : null,
      priced_as: "priced_as" in priced ? priced.priced_as : null,
      reported_usd: reported.every((x): x is number => x !== null) ? rangeOf(reported).mean : null,
    };
  }
  const t = spec.typical;
  if (!t)
    return {
      run,
      source: "none",
      samples: 0,
      tokens: ZERO,
      total_tokens: rangeOf([]),
      seconds: rangeOf([]),
      usd: null,
      usd_range: null,
      unpriced: `no earlier runs, no pilot and no default figure for agent ${run.agent}`,
      priced_as: null,
      reported_usd: null,
    };
  const tokens: TokenCounts = {
    input: t.input,
    output: t.output,
    cache_read: t.cache_read,
    cache_write: t.cache_write,
  };
  const spread = (x: number): Range => ({
    mean: x,
    min: x * DEFAULT_RANGE.low,
    max: x * DEFAULT_RANGE.high,
  });
  const priced = priceAll(pricing, [{ model: run.model, tokens }]);
  const usd = "usd" in priced ? (priced.usd[0] ?? 0) : null;
  return {
    run,
    source: "agent-default",
    samples: 0,
    tokens,
    total_tokens: spread(totalOf(tokens)),
    seconds: spread(t.seconds),
    usd,
    usd_range: usd === null ? null : spread(usd),
    unpriced: "unpriced" in priced ? priced.unpriced : null,
    priced_as: "priced_as" in priced ? priced.priced_as : null,
    reported_usd: null,
  };
}

/**
 * A trigger probe's default figure: one turn stopped once a Skill is chosen, within `maxTurns`
 * turns, against a `typicalRun` of about ten turns: that share of its tokens and seconds, the
 * seconds no more than the probe's timeout (docs/cost.md).
 */
export function probeFigure(t: TypicalRun, maxTurns: number, timeoutSec: number): TypicalRun {
  const share = Math.min(1, maxTurns / 10);
  return {
    input: t.input * share,
    output: t.output * share,
    cache_read: t.cache_read * share,
    cache_write: t.cache_write * share,
    seconds: Math.min(timeoutSec, t.seconds * share),
  };
}

/** The estimate of a whole plan: sums, the wall time at the concurrency, and the sources used. */
export interface PlanEstimate {
  readonly runs: number;
  readonly concurrency: number;
  readonly tokens: TokenCounts;
  readonly total_tokens: Range;
  /** Over the priced runs only; null when none is priced. */
  readonly usd: Range | null;
  readonly priced_runs: number;
  /** Runs left unpriced, by the reason (the model the table lacks). */
  readonly unpriced: readonly { readonly why: string; readonly runs: number }[];
  /** The agent's own figures from earlier runs, summed over the runs that have one. */
  readonly reported_usd: { readonly usd: number; readonly runs: number } | null;
  /** Wall time of the plan at `concurrency`: runs taken in plan order by the first free slot. */
  readonly seconds: Range;
  readonly sources: readonly { readonly source: EstimateSource; readonly runs: number }[];
}

/** How long `durations` take in plan order with `slots` at once (each to the first free slot). */
export function makespan(durations: readonly number[], slots: number): number {
  const free = new Array<number>(Math.max(1, Math.floor(slots))).fill(0);
  for (const d of durations) {
    let at = 0;
    for (let i = 1; i < free.length; i++) if ((free[i] ?? 0) < (free[at] ?? 0)) at = i;
    free[at] = (free[at] ?? 0) + d;
  }
  return Math.max(...free);
}

export function estimatePlan(
  runs: readonly RunEstimate[],
  concurrency: number,
  pricing: Pick<PricingTable, "version" | "file">,
): PlanEstimate & { readonly pricing: Pick<PricingTable, "version" | "file"> } {
  const sum = (f: (r: RunEstimate) => number): number => runs.reduce((a, r) => a + f(r), 0);
  const priced = runs.filter((r) => r.usd_range !== null);
  const why = new Map<string, number>();
  for (const r of runs)
    if (r.usd_range === null) {
      const k = r.unpriced ?? "unpriced";
      why.set(k, (why.get(k) ?? 0) + 1);
    }
  const sources = new Map<EstimateSource, number>();
  for (const r of runs) sources.set(r.source, (sources.get(r.source) ?? 0) + 1);
  const reported = runs.filter((r) => r.reported_usd !== null);
  return {
    runs: runs.length,
    concurrency,
    tokens: {
      input: sum((r) => r.tokens.input),
      output: sum((r) => r.tokens.output),
      cache_read: sum((r) => r.tokens.cache_read),
      cache_write: sum((r) => r.tokens.cache_write),
    },
    total_tokens: sumRanges(runs.map((r) => r.total_tokens)),
    usd: priced.length === 0 ? null : sumRanges(priced.flatMap((r) => r.usd_range ?? [])),
    priced_runs: priced.length,
    unpriced: [...why].map(([w, n]) => ({ why: w, runs: n })),
    reported_usd:
      reported.length === 0
        ? null
        : { usd: reported.reduce((a, r) => a + (r.reported_usd ?? 0), 0), runs: reported.length },
    seconds: {
      mean: makespan(
        runs.map((r) => r.seconds.mean),
        concurrency,
      ),
      min: makespan(
        runs.map((r) => r.seconds.min),
        concurrency,
      ),
      max: makespan(
        runs.map((r) => r.seconds.max),
        concurrency,
      ),
    },
    sources: (["history", "pilot", "agent-default", "none"] as const)
      .filter((s) => sources.has(s))
      .map((s) => ({ source: s, runs: sources.get(s) ?? 0 })),
    pricing,
  };
}
