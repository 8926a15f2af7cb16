/**
 * The pairwise stage (docs/judge.md, "Pairwise"): after every run of the experiment exists, each
 * task and repetition with a candidate run and a baseline run in the analysis set goes to the judge
 * twice, positions swapped, and the verdicts are written to `<results>/pairwise.json`. It reads
 * only stored runs (the saved workspace, report.json's final answer, plan.json's prompt), so
 * `rescore` runs it the same way and `report` shows what it stored. A pair judged before with the
 * same content, orders, judge and prompt is taken from the judge cache (judge/cache.ts
 * `PairJudgeCache`): a rescore or `--resume` spends nothing twice.
 */
import path from "node:path";
import { RunPlanSchema } from "../plan/run-plan.js";
import type { PairVerdict, PairwiseFile } from "../core/pairwise.js";
import { PAIRWISE_SCHEMA } from "../core/pairwise.js";
import { RunReportSchema } from "../core/report.js";
import type { RunDigest } from "../core/digest.js";
import type { JudgeConfig } from "../judge/config.js";
import { isActiveJudge } from "../judge/config.js";
import {
  buildPairwisePrompt,
  buildPairwiseRepairPrompt,
  parsePairwiseAnswer,
  type PairSide,
} from "../judge/pairwise-prompt.js";
import { makeTransport } from "../judge/run-judge.js";
import { pairCacheKey, PairJudgeCache } from "../judge/cache.js";
import type { JudgeBudget, JudgeReply, JudgeTransport } from "../judge/types.js";
import { dumpWorkspace } from "../judge/workspace-dump.js";
import { analysisSet } from "../report/outcomes.js";
import { readComparisonSource } from "../report/comparison/write.js";
import { resolveRoles, CONTROL } from "../plan/roles.js";
import { sortByRep, taskOrder, treatmentOrder } from "../plan/group.js";
import { runPaths } from "../store/layout.js";
import { writePairwise } from "../store/pairwise.js";
import { readJsonFile } from "../util/fs.js";
import { reducePair } from "../stats/pairwise.js";
import type { RunKey } from "./context.js";

export interface PairwiseStageOptions {
  outDir: string;
  /** The judge settings for a pair, by its candidate run (the scripted judge's endpoint is per run). */
  judgeFor: (run: RunKey) => JudgeConfig;
  redact?: ((s: string) => string) | undefined;
  hostEnv?: Record<string, string | undefined> | undefined;
  experimentId?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Replaces the configured transport (tests). */
  transport?: JudgeTransport | undefined;
  /** The pairs judged before (default: `<outDir>/judge-cache/`, beside the single-run verdicts). */
  cache?: PairJudgeCache | undefined;
  /**
   * The experiment's budget as one pair's judge sees it (runner/budget.ts `judgeFor`, under the
   * pair's own id): each call admitted by it and counted against it, as a run's judge calls are.
   * Absent: no budget.
   */
  budgetFor?:
    ((pair: { run_id: string }, key: RunKey) => JudgeBudget & { close(): void }) | undefined;
}

class Usage {
  tokens: { input: number; output: number } | null = null;
  cost: number | null = null;
  /** Add what another judging cost (a pair judged now, or a cached pair's record). */
  add(tokens: { input: number; output: number } | null, cost: number | null): void {
    if (tokens)
      this.tokens = {
        input: (this.tokens?.input ?? 0) + tokens.input,
        output: (this.tokens?.output ?? 0) + tokens.output,
      };
    if (cost !== null) this.cost = (this.cost ?? 0) + cost;
  }
}

async function sideOf(outDir: string, r: RunDigest): Promise<PairSide> {
  const p = runPaths(outDir, r.run_id);
  const dump = await dumpWorkspace(p.workspace);
  const report = RunReportSchema.safeParse(await readJsonFile(p.report).catch(() => null));
  return {
    workspaceDump: dump.text,
    finalAnswer: report.success ? (report.data.events_summary?.final_response ?? null) : null,
  };
}

async function promptOf(outDir: string, r: RunDigest): Promise<string | null> {
  const plan = RunPlanSchema.safeParse(
    await readJsonFile(runPaths(outDir, r.run_id).plan).catch(() => null),
  );
  return plan.success ? plan.data.prompt : null;
}

/** One order: the preference (after one repair turn), or null with the cause (fail closed). */
export async function askOrder(
  transport: JudgeTransport,
  prompt: string,
  usage: Pick<Usage, "add">,
  signal: AbortSignal | undefined,
  budget?: { judge: JudgeBudget; model: string },
): Promise<PairVerdict["first"]> {
  let calls = 0;
  const send = async (text: string): Promise<JudgeReply> => {
    // A call the budget cannot cover is not started: the order fails with that cause (never a
    // preference, never cached), as a run's judge dimension goes N/A (docs/budgets.md, "The judge").
    const why = (await budget?.judge.admit()) ?? null;
    if (why !== null) return { ok: false, error: `budget: ${why}` };
    calls += 1;
    const r = await transport(text, signal);
    if (r.ok) {
      usage.add(r.tokens, r.costUsd);
      budget?.judge.replied(budget.model, r.tokens);
    }
    return r;
  };
  const first = await send(prompt);
  if (!first.ok) return { preferred: null, reason: first.error, calls, repairs: 0 };
  const parsed = parsePairwiseAnswer(first.text);
  if (parsed.ok) return { preferred: parsed.preferred, reason: parsed.reason, calls, repairs: 0 };
  const again = await send(buildPairwiseRepairPrompt(prompt, first.text));
  if (!again.ok)
    return {
      preferred: null,
      reason: `${parsed.reason}; the repair attempt failed: ${again.error}`,
      calls,
      repairs: 1,
    };
  const second = parsePairwiseAnswer(again.text);
  return second.ok
    ? { preferred: second.preferred, reason: second.reason, calls, repairs: 1 }
    : {
        preferred: null,
        reason: `${second.reason} (also after one repair attempt)`,
        calls,
        repairs: 1,
      };
}

/**
 * Judge every pair and write pairwise.json. Null (nothing written) when the judge is not active
 * or fewer than two treatments have runs. Never throws for a judge failure: a failed order leaves
 * its pair's outcome null with the cause.
 */
export async function runPairwiseStage(o: PairwiseStageOptions): Promise<PairwiseFile | null> {
  const { reports, metadata } = await readComparisonSource(o.outDir);
  const treatments = treatmentOrder(reports, metadata?.treatments ?? [CONTROL]);
  if (treatments.length < 2) return null;
  const roles = resolveRoles(treatments, metadata?.comparison_roles ?? {});
  const analysis = analysisSet(reports);
  const redact = o.redact ?? ((s: string) => s);
  const usage = new Usage();
  const cache = o.cache ?? new PairJudgeCache(path.join(o.outDir, "judge-cache"));
  const pairs: PairVerdict[] = [];
  let model: string | null = null;
  for (const task of taskOrder(analysis)) {
    const ofT = (t: string) =>
      sortByRep(analysis.filter((r) => r.task === task && r.treatment === t));
    const base = ofT(roles.baseline);
    for (const cand of ofT(roles.candidate)) {
      const b = base.find((x) => x.rep === cand.rep);
      if (!b) continue;
      const config = o.judgeFor({
        task,
        treatment: cand.treatment,
        rep: cand.rep,
        agent: cand.agent.name,
      });
      if (!isActiveJudge(config)) return null;
      model = config.model;
      const transport = makeTransport(config, {
        transport: o.transport,
        hostEnv: o.hostEnv,
        experimentId: o.experimentId,
      });
      const [c, bs, instruction] = await Promise.all([
        sideOf(o.outDir, cand),
        sideOf(o.outDir, b),
        promptOf(o.outDir, cand),
      ]);
      const prompt = (a: PairSide, bb: PairSide): string =>
        redact(buildPairwisePrompt({ instruction, rubricCriteria: [], a, b: bb }));
      const failedOrder = (why: string): PairVerdict["first"] => ({
        preferred: null,
        reason: why,
        calls: 0,
        repairs: 0,
      });
      const firstPrompt = prompt(c, bs);
      const secondPrompt = prompt(bs, c);
      // The same two runs, orders, judge and prompt were judged before (a rescore, --resume):
      // their verdicts, without asking again.
      const key = pairCacheKey({
        model: config.model,
        transport: config.transport,
        maxTokens: config.maxTokens,
        endpoint: config.cacheEndpoint ?? config.baseUrl,
        firstPrompt,
        secondPrompt,
      });
      const cached = "error" in transport ? null : await cache.get(key);
      const spent = new Usage();
      // A cached pair sends nothing, so it asks the budget for nothing.
      const judgeBudget = cached
        ? undefined
        : o.budgetFor?.(
            { run_id: `pairwise:${cand.run_id}` },
            { task, treatment: cand.treatment, rep: cand.rep, agent: cand.agent.name },
          );
      const budget = judgeBudget ? { judge: judgeBudget, model: config.model } : undefined;
      // A cached order says what was preferred and why; `calls` counts the requests sent now.
      const first = cached
        ? { ...cached.first, calls: 0, repairs: 0 }
        : "error" in transport
          ? failedOrder(transport.error)
          : await askOrder(transport, firstPrompt, spent, o.signal, budget);
      const second = cached
        ? { ...cached.second, calls: 0, repairs: 0 }
        : "error" in transport
          ? failedOrder(transport.error)
          : await askOrder(transport, secondPrompt, spent, o.signal, budget);
      judgeBudget?.close();
      // A hit costs nothing now (as a cached single-run verdict: tokens 0, cost 0).
      if (cached) usage.add({ input: 0, output: 0 }, 0);
      else {
        usage.add(spent.tokens, spent.cost);
        await cache.put(key, { first, second, tokens: spent.tokens, cost_usd: spent.cost });
      }
      const both =
        first.preferred !== null && second.preferred !== null
          ? reducePair(first.preferred, second.preferred)
          : null;
      pairs.push({
        task,
        rep: cand.rep,
        candidate_run: cand.run_id,
        baseline_run: b.run_id,
        first: { ...first, reason: redact(first.reason) },
        second: { ...second, reason: redact(second.reason) },
        outcome: both?.outcome ?? null,
        disagree: both?.disagree ?? false,
      });
    }
  }
  if (model === null) return null;
  const file: PairwiseFile = {
    schema: PAIRWISE_SCHEMA,
    model,
    candidate: roles.candidate,
    baseline: roles.baseline,
    pairs,
    tokens: usage.tokens,
    cost_usd: usage.cost,
  };
  await writePairwise(o.outDir, file);
  return file;
}
