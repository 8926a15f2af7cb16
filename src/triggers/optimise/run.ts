/**
 * `triggers SKILL --optimise ROUNDS` (docs/triggers.md, "Description optimiser"): round 0 is the
 * Skill's own description; each round the proposer writes a new description from the train
 * failures of the best description on train so far; every candidate is probed on all queries, so
 * it has a train and a held-out score; the description kept is the best on held-out, and that
 * held-out score is the one reported. The probes and the proposer are handed in (run-triggers.ts
 * runs them, metered), so the loop itself does no I/O.
 */
import { GenerationError } from "../../agents/ask.js";
import type { SkillFolder } from "../skills.js";
import type { DescriptionVariant, ProbeRecord, TriggerQuery } from "../types.js";
import {
  bestOnTrain,
  chooseKept,
  proposalPrompt,
  scoreOn,
  splitQueries,
  trainFailures,
  SPLIT_SEED,
  type Split,
  type SplitScore,
} from "./plan.js";
import { f2 } from "../../util/format.js";

export interface OptimiseRound {
  round: number;
  variant: string;
  description: string;
  /** The round whose description (and train failures) the proposer was given; null for round 0. */
  based_on: number | null;
  train: SplitScore;
  held_out: SplitScore;
  /** Metered dollars of the round: its proposal and its probes. */
  cost_usd: number;
  /** Probes of the round not run (the budget ran out). */
  not_run: number;
  kept: boolean;
}

export interface OptimiseResult {
  seed: number;
  split: Split;
  rounds: OptimiseRound[];
  /** The round kept (chosen on held-out). */
  kept: number;
  description: string;
  /** Why the rounds stopped early (the budget), else null. */
  stopped: string | null;
  records: ProbeRecord[];
}

export interface OptimiseInput {
  skill: SkillFolder;
  queries: TriggerQuery[];
  rounds: number;
  others: { name: string; description: string }[];
  /** A round's variant (the description, and the file written for it). */
  variantFor: (round: number, description: string) => Promise<DescriptionVariant>;
  /** Probe the variant on the queries: the records, the probes not run and the dollars spent. */
  probe: (
    v: DescriptionVariant,
    queries: TriggerQuery[],
  ) => Promise<{ records: ProbeRecord[]; notRun: number; usd: number; refused: string | null }>;
  /** Ask the proposer: a description (or why it was not started) and the dollars spent. */
  propose: (
    prompt: string,
    round: number,
  ) => Promise<{ description: string; usd: number } | { refused: string }>;
  note: (message: string) => void;
}

export async function optimiseDescription(i: OptimiseInput): Promise<OptimiseResult> {
  const split = splitQueries(i.queries, SPLIT_SEED);
  const rounds: OptimiseRound[] = [];
  const records: ProbeRecord[] = [];
  let stopped: string | null;
  const score = async (
    round: number,
    description: string,
    basedOn: number | null,
    proposalUsd: number,
  ): Promise<string | null> => {
    const v = await i.variantFor(round, description);
    const p = await i.probe(v, i.queries);
    records.push(...p.records);
    rounds.push({
      round,
      variant: v.name,
      description,
      based_on: basedOn,
      train: scoreOn(split.train, i.queries, p.records, v.name),
      held_out: scoreOn(split.held_out, i.queries, p.records, v.name),
      cost_usd: proposalUsd + p.usd,
      not_run: p.notRun,
      kept: false,
    });
    return p.refused;
  };
  stopped = await score(0, i.skill.description, null, 0);
  for (let k = 1; k <= i.rounds && stopped === null; k++) {
    const base = rounds[bestOnTrain(rounds)] as OptimiseRound;
    const prompt = proposalPrompt({
      skill: i.skill.name,
      skillText: i.skill.text,
      description: base.description,
      failures: trainFailures(split.train, i.queries, records, base.variant),
      others: i.others,
    });
    let got: Awaited<ReturnType<OptimiseInput["propose"]>>;
    try {
      got = await i.propose(prompt, k);
    } catch (e) {
      if (!(e instanceof GenerationError)) throw e;
      // A proposer that gave no usable description twice ends the rounds; the kept one stands.
      stopped = e.message.replace(/^--generate: /, "");
      i.note(`--optimise: round ${k}: ${stopped}`);
      break;
    }
    if ("refused" in got) {
      stopped = got.refused;
      break;
    }
    stopped = await score(k, got.description, base.round, got.usd);
  }
  if (stopped !== null) i.note(`--optimise: the rounds stopped early: ${stopped}`);
  const kept = chooseKept(rounds);
  const keptRound = rounds[kept] as OptimiseRound;
  keptRound.kept = true;
  return {
    seed: SPLIT_SEED,
    split,
    rounds,
    kept,
    description: keptRound.description,
    stopped,
    records,
  };
}

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

/** triggers.md's optimiser section: the split, the table of rounds, the kept description. */
export function renderOptimiseMarkdown(o: OptimiseResult, descriptionFile: string): string {
  const kept = o.rounds[o.kept] as OptimiseRound;
  const out = [
    "## Description optimiser",
    "",
    `Queries split once (seed ${o.seed}): train ${o.split.train.join(", ")}; held-out ${o.split.held_out.join(", ")}. ` +
      "Each round's description was written from the train failures of the best description on train so far; " +
      "the description kept is the best on **held-out** (an earlier round wins a tie), and its held-out score is the one reported.",
    "",
    `**Kept: round ${kept.round}**, held-out accuracy ${f2(kept.held_out.accuracy)} (${kept.held_out.correct}/${kept.held_out.answered}); written to ${descriptionFile}.`,
    "",
    "| round | based on | train accuracy | held-out accuracy | cost (USD) | kept | description |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...o.rounds.map(
      (r) =>
        `| ${r.round} | ${r.based_on ?? "—"} | ${f2(r.train.accuracy)} (${r.train.correct}/${r.train.answered}) | ${f2(r.held_out.accuracy)} (${r.held_out.correct}/${r.held_out.answered}) | ${r.cost_usd.toFixed(4)}${r.not_run > 0 ? ` (${r.not_run} probe(s) not run)` : ""} | ${r.kept ? "✅" : ""} | ${cell(r.description)} |`,
    ),
    "",
  ];
  if (o.stopped !== null) out.push(`The rounds stopped early: ${cell(o.stopped)}`, "");
  return `${out.join("\n")}\n`;
}
