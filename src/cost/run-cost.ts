/**
 * A run's cost where its agent reported none (docs/cost.md): its tokens priced from the pricing
 * table, under the model the agent billed (its usage's one model), else the run's model. Marked
 * as the table's (`cost_source`, `cost_priced_as`), so a report never passes it off as the agent's.
 * Pure.
 */
import type { EventsSummary } from "../core/report.js";
import { costOf, type PricingTable } from "./pricing.js";

export function withTableCost(
  es: EventsSummary,
  pricing: PricingTable | null | undefined,
  model: string | null,
): EventsSummary {
  if (!pricing || es.total_cost_usd !== null) return es;
  const tokens = {
    input: es.input_tokens,
    output: es.output_tokens,
    cache_read: es.cache_read_input_tokens,
    cache_write: es.cache_creation_input_tokens,
  };
  if (Object.values(tokens).every((t) => t === null)) return es;
  const billed = Object.keys(es.model_usage);
  const name = billed.length === 1 ? (billed[0] ?? model) : model;
  if (name === null) return es;
  const c = costOf(pricing, name, {
    input: tokens.input ?? 0,
    output: tokens.output ?? 0,
    cache_read: tokens.cache_read ?? 0,
    cache_write: tokens.cache_write ?? 0,
  });
  if (!c.priced) return es;
  return {
    ...es,
    total_cost_usd: c.usd,
    cost_source: "pricing_table",
    cost_priced_as: `${c.priced_as} (pricing table ${pricing.version})`,
  };
}
