/**
 * The description optimiser's pure parts (docs/triggers.md, "Description optimiser"): the one
 * seeded split of the queries into train and held-out, a description's score on a split, the
 * proposer's prompt (the current description's failures on train only: the held-out queries are
 * never shown to it) and the reading of its answer, and the choice of the description kept (on
 * held-out, never on train). Pure.
 */
import { InputError } from "../../core/errors.js";
import { sha256 } from "../../util/hash.js";
import type { ProbeRecord, TriggerQuery } from "../types.js";

/** The seed of the split (a constant: every optimisation of the same queries splits them alike). */
export const SPLIT_SEED = 1;
/** The share of each kind of query (should / should not trigger) held out. */
const HELD_OUT_SHARE = 0.4;
/** Claude Code's limit on a Skill's description. */
const MAX_DESCRIPTION = 1024;

export interface Split {
  train: string[];
  held_out: string[];
}

/**
 * Split once, deterministically: within each kind (should trigger, should not), queries ordered
 * by a hash of the seed and their id, the first 40% (at least one when the kind has two or more)
 * held out. Needs at least two of each kind, so that both halves hold both kinds.
 */
export function splitQueries(queries: readonly TriggerQuery[], seed = SPLIT_SEED): Split {
  const train: string[] = [];
  const held: string[] = [];
  for (const kind of [true, false]) {
    const ids = queries
      .filter((q) => q.should_trigger === kind)
      .map((q) => ({ id: q.id, k: sha256(`${seed}:${q.id}`) }))
      .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .map((x) => x.id);
    if (ids.length < 2)
      throw new InputError(
        `--optimise: needs at least 2 ${kind ? "should-trigger" : "should-not-trigger"} queries (there are ${ids.length}): each kind is split between train and held-out`,
        { field: "--optimise" },
      );
    const n = Math.max(1, Math.round(ids.length * HELD_OUT_SHARE));
    held.push(...ids.slice(0, n));
    train.push(...ids.slice(n));
  }
  const order = new Map(queries.map((q, i) => [q.id, i]));
  const byOrder = (a: string, b: string): number => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return { train: train.sort(byOrder), held_out: held.sort(byOrder) };
}

export interface SplitScore {
  /** Answered probes that did the right thing / answered probes (null: none answered). */
  accuracy: number | null;
  correct: number;
  answered: number;
  invalid: number;
}

/** A variant's accuracy over the probes of the given queries. */
export function scoreOn(
  ids: readonly string[],
  queries: readonly TriggerQuery[],
  records: readonly ProbeRecord[],
  variant: string,
): SplitScore {
  const want = new Map(queries.map((q) => [q.id, q.should_trigger]));
  const s: SplitScore = { accuracy: null, correct: 0, answered: 0, invalid: 0 };
  for (const r of records) {
    if (r.variant !== variant || !ids.includes(r.query_id)) continue;
    if (r.outcome.kind === "invalid") {
      s.invalid++;
      continue;
    }
    s.answered++;
    if ((r.outcome.kind === "target") === want.get(r.query_id)) s.correct++;
  }
  s.accuracy = s.answered === 0 ? null : s.correct / s.answered;
  return s;
}

/** Higher accuracy first; an unscored candidate below every scored one. */
function better(a: SplitScore, b: SplitScore): number {
  return (a.accuracy ?? -1) - (b.accuracy ?? -1);
}

/**
 * The round whose description is improved next: the best on train so far (the earlier on a tie).
 * Train only: what the proposer is steered by never includes the held-out queries.
 */
export function bestOnTrain(rounds: readonly { train: SplitScore }[]): number {
  let best = 0;
  rounds.forEach((r, i) => {
    if (better(r.train, (rounds[best] as { train: SplitScore }).train) > 0) best = i;
  });
  return best;
}

/**
 * The description kept: the best on held-out (the earlier round on a tie, so a candidate must do
 * strictly better than the description it would replace). Its held-out score is the one reported.
 */
export function chooseKept(rounds: readonly { held_out: SplitScore }[]): number {
  let best = 0;
  rounds.forEach((r, i) => {
    if (better(r.held_out, (rounds[best] as { held_out: SplitScore }).held_out) > 0) best = i;
  });
  return best;
}

/** One train query the description got wrong, as the proposer is told it. */
export interface Failure {
  query: string;
  should_trigger: boolean;
  /** What happened instead, in words. */
  got: string;
}

/** The train queries the variant got wrong (each once, with what happened most often). */
export function trainFailures(
  train: readonly string[],
  queries: readonly TriggerQuery[],
  records: readonly ProbeRecord[],
  variant: string,
): Failure[] {
  const out: Failure[] = [];
  for (const q of queries) {
    if (!train.includes(q.id)) continue;
    const seen = new Map<string, number>();
    for (const r of records) {
      if (r.variant !== variant || r.query_id !== q.id || r.outcome.kind === "invalid") continue;
      if ((r.outcome.kind === "target") === q.should_trigger) continue;
      const got =
        r.outcome.kind === "target"
          ? "the Skill was used"
          : r.outcome.kind === "other"
            ? `the Skill ${r.outcome.skill} was used instead`
            : "no Skill was used";
      seen.set(got, (seen.get(got) ?? 0) + 1);
    }
    const top = [...seen.entries()].sort((a, b) => b[1] - a[1])[0];
    if (top) out.push({ query: q.query, should_trigger: q.should_trigger, got: top[0] });
  }
  return out;
}

/** The proposer's prompt: the Skill, its current description and that description's train failures. */
export function proposalPrompt(i: {
  skill: string;
  skillText: string;
  description: string;
  failures: readonly Failure[];
  others: readonly { name: string; description: string }[];
}): string {
  const failures =
    i.failures.length === 0
      ? "It got every test prompt right; make it no less precise."
      : i.failures
          .map(
            (f) =>
              `- "${f.query}": ${f.should_trigger ? "should use the Skill" : "should NOT use the Skill"}, but ${f.got}.`,
          )
          .join("\n");
  return [
    `You are improving the description of a coding agent's Skill named "${i.skill}". The agent`,
    "decides whether to use a Skill from its description alone.",
    "",
    "<skill_md>",
    i.skillText.trim(),
    "</skill_md>",
    "",
    `Current description: ${i.description}`,
    "",
    "Test prompts it got wrong:",
    failures,
    i.others.length > 0
      ? `\nOther Skills the agent has:\n${i.others.map((o) => `- ${o.name}: ${o.description}`).join("\n")}`
      : "",
    "",
    `Write a better description (one paragraph, at most ${MAX_DESCRIPTION} characters) that makes the agent use`,
    "the Skill when it should and not otherwise; describe the kind of request, do not list the test prompts.",
    "Answer with the description only, inside <description></description>.",
  ]
    .filter((l) => l !== "")
    .join("\n");
}

/** The description in the proposer's answer (inside <description>, else the whole text). Throws what is wrong. */
export function parseProposal(answer: string): string {
  const m = /<description>([\s\S]*?)<\/description>/i.exec(answer);
  const text = (m ? (m[1] ?? "") : answer).replace(/\s+/g, " ").trim();
  if (!text) throw new Error("the description is empty");
  if (text.length > MAX_DESCRIPTION)
    throw new Error(`the description has ${text.length} characters, over ${MAX_DESCRIPTION}`);
  return text;
}
