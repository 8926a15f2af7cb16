import type { RunDigest } from "../../core/digest.js";
import { meanOf, sumOf } from "../format.js";
import type { RuntimeRow, SpendRow } from "./types.js";

/** A treatment's analysis-set runs' transcript summaries (each run's read once for both rows). */
type Summaries = ReadonlyArray<RunDigest["events_summary"]>;

/** Tokens and cost of a treatment's analysis-set runs. */
export function spendRow(es: Summaries, treatment: string): SpendRow {
  const tokens = es.map((e) => e?.total_tokens);
  const cost = es.map((e) => e?.total_cost_usd);
  return {
    treatment,
    runs: es.length,
    tokens: sumOf(tokens),
    cost_usd: sumOf(cost),
    avg_tokens: meanOf(tokens),
    avg_cost_usd: meanOf(cost),
  };
}

/** Turns, agent-reported duration and tool calls of a treatment's analysis-set runs. */
export function runtimeRow(es: Summaries, treatment: string): RuntimeRow {
  const turns = es.map((e) => e?.num_turns);
  const dur = es.map((e) => e?.duration_seconds);
  const tools = es.map((e) => e?.tool_calls);
  return {
    treatment,
    runs: es.length,
    turns: sumOf(turns),
    duration_seconds: sumOf(dur),
    tool_calls: sumOf(tools),
    avg_turns: meanOf(turns),
    avg_duration_seconds: meanOf(dur),
    avg_tool_calls: meanOf(tools),
  };
}
