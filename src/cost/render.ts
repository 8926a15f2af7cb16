/**
 * The estimate as `--dry-run` and a run's start-up line print it (docs/cost.md). Pure.
 */
import type { EstimateSource, PlanEstimate, Range, RunEstimate } from "./estimate.js";
import type { PricingTable } from "./pricing.js";
import { dollars, textTableLines } from "../util/format.js";

const int = (n: number): string => Math.round(n).toLocaleString("en-US");

function usdText(x: number): string {
  return x < 1
    ? dollars(x)
    : `$${x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function secondsText(s: number): string {
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s - m * 60)).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

function span(r: Range, f: (x: number) => string): string {
  return r.min === r.max ? f(r.mean) : `${f(r.mean)} (range ${f(r.min)}–${f(r.max)})`;
}

const SOURCE_WORDS: Record<EstimateSource, string> = {
  history: "earlier runs of the same task, treatment, agent and model",
  pilot: "this experiment's pilot runs",
  "agent-default": "the agent's default figure (an order of magnitude, range ×0.5–×2)",
  none: "nothing to go on",
};

/** Where each figure came from, for the source line. */
function sourceWords(s: EstimateSource): string {
  return SOURCE_WORDS[s];
}

export interface EstimateTextOptions {
  /** The runs are played by the scripted model: its tokens are the script's, its cost not real. */
  scripted: boolean;
  /** The results folders the history came from. */
  from: readonly string[];
  /** What the runs are called ("runs", "probes"). */
  noun?: string | undefined;
}

/** The block printed under `--dry-run`'s matrix. */
export function renderEstimate(
  e: PlanEstimate & { readonly pricing: Pick<PricingTable, "version" | "file"> },
  per: readonly RunEstimate[],
  o: EstimateTextOptions,
): string {
  const lines: string[] = [];
  lines.push(`Estimate (${e.runs} ${o.noun ?? "runs"}, -j ${e.concurrency}):`);
  lines.push(
    `  tokens  input ${int(e.tokens.input)} · output ${int(e.tokens.output)} · cache read ${int(e.tokens.cache_read)} · cache write ${int(e.tokens.cache_write)} · total ${span(e.total_tokens, int)}`,
  );
  lines.push(`  cost    ${costText(e)}`);
  lines.push(`  wall    ${span(e.seconds, secondsText)} at -j ${e.concurrency}`);
  for (const s of e.sources)
    lines.push(
      `  source  ${s.runs} run(s): ${sourceWords(s.source)}${s.source === "history" && o.from.length > 0 ? ` (${o.from.join(", ")})` : ""}`,
    );
  if (o.scripted)
    lines.push("  scripted model (offline): the tokens are the script's and the cost is not real");
  if (per.length === 0) return `${lines.join("\n")}\n`;
  const rows = perKey(per).map(([k, r]) => [
    k,
    r.source,
    String(r.samples),
    int(r.total_tokens.mean),
    r.usd === null ? "unpriced" : usdText(r.usd),
    secondsText(r.seconds.mean),
  ]);
  lines.push("");
  lines.push(table(["RUNS OF", "SOURCE", "SAMPLES", "TOKENS/RUN", "COST/RUN", "WALL/RUN"], rows));
  return `${lines.join("\n")}\n`;
}

/** The cost part of the estimate, in one line. */
export function costText(
  e: Pick<PlanEstimate, "usd" | "priced_runs" | "unpriced" | "reported_usd" | "runs"> & {
    readonly pricing: Pick<PricingTable, "version" | "file">;
  },
): string {
  const parts: string[] = [];
  if (e.usd)
    parts.push(
      `${span(e.usd, usdText)}${e.priced_runs < e.runs ? ` for ${e.priced_runs} priced run(s)` : ""}, pricing table ${e.pricing.version} (${e.pricing.file})`,
    );
  for (const u of e.unpriced)
    parts.push(`${u.runs} run(s) unpriced: ${u.why} is not in the pricing table ${e.pricing.file}`);
  if (e.reported_usd && e.usd === null)
    parts.push(
      `the agent itself reported ${usdText(e.reported_usd.usd)} for ${e.reported_usd.runs} such run(s) before`,
    );
  return parts.join("; ");
}

/** One line for a run's start: the whole estimate in brief. */
export function estimateLine(e: PlanEstimate, o: EstimateTextOptions): string {
  const cost = e.usd
    ? `${usdText(e.usd.mean)} (${usdText(e.usd.min)}–${usdText(e.usd.max)})${e.priced_runs < e.runs ? ` + ${e.runs - e.priced_runs} unpriced run(s)` : ""}`
    : "unpriced";
  const src = e.sources.map((s) => `${s.runs} from ${s.source}`).join(", ");
  return o.scripted
    ? `estimate: ${int(e.total_tokens.mean)} tokens, ~${secondsText(e.seconds.mean)} at -j ${e.concurrency} (${src}); scripted model (offline): the cost is not real`
    : `estimate: ${int(e.total_tokens.mean)} tokens, ${cost}, ~${secondsText(e.seconds.mean)} at -j ${e.concurrency} (${src})`;
}

/** One row per task, treatment (and agent, when the plan has several): their runs' estimate is one. */
function perKey(per: readonly RunEstimate[]): [string, RunEstimate][] {
  const seen = new Map<string, RunEstimate>();
  const agents = new Set(per.map((r) => r.run.agent)).size > 1;
  for (const r of per) {
    const k = `${r.run.task}/${r.run.treatment}${agents ? `@${r.run.agent}` : ""}`;
    if (!seen.has(k)) seen.set(k, r);
  }
  return [...seen];
}

/** The per-run table, indented under the estimate's heading. */
function table(head: string[], rows: string[][]): string {
  return textTableLines(head, rows)
    .map((l) => `  ${l}`)
    .join("\n");
}
