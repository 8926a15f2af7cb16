/**
 * The budgets of one experiment at run time (docs/budgets.md): the ledger (cost/budget.ts) fed
 * by the meters on each run's model traffic (cost/meter.ts: the sandbox relay, `local`'s tap,
 * the scripted model server in this process, a queue worker's model tap), the admission of a run
 * against its estimate, and the stop of a run that goes over (its agent is killed through the
 * run's own signal, as a timeout ends it, and the run is recorded `budget`).
 */
import {
  judgeCallRefusal,
  createBudgetLedger,
  type BudgetLedger,
  type BudgetLimits,
  type BudgetStop,
  type RunSpend,
  type Spent,
} from "../cost/budget.js";
import { createBodyMeter, createHttpMeter, tokenTotal, type HttpMeter } from "../cost/meter.js";
import type { PricingTable } from "../cost/pricing.js";
import type { Metered } from "../core/report.js";
import type { UsageSample } from "../cost/estimate.js";
import type { JudgeBudget } from "../judge/types.js";
import type { BudgetRecord } from "../store/metadata.js";
import { admissionEstimate, type AdmissionEstimate, type AdmitRun } from "./budget-estimate.js";

/** The metering of one run while it is under way. */
export interface RunMeter {
  /** Aborted when the run goes over a budget: its agent is killed. */
  readonly signal: AbortSignal;
  /** A meter for the bytes the endpoint sends back on one connection of the run's relay or tap. */
  connection(): HttpMeter;
  /** Why the run was stopped, if it was. */
  stopped(): BudgetStop | null;
  /**
   * The run is over: what it spent. `ran`: its agent started (only then does its spend inform the
   * estimate of the runs of its task).
   */
  close(ran: boolean): RunSpend;
}

/** The judge's spend (metadata.json `budget.judge`). */
export type JudgeSpend = NonNullable<BudgetRecord["judge"]>;

/** The experiment's total as a counter shared by several processes reports it (the queue). */
export interface SharedSpend {
  /** Add this process's spend and answer the experiment's total. */
  add(delta: Spent): Promise<Spent>;
  read(): Promise<Spent>;
  /**
   * Add this process's judge spend: its dollars and tokens to the experiment's total (as `add`)
   * and to the judge's part of it, with the calls sent and refused and the unpriced models.
   * Answers the experiment's total.
   */
  addJudge(delta: JudgeSpend): Promise<Spent>;
  /** The judge's part of the experiment's spend, every process's. */
  readJudge(): Promise<JudgeSpend>;
}

export interface RunBudget {
  readonly ledger: BudgetLedger;
  readonly pricing: PricingTable;
  /** Aborted once a run was refused: no further run is started (the rest stay unrun). */
  readonly exhausted: AbortSignal;
  /** Why the runs stopped starting (the first refusal), if they did. */
  refusal(): string | null;
  /** Whether the run may start (null), else why not; a refusal stops the admission of runs. */
  admit(run: AdmitRun): Promise<string | null>;
  open(run: { run_id: string; task: string }, key: RunKey): RunMeter;
  /**
   * Runs recorded before this invocation (`--resume`): their metered spend counts against the
   * experiment's budget and informs the estimates of their tasks; so does the judge's spend of
   * the earlier invocations (their metadata.json `budget.judge`), which `judgeSpend` then includes.
   */
  seed(runs: readonly { task: string; spend: RunSpend }[], judge?: JudgeSpend): void;
  /** A body meter for one response of the run `key` names, when that run is metered (the scripted server). */
  responseFor(key: RunKey): { push(chunk: Uint8Array | string): void; end(): void } | null;
  /**
   * The judge of one run under the budget (docs/budgets.md, "The judge"): its calls admitted and
   * counted as the judge's own spend (never the run's `metered`); `close` once it is done.
   */
  judgeFor(run: { run_id: string }, key: RunKey): JudgeBudget & { close(): void };
  /** A body meter for one judge reply of the run `key` names, while its judge is under way. */
  judgeResponseFor(key: RunKey): { push(chunk: Uint8Array | string): void; end(): void } | null;
  /**
   * The judge's spend of the experiment (metadata.json `budget.judge`): the earlier invocations'
   * (`seed`) and this one's, every process's when the spend is shared (the queue's workers). Waits
   * for this process's judge spend to reach the shared counter first.
   */
  judgeSpend(): Promise<JudgeSpend>;
}

/** Which run a meter is for (context.ts `RunKey`, which imports this file's types). */
type RunKey = { task: string; treatment: string; rep: number; agent?: string | undefined };

const keyOf = (k: {
  task: string | null;
  treatment: string | null;
  rep: number;
  agent?: string | undefined;
}): string => [k.task ?? "", k.treatment ?? "", k.agent ?? "", String(k.rep)].join("\u0000");

export function createRunBudget(o: {
  limits: BudgetLimits;
  pricing: PricingTable;
  /** Earlier runs' and the pilot's usage (runner/estimate-sources.ts), asked at each admission. */
  samples?: (() => readonly UsageSample[]) | undefined;
  /** The model the runs are asked for (`--model`); null: the agent's default. */
  model?: string | null | undefined;
  /** Replaces the estimate of runner/budget-estimate.ts (tests). */
  estimate?: AdmissionEstimate | null | undefined;
  shared?: SharedSpend | undefined;
  /**
   * The shared counter's judge part when this invocation began (`readJudge`): what it gains
   * after is this invocation's, whatever an earlier one of the experiment left in it.
   */
  sharedJudgeAtStart?: JudgeSpend | undefined;
}): RunBudget {
  const ledger = createBudgetLedger(o.limits, o.pricing);
  const finished = new Map<string, RunSpend[]>();
  const estimate =
    o.estimate ??
    admissionEstimate({
      finished,
      runUsd: o.limits.runUsd,
      samples: o.samples ?? (() => []),
      model: o.model ?? null,
      pricing: o.pricing,
    });
  const open = new Map<string, { add: (d: Parameters<BudgetLedger["record"]>[1]) => void }>();
  const exhausted = new AbortController();
  let refused: string | null = null;
  // The judge's calls: each recorded in the ledger under its run's judge id, so they count
  // against the experiment's budget but never in the run's own spend (its `metered`).
  const judgeOpen = new Map<string, (d: Parameters<BudgetLedger["record"]>[1]) => void>();
  const judge = { calls: 0, refused: 0, usd: 0, tokens: 0, unpriced: [] as string[] };
  // The earlier invocations' judge spend (`seed`), apart: with a shared counter this
  // invocation's is read back from it.
  let judgeSeed: JudgeSpend = NO_JUDGE;
  let largestCall: Spent = { usd: 0, tokens: 0 };
  // This process's judge spend on its way to the shared counter (`judgeSpend` waits for it).
  const pending = new Set<Promise<unknown>>();
  const toShared = (delta: JudgeSpend): void => {
    if (!o.shared) return;
    const p = o.shared.addJudge(delta).then(
      (total) => ledger.observe(total),
      () => undefined,
    );
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  return {
    ledger,
    pricing: o.pricing,
    exhausted: exhausted.signal,
    refusal: () => refused,
    async admit(run) {
      if (refused !== null) return refused;
      if (o.shared) ledger.observe(await o.shared.read());
      const figures = estimate(run);
      const why = ledger.admit(run.run_id, figures);
      if (why !== null) {
        // Said with where the estimate came from, so the refusal can be judged.
        refused = `${why} (${figures.why})`;
        exhausted.abort();
      }
      return why === null ? null : refused;
    },
    open(run, key) {
      const stop = new AbortController();
      let reason: BudgetStop | null = null;
      const halt = (s: BudgetStop): void => {
        if (reason !== null) return;
        reason = s;
        stop.abort();
      };
      const add = (d: Parameters<BudgetLedger["record"]>[1]): void => {
        const before = ledger.spendOf(run.run_id).usd;
        const s = ledger.record(run.run_id, d);
        if (s) halt(s);
        if (!o.shared) return;
        const delta = {
          usd: ledger.spendOf(run.run_id).usd - before,
          tokens: tokenTotal(d.tokens),
        };
        void o.shared.add(delta).then(
          (total) => {
            ledger.observe(total);
            const now = ledger.spent();
            const l = o.limits;
            if (l.usd !== null && now.usd > l.usd)
              halt({
                cause: "budget_usd",
                detail: `the experiment spent $${now.usd.toFixed(4)} across its workers, over its budget of $${l.usd} (--budget-usd)`,
              });
            else if (l.tokens !== null && now.tokens > l.tokens)
              halt({
                cause: "budget_tokens",
                detail: `the experiment spent ${now.tokens} tokens across its workers, over its budget of ${l.tokens} (--budget-tokens)`,
              });
          },
          () => undefined,
        );
      };
      const k = keyOf(key);
      open.set(k, { add });
      return {
        signal: stop.signal,
        connection: () => createHttpMeter(add),
        stopped: () => reason,
        close(ran) {
          open.delete(k);
          const spend = ledger.finish(run.run_id);
          if (!ran) return spend;
          const list = finished.get(run.task) ?? [];
          list.push(spend);
          finished.set(run.task, list);
          return spend;
        },
      };
    },
    seed(runs, earlierJudge) {
      let total: Spent = { usd: 0, tokens: 0 };
      for (const r of runs) {
        const list = finished.get(r.task) ?? [];
        list.push(r.spend);
        finished.set(r.task, list);
        total = { usd: total.usd + r.spend.usd, tokens: total.tokens + tokenTotal(r.spend.tokens) };
      }
      if (earlierJudge) {
        judgeSeed = { ...earlierJudge, unpriced: [...earlierJudge.unpriced] };
        total = { usd: total.usd + judgeSeed.usd, tokens: total.tokens + judgeSeed.tokens };
      }
      ledger.observe(total);
    },
    responseFor(key) {
      const m = open.get(keyOf(key));
      return m ? createBodyMeter(m.add) : null;
    },
    judgeFor(run, key) {
      const id = `judge\u0000${run.run_id}`;
      const k = keyOf(key);
      // Whether the scripted server metered the call under way (else its reported usage counts).
      let metered = false;
      let before: Spent = { usd: 0, tokens: 0 };
      const record = (d: Parameters<BudgetLedger["record"]>[1]): void => {
        const s = ledger.spendOf(id);
        const was = { usd: s.usd, tokens: tokenTotal(s.tokens) };
        // A judge call is not stopped half way (its run's agent is done): what it spends is
        // counted, and the next call (of any run) is refused once nothing is left.
        ledger.record(id, d);
        const delta = { usd: s.usd - was.usd, tokens: tokenTotal(s.tokens) - was.tokens };
        judge.usd += delta.usd;
        judge.tokens += delta.tokens;
        for (const m of s.unpriced) if (!judge.unpriced.includes(m)) judge.unpriced.push(m);
        toShared({ calls: 0, refused: 0, ...delta, unpriced: [...s.unpriced] });
      };
      judgeOpen.set(k, (d) => {
        metered = true;
        record(d);
      });
      const spentNow = (): Spent => {
        const s = ledger.spendOf(id);
        return { usd: s.usd, tokens: tokenTotal(s.tokens) };
      };
      return {
        async admit() {
          // What the other workers spent, judge calls included, as the shared counter has it. A
          // counter that cannot be read refuses the call: a budget it cannot see is not held.
          if (o.shared) {
            const total = await o.shared.read().then(
              (t) => t,
              (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
            );
            if (total instanceof Error) {
              judge.refused += 1;
              return `the experiment's shared budget could not be read: ${total.message}`;
            }
            ledger.observe(total);
          }
          const why = judgeCallRefusal(ledger.left(run.run_id), largestCall);
          if (why !== null) {
            judge.refused += 1;
            toShared({ calls: 0, refused: 1, usd: 0, tokens: 0, unpriced: [] });
            return why;
          }
          judge.calls += 1;
          toShared({ calls: 1, refused: 0, usd: 0, tokens: 0, unpriced: [] });
          metered = false;
          before = spentNow();
          return null;
        },
        replied(model, tokens) {
          if (!metered && tokens !== null)
            record({
              model,
              tokens: { input: tokens.input, output: tokens.output, cache_read: 0, cache_write: 0 },
            });
          const now = spentNow();
          largestCall = {
            usd: Math.max(largestCall.usd, now.usd - before.usd),
            tokens: Math.max(largestCall.tokens, now.tokens - before.tokens),
          };
        },
        close() {
          judgeOpen.delete(k);
        },
      };
    },
    judgeResponseFor(key) {
      const add = judgeOpen.get(keyOf(key));
      return add ? createBodyMeter(add) : null;
    },
    async judgeSpend() {
      if (!o.shared) return addJudgeSpend(judgeSeed, judge);
      while (pending.size > 0) await Promise.all([...pending]);
      const now = await o.shared.readJudge().catch(() => null);
      // The counter unread: this process's own count, at least not lost.
      if (now === null) return addJudgeSpend(judgeSeed, judge);
      const s = o.sharedJudgeAtStart ?? NO_JUDGE;
      const since: JudgeSpend = {
        calls: Math.max(0, now.calls - s.calls),
        refused: Math.max(0, now.refused - s.refused),
        usd: Math.max(0, now.usd - s.usd),
        tokens: Math.max(0, now.tokens - s.tokens),
        unpriced: now.unpriced,
      };
      // Each figure is spend that happened: the earlier invocations' plus what the counter gained
      // during this one; or all the counter holds, which also has the calls of the jobs that went
      // on while no coordinator followed (stopped, then `--resume --queue`). The larger of the two.
      const a = addJudgeSpend(judgeSeed, since);
      return {
        calls: Math.max(a.calls, now.calls),
        refused: Math.max(a.refused, now.refused),
        usd: Math.max(a.usd, now.usd),
        tokens: Math.max(a.tokens, now.tokens),
        unpriced: a.unpriced,
      };
    },
  };
}

const NO_JUDGE: JudgeSpend = { calls: 0, refused: 0, usd: 0, tokens: 0, unpriced: [] };

function addJudgeSpend(a: JudgeSpend, b: JudgeSpend): JudgeSpend {
  return {
    calls: a.calls + b.calls,
    refused: a.refused + b.refused,
    usd: a.usd + b.usd,
    tokens: a.tokens + b.tokens,
    unpriced: [...new Set([...a.unpriced, ...b.unpriced])],
  };
}

/** report.json `metered`: what the harness counted for the run, and its budget stop. */
export function meteredRecord(
  spend: RunSpend,
  stop: BudgetStop | null,
  pricingVersion: string,
): Metered {
  return {
    tokens: { ...spend.tokens },
    total_tokens: tokenTotal(spend.tokens),
    usd: spend.usd,
    unpriced: [...spend.unpriced],
    pricing: pricingVersion,
    stop: stop ? { cause: stop.cause, detail: stop.detail } : null,
  };
}

/**
 * A run whose agent stopped at its own spending cap (the driver's `ownBudgetStop` subtype on the
 * last final event, e.g. Claude Code's `--max-budget-usd`) is a run stopped by a budget: outcome
 * `budget`, never a failure. Any other run is returned as it is.
 */
export function ownBudgetStop<A extends { outcome: string; detail: string }>(
  agent: A,
  evidence: { results: readonly { subtype: string | null }[] },
  subtype: string | undefined,
): A {
  const last = evidence.results.at(-1);
  if (subtype === undefined || last?.subtype !== subtype || agent.outcome === "budget")
    return agent;
  return {
    ...agent,
    outcome: "budget",
    detail: `the agent's own spending cap stopped it (${subtype})`,
  };
}
