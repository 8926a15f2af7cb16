/**
 * The optimiser's edges (docs/triggers.md, "Description optimiser"): one proposal through an agent
 * call (the query generator's transport: one tool-less turn, one repair), metered as a probe is;
 * and the files of an optimised evaluation: the kept description, optimise.json, and triggers.json
 * and triggers.md over the held-out queries.
 */
import path from "node:path";
import { askWithRepair } from "../../agents/ask.js";
import { withAgentCall, type AgentCallOptions } from "../../agents/call.js";
import type { ConnectionMeter } from "../../sandbox/relay.js";
import { writeFileAtomic, writeJsonAtomic } from "../../util/fs.js";
import { redactValue, type Redactor } from "../../util/redact.js";
import type { TriggerBudget } from "../budget.js";
import { renderTriggersHtml } from "../html.js";
import {
  buildTriggersReport,
  renderTriggersMarkdown,
  type TriggersReport,
  type TriggersReportInput,
} from "../report.js";
import type { DescriptionVariant } from "../types.js";
import { parseProposal } from "./plan.js";
import { renderOptimiseMarkdown, type OptimiseResult } from "./run.js";

/** Ask the proposer for a description (one repair), metered under the evaluation's budget. */
export async function proposeDescription(i: {
  prompt: string;
  round: number;
  budget: TriggerBudget | null;
  outDir: string;
  timeoutMs: number;
  signal: AbortSignal;
  redact: (s: string) => string;
  /** The call's options with the sandbox's meter. */
  call: (meter: ConnectionMeter | undefined) => Omit<AgentCallOptions, "name">;
}): Promise<{ description: string; usd: number } | { refused: string }> {
  const dir = path.join(i.outDir, "optimise");
  const ask = (meter: ConnectionMeter | undefined) =>
    askWithRepair({
      what: "description",
      prompt: i.prompt,
      transcripts: dir,
      ask: (prompt, attempt) =>
        withAgentCall(
          { ...i.call(meter), name: `trigger-optimise-${i.round}-${attempt}` },
          (call) =>
            call.ask({
              prompt,
              extraArgs: ["--max-turns", "1"],
              timeoutMs: i.timeoutMs,
              signal: i.signal,
              stdoutFile: path.join(dir, `round-${i.round}-proposal-${attempt}.stdout.jsonl`),
              stderrFile: path.join(dir, `round-${i.round}-proposal-${attempt}.stderr.txt`),
              redact: i.redact,
            }),
        ),
      parse: (text) => parseProposal(text),
      repairPrompt: (problem, answer) =>
        `${i.prompt}\n\nYour previous answer could not be used: ${problem}\nPrevious answer:\n${answer.slice(0, 4000)}`,
    });
  if (!i.budget) return { description: (await ask(undefined)).value, usd: 0 };
  const key = {
    id: `optimise/round-${i.round}`,
    task: "optimise-description",
    treatment: `round-${i.round}`,
    rep: 1,
  };
  const r = await i.budget.metered(key, ask);
  return "refused" in r ? r : { description: r.value.value, usd: r.usd };
}

/** optimise.json: the split, every round, the description kept and what the rounds spent. */
function optimiseJson(o: OptimiseResult, descriptionFile: string, budgetUsd: number | null) {
  return {
    schema: "skillbench.triggers-optimise.v1" as const,
    seed: o.seed,
    split: o.split,
    rounds: o.rounds,
    kept: o.kept,
    description: o.description,
    description_file: descriptionFile,
    held_out_accuracy: o.rounds[o.kept]?.held_out.accuracy ?? null,
    spent_usd: o.rounds.reduce((a, r) => a + r.cost_usd, 0),
    budget_usd: budgetUsd,
    stopped: o.stopped,
  };
}

/**
 * The files of an optimised evaluation. triggers.json and triggers.md are over the held-out
 * queries only, with the kept description first (its figures are the top-level ones, the score
 * reported) and the Skill's own description (round 0) beside it when another was kept.
 */
export async function writeOptimised(
  outDir: string,
  o: OptimiseResult,
  input: TriggersReportInput,
  budgetUsd: number | null,
  redact: Redactor,
): Promise<{ report: TriggersReport; files: string[] }> {
  const kept = o.rounds[o.kept];
  const first = o.rounds[0];
  if (!kept || !first) throw new Error("an optimisation without rounds");
  const variantOf = (r: typeof kept): DescriptionVariant => ({
    name: r.variant,
    description: r.description,
    file: path.join(outDir, "optimise", `${r.variant}.txt`),
  });
  const variants = o.kept === 0 ? [variantOf(first)] : [variantOf(kept), variantOf(first)];
  const names = new Set(variants.map((v) => v.name));
  const held = new Set(o.split.held_out);
  const report = buildTriggersReport({
    ...input,
    queries: input.queries.filter((q) => held.has(q.id)),
    variants,
    records: o.records.filter((r) => names.has(r.variant) && held.has(r.query_id)),
  });
  const descriptionFile = path.join(outDir, "optimised-description.txt");
  const json = optimiseJson(o, descriptionFile, budgetUsd);
  await writeFileAtomic(descriptionFile, `${o.description}\n`);
  const optimiseFile = path.join(outDir, "optimise.json");
  await writeJsonAtomic(optimiseFile, redactValue(json, redact));
  await writeJsonAtomic(
    path.join(outDir, "triggers.json"),
    redactValue({ ...report, optimiser: json }, redact),
  );
  await writeFileAtomic(
    path.join(outDir, "triggers.md"),
    redact(
      renderTriggersMarkdown(report).replace(
        /\n## /,
        `\n${renderOptimiseMarkdown(o, descriptionFile)}\nThe sections below are over the **held-out** queries only.\n\n## `,
      ),
    ),
  );
  await writeFileAtomic(path.join(outDir, "triggers.html"), redact(renderTriggersHtml(report)));
  return { report, files: [descriptionFile, optimiseFile] };
}
