/**
 * Asking an agent CLI for an answer rather than running it on a task: the generators of
 * `triggers --generate` (docs/triggers.md) and `eval --generate` (docs/manifest.md) use it.
 * An agent call's `ask` (call.ts) runs one turn of any driver and returns its final text and
 * what it cost; `askWithRepair` asks, checks the answer, and on a bad answer asks once more with
 * what was wrong with it, so both generators share one rule: one repair attempt, then an error.
 */
import { SkillbenchError } from "../core/errors.js";
import type { TurnOutcome } from "./types.js";

export interface AskResult {
  /** The final text of a completed turn; null when the turn did not complete. */
  text: string | null;
  outcome: TurnOutcome;
  detail: string;
  sessionId: string | null;
  /** What the agent reported the turn cost (its own price table), null when it reports none. */
  costUsd: number | null;
  tokens: { input: number; output: number } | null;
  durationMs: number;
}

/** A generation that failed twice (the answer and its one repair). Exit code 1, not bad input. */
export class GenerationError extends SkillbenchError {
  constructor(message: string) {
    super("generation", message);
    this.name = "GenerationError";
  }
}

export interface RepairedAnswer<T> {
  value: T;
  /** 1, or 2 when the repair was needed. */
  attempts: number;
  /** Summed over the attempts that reported a cost; null when none did. */
  costUsd: number | null;
  tokens: { input: number; output: number } | null;
  durationMs: number;
}

/**
 * Ask (`ask(prompt, attempt, previous)`), check the answer with `parse` (throws with what is
 * wrong), and on a bad or missing answer ask once more with `repairPrompt(problem, answer)`.
 * Throws GenerationError naming the last problem after two failed attempts.
 */
export async function askWithRepair<T>(o: {
  what: string;
  prompt: string;
  ask: (prompt: string, attempt: number, previous: AskResult | null) => Promise<AskResult>;
  parse: (text: string, attempt: number) => T;
  repairPrompt: (problem: string, answer: string) => string;
  /** Where the transcripts are, for the error message. */
  transcripts: string;
}): Promise<RepairedAnswer<T>> {
  let prompt = o.prompt;
  let previous: AskResult | null = null;
  let problem = "";
  let cost: number | null = null;
  const tokens = { input: 0, output: 0, reported: false };
  let durationMs = 0;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await o.ask(prompt, attempt, previous);
    previous = answer;
    if (answer.costUsd !== null) cost = (cost ?? 0) + answer.costUsd;
    if (answer.tokens) {
      tokens.input += answer.tokens.input;
      tokens.output += answer.tokens.output;
      tokens.reported = true;
    }
    durationMs += answer.durationMs;
    if (answer.text === null) {
      problem = `the agent gave no answer: ${answer.detail}`;
      if (answer.outcome === "aborted") break;
      continue;
    }
    try {
      const value = o.parse(answer.text, attempt);
      const used = tokens.reported ? { input: tokens.input, output: tokens.output } : null;
      return { value, attempts: attempt, costUsd: cost, tokens: used, durationMs };
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
      prompt = o.repairPrompt(problem, answer.text);
    }
  }
  throw new GenerationError(
    `--generate: the agent did not write usable ${o.what} in 2 attempts (${problem}); its transcripts are in ${o.transcripts}`,
  );
}
