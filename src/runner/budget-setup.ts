/**
 * The budgets of one `runSuite` (docs/budgets.md): set up from the flags, seeded with the spend of
 * the runs already recorded, and accounted for at the end (metadata.json `budget`).
 */
import { hasBudget, type BudgetLimits } from "../cost/budget.js";
import type { SuiteConfig } from "../suite/types.js";
import type { PricingTable } from "../cost/pricing.js";
import type { RunDigest } from "../core/digest.js";
import type { RunSpec } from "../plan/matrix.js";
import type { UsageSample } from "../cost/estimate.js";
import type { BudgetRecord } from "../store/metadata.js";
import type { StartModelServerOptions } from "../model/index.js";
import { createRunBudget, type JudgeSpend, type RunBudget } from "./budget.js";
import type { RunOptions } from "./run-options.js";

export interface BudgetSetup {
  runBudget: RunBudget;
  limits: BudgetLimits;
  /** Hand the admission the earlier runs' and the pilot's usage, once read (estimate-sources.ts). */
  useSamples(samples: readonly UsageSample[]): void;
  /** The scripted model's meter of each reply of a run's subject, simulated user or judge. */
  meterFor: NonNullable<StartModelServerOptions["meterFor"]>;
}

/**
 * The budget of this invocation, or undefined when none was asked for (nothing is metered then).
 * Under a queue it reads the shared counter's judge part first (what this invocation's judge
 * spend is counted from), before any of this invocation's runs can add to it.
 */
export async function setUpBudget(
  opts: RunOptions,
  cfg: SuiteConfig,
  recorded: readonly RunDigest[],
  /** metadata.json `budget.judge` of the earlier invocations (`--resume`). */
  earlierJudge: JudgeSpend | undefined,
  experimentId: string,
  /** The table the runs' costs are priced with (`--pricing FILE`, else the shipped one). */
  pricing: PricingTable,
  /** The model the runs are asked for (`--model`); null: the agent's default. */
  model: string | null,
): Promise<BudgetSetup | undefined> {
  const limits = budgetLimits(opts, cfg);
  if (!hasBudget(limits)) return undefined;
  let samples: readonly UsageSample[] = [];
  const shared = opts.queue?.sharedSpend?.(experimentId);
  const runBudget = createRunBudget({
    limits,
    pricing,
    samples: () => samples,
    model,
    shared,
    sharedJudgeAtStart: shared ? await shared.readJudge() : undefined,
  });
  runBudget.seed(
    recorded.flatMap((r) =>
      r.metered
        ? [{ task: r.task, spend: { tokens: r.metered.tokens, usd: r.metered.usd, unpriced: [] } }]
        : [],
    ),
    earlierJudge,
  );
  return {
    runBudget,
    limits,
    useSamples: (s) => {
      samples = s;
    },
    meterFor: (run) => {
      if (run.task === null || run.treatment === null) return null;
      const key = { task: run.task, treatment: run.treatment, rep: run.rep, agent: run.agent };
      // The judge's replies count as the judge's spend, never the run's (docs/budgets.md).
      return run.role === "judge" ? runBudget.judgeResponseFor(key) : runBudget.responseFor(key);
    },
  };
}

/** The limits: each flag, else its skillbench.yaml key, else none. */
export function budgetLimits(opts: RunOptions, cfg: SuiteConfig): BudgetLimits {
  return {
    usd: opts.budget?.usd ?? cfg.budget_usd ?? null,
    tokens: opts.budget?.tokens ?? cfg.budget_tokens ?? null,
    runUsd: opts.budget?.runUsd ?? cfg.max_run_usd ?? null,
  };
}

/**
 * metadata.json `budget`: the limits, what the recorded runs metered (this invocation's and the
 * earlier ones'), why runs stopped starting, the runs left unrun and the runs a budget stopped,
 * and the judge's spend (the earlier invocations' and this one's, every worker's).
 */
export async function budgetRecord(
  b: RunBudget,
  limits: BudgetLimits,
  opts: RunOptions,
  reports: readonly RunDigest[],
  incomplete: readonly RunSpec[],
): Promise<BudgetRecord> {
  let usd = 0;
  let tokens = 0;
  for (const r of reports) {
    usd += r.metered?.usd ?? 0;
    tokens += r.metered?.total_tokens ?? 0;
  }
  // A coordinator admits no run itself: its workers refuse the runs the shared budget cannot
  // cover (their jobs fail as "unrun (budget)"), which it sees as runs left without a record.
  const refused =
    b.refusal() ??
    (opts.queue?.dispatch && incomplete.length > 0
      ? "the workers started no more runs: the experiment's budget, shared by every worker, could not cover them"
      : null);
  const judge = await b.judgeSpend();
  return {
    usd: limits.usd,
    tokens: limits.tokens,
    max_run_usd: limits.runUsd,
    spent_usd: usd,
    spent_tokens: tokens,
    refused,
    unrun: refused === null ? [] : incomplete.map((r) => r.run_id),
    stopped: reports.filter((r) => r.outcome === "budget").map((r) => r.run_id),
    // Only when the judge was asked: the records of experiments without a judge stay as they were.
    ...(judge.calls + judge.refused > 0 ? { judge } : {}),
  };
}
