/**
 * Budgets (docs/budgets.md): what the experiment may spend (`--budget-usd`, `--budget-tokens`)
 * and one run (`--max-run-usd`), and the ledger that holds them: every metered usage delta of a
 * run is priced with the pricing table by the model its response names and added to the run and
 * the experiment; a run that crosses its cap, or the experiment's budget, is to be stopped; a run
 * is started only when the remaining budget covers its estimate. Pure: no I/O, no clock (the
 * queue's shared counter is injected by its caller).
 */
import { costOf, type PricingTable, type TokenCounts } from "./pricing.js";
import { addTokens, NO_TOKENS, tokenTotal, type UsageDelta } from "./meter.js";

export interface BudgetLimits {
  /** `--budget-usd`: the experiment's dollars. */
  readonly usd: number | null;
  /** `--budget-tokens`: the experiment's tokens, every kind together. */
  readonly tokens: number | null;
  /** `--max-run-usd`: one run's dollars. */
  readonly runUsd: number | null;
}

export const hasBudget = (l: BudgetLimits): boolean =>
  l.usd !== null || l.tokens !== null || l.runUsd !== null;

/** Why a run was stopped (report.json `metered.stop.cause`). */
export type BudgetCause = "run_usd" | "budget_usd" | "budget_tokens" | "unpriced";

export interface BudgetStop {
  readonly cause: BudgetCause;
  readonly detail: string;
}

/** A run's metered usage (report.json `metered`). */
export interface RunSpend {
  tokens: TokenCounts;
  /** Dollars of the priced part. */
  usd: number;
  /** Models the table does not price (their tokens are counted, not their dollars). */
  unpriced: string[];
}

/** What a run is expected to cost (the estimate; null: nothing known). */
export interface RunEstimateFigures {
  readonly usd: number | null;
  readonly tokens: number | null;
}

/** The experiment's spend so far, as every process sharing it sees it. */
export interface Spent {
  usd: number;
  tokens: number;
}

const usd = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;

export interface BudgetLedger {
  readonly limits: BudgetLimits;
  /**
   * Whether a run with `estimate` may start: null when it may (its estimate is then held back
   * from the remaining budget until it ends), else why not.
   */
  admit(runId: string, estimate: RunEstimateFigures): string | null;
  /** A metered delta of the run: its stop, when this delta takes it (or the experiment) over. */
  record(runId: string, delta: UsageDelta): BudgetStop | null;
  /** The run ended: its estimate is no longer held back. Returns what it spent. */
  finish(runId: string): RunSpend;
  /** What a run has spent so far. */
  spendOf(runId: string): RunSpend;
  /** The experiment's spend (this process's, plus what `shared` last reported from others). */
  spent(): Spent;
  /** Fold in the experiment's spend as a shared counter reports it (the queue's workers). */
  observe(total: Spent): void;
  /**
   * What the budget has left (each figure 0 and not `…Limited` without that limit), less what the runs under way other than
   * `except` are still expected to spend. The judge's admission (runner/budget.ts): a judged
   * run's agent is done, so its own held estimate no longer stands for spend to come.
   */
  left(except: string): Spent & { usdLimited: boolean; tokensLimited: boolean };
}

/**
 * The ledger of one experiment (or one queue worker's share of it). An unpriced model under a
 * dollar budget or cap stops its run (cause `unpriced`): a dollar budget that cannot price what
 * it is spent on would not hold, and the table never guesses a price.
 */
export function createBudgetLedger(limits: BudgetLimits, pricing: PricingTable): BudgetLedger {
  const runs = new Map<string, RunSpend>();
  const held = new Map<string, RunEstimateFigures>();
  let local: Spent = { usd: 0, tokens: 0 };
  // What a shared counter said the whole experiment had spent, less this process's part then.
  let others: Spent = { usd: 0, tokens: 0 };
  const dollarLimited = limits.usd !== null || limits.runUsd !== null;
  const spendOf = (runId: string): RunSpend => {
    let s = runs.get(runId);
    if (!s) {
      s = { tokens: { ...NO_TOKENS }, usd: 0, unpriced: [] };
      runs.set(runId, s);
    }
    return s;
  };
  const spent = (): Spent => ({
    usd: local.usd + others.usd,
    tokens: local.tokens + others.tokens,
  });
  // What the runs under way (but `except`) are still expected to spend.
  const heldBack = (except: string | null): Spent => {
    let heldUsd = 0;
    let heldTokens = 0;
    for (const [id, e] of held) {
      if (id === except) continue;
      const s = runs.get(id);
      heldUsd += Math.max(0, (e.usd ?? 0) - (s?.usd ?? 0));
      heldTokens += Math.max(0, (e.tokens ?? 0) - (s ? tokenTotal(s.tokens) : 0));
    }
    return { usd: heldUsd, tokens: heldTokens };
  };
  return {
    limits,
    admit(runId, estimate) {
      const now = spent();
      const { usd: heldUsd, tokens: heldTokens } = heldBack(null);
      if (limits.usd !== null) {
        const left = limits.usd - now.usd - heldUsd;
        const need = estimate.usd ?? 0;
        if (left <= 0 || need > left)
          return `the budget of ${usd(limits.usd)} has ${usd(Math.max(0, left))} left${heldUsd > 0 ? " beside the runs under way" : ""}, the run is estimated at ${usd(need)}`;
      }
      if (limits.tokens !== null) {
        const left = limits.tokens - now.tokens - heldTokens;
        const need = estimate.tokens ?? 0;
        if (left <= 0 || need > left)
          return `the budget of ${limits.tokens} tokens has ${Math.max(0, left)} left${heldTokens > 0 ? " beside the runs under way" : ""}, the run is estimated at ${need}`;
      }
      held.set(runId, estimate);
      return null;
    },
    record(runId, delta) {
      const s = spendOf(runId);
      s.tokens = addTokens(s.tokens, delta.tokens);
      const n = tokenTotal(delta.tokens);
      local = { usd: local.usd, tokens: local.tokens + n };
      const model = delta.model ?? "(no model named)";
      const priced = costOf(pricing, model, delta.tokens);
      if (priced.priced) {
        s.usd += priced.usd;
        local = { usd: local.usd + priced.usd, tokens: local.tokens };
      } else if (!s.unpriced.includes(model)) s.unpriced.push(model);
      const now = spent();
      if (!priced.priced && dollarLimited && n > 0)
        return {
          cause: "unpriced",
          detail: `model ${model} is not in the pricing table ${pricing.file}: a dollar budget cannot count it`,
        };
      if (limits.runUsd !== null && s.usd > limits.runUsd)
        return {
          cause: "run_usd",
          detail: `the run spent ${usd(s.usd)}, over its cap of ${usd(limits.runUsd)} (--max-run-usd)`,
        };
      if (limits.usd !== null && now.usd > limits.usd)
        return {
          cause: "budget_usd",
          detail: `the experiment spent ${usd(now.usd)}, over its budget of ${usd(limits.usd)} (--budget-usd)`,
        };
      if (limits.tokens !== null && now.tokens > limits.tokens)
        return {
          cause: "budget_tokens",
          detail: `the experiment spent ${now.tokens} tokens, over its budget of ${limits.tokens} (--budget-tokens)`,
        };
      return null;
    },
    finish(runId) {
      held.delete(runId);
      return spendOf(runId);
    },
    spendOf,
    spent,
    left(except) {
      const now = spent();
      const h = heldBack(except);
      return {
        usd: limits.usd === null ? 0 : limits.usd - now.usd - h.usd,
        tokens: limits.tokens === null ? 0 : limits.tokens - now.tokens - h.tokens,
        usdLimited: limits.usd !== null,
        tokensLimited: limits.tokens !== null,
      };
    },
    observe(total) {
      others = {
        usd: Math.max(0, total.usd - local.usd),
        tokens: Math.max(0, total.tokens - local.tokens),
      };
    },
  };
}

/** What the budget has left for a judge call (BudgetLedger.left). */
export type BudgetLeft = ReturnType<BudgetLedger["left"]>;

/**
 * Whether a judge call may start (null), else why not (docs/budgets.md, "The judge"): what is
 * left must cover the call's estimate, the largest judge call this experiment has metered (0
 * before the first: nothing known is held back, as for a run).
 */
export function judgeCallRefusal(left: BudgetLeft, estimate: Spent): string | null {
  if (left.usdLimited && (left.usd <= 0 || estimate.usd > left.usd))
    return `the budget has ${usd(Math.max(0, left.usd))} left, the judge call is estimated at ${usd(estimate.usd)}`;
  if (left.tokensLimited && (left.tokens <= 0 || estimate.tokens > left.tokens))
    return `the budget has ${Math.max(0, left.tokens)} tokens left, the judge call is estimated at ${estimate.tokens}`;
  return null;
}
