/**
 * What a trigger evaluation spends (docs/triggers.md, "Budget"): the same metering and ledger as a
 * run's (runner/budget.ts over cost/budget.ts): every reply of the model to a probe, or to the
 * optimiser's proposer, is counted by the meter as it is written (the scripted model in this
 * process) or as it passes the sandbox's relay or tap, priced with the pricing table, and added
 * to the evaluation's spend. Under `--budget-usd` a probe (or a proposal) starts only while the
 * remaining budget covers its estimate, and no longer once a call went over it (or, under a dollar
 * budget, spent on a model the pricing table does not price); the first refusal stops every later
 * start. A probe under way is not stopped (it is one or two model calls).
 */
import type { BudgetLimits } from "../cost/budget.js";
import type { PricingTable } from "../cost/pricing.js";
import { createRunBudget, type RunBudget } from "../runner/budget.js";
import type { StartModelServerOptions } from "../model/index.js";
import type { ConnectionMeter } from "../sandbox/relay.js";

/** One metered call: a probe (task = query id, treatment = variant) or a proposal. */
export interface MeteredKey {
  id: string;
  task: string;
  treatment: string;
  rep: number;
}

export interface TriggerBudget {
  readonly limits: BudgetLimits;
  /** The scripted model's meter of each reply (keyed as the probes' endpoints are). */
  meterFor: NonNullable<StartModelServerOptions["meterFor"]>;
  /**
   * Run `fn` metered: null and `refused` when the budget cannot cover its estimate, else its
   * value and what it spent. `meter` goes to the sandbox (its relay or tap meters a live endpoint).
   */
  metered<T>(
    key: MeteredKey,
    fn: (meter: ConnectionMeter) => Promise<T>,
  ): Promise<{ value: T; usd: number } | { refused: string }>;
  /** Why starts stopped, once they did. */
  refusal(): string | null;
}

export function triggerBudget(
  usd: number | null,
  pricing: PricingTable,
  /** The probes' agent (its driver's name): the admission's estimate is per agent. */
  agent: string,
): TriggerBudget {
  const limits: BudgetLimits = { usd, tokens: null, runUsd: null };
  const b: RunBudget = createRunBudget({ limits, pricing });
  let over: string | null = null;
  return {
    limits,
    meterFor: (run) =>
      run.task === null || run.treatment === null
        ? null
        : b.responseFor({ task: run.task, treatment: run.treatment, rep: run.rep }),
    async metered(key, fn) {
      if (over !== null) return { refused: over };
      const run = { run_id: key.id, task: key.task, treatment: key.treatment, agent };
      const why = await b.admit(run);
      if (why !== null) return { refused: why };
      const m = b.open(run, { task: key.task, treatment: key.treatment, rep: key.rep });
      try {
        const value = await fn(() => m.connection());
        return { value, usd: m.close(true).usd };
      } catch (e) {
        m.close(true);
        throw e;
      } finally {
        // A call that went over the budget (or spent on a model the table cannot price, under a
        // dollar budget) ends the starts: its own answer stands.
        over ??= m.stopped()?.detail ?? null;
      }
    },
    refusal: () => over ?? b.refusal(),
  };
}
