/**
 * Asking an agent CLI for an answer rather than running it on a task: the generators of
 * `triggers --generate` (docs/triggers.md) and `eval --generate` (docs/manifest.md) use it.
 * `askAgent` runs one turn of any driver and returns its final text and what it cost;
 * `askWithRepair` asks, checks the answer, and on a bad answer asks once more with what was
 * wrong with it, so both generators share one rule: one repair attempt, then an error.
 */
import { SkillbenchError } from "../core/errors.js";
import { parseEvidenceFile } from "../evidence/file.js";
import type { Launcher } from "../sandbox/types.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import type { AgentDriver, TurnOutcome } from "./types.js";

export interface AskInput {
  driver: AgentDriver;
  bin: string;
  workspace: string;
  prompt: string;
  /** From the driver's `prepare()`. */
  env: Record<string, string>;
  baseArgs?: string[] | undefined;
  extraArgs?: string[] | undefined;
  /** A session to carry on (the repair turn), when the agent gave one. */
  resume?: string | undefined;
  model?: string | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  stdoutFile: string;
  stderrFile: string;
  redact: (s: string) => string;
  launcher?: Launcher | undefined;
}

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

/** One turn of `driver`; its transcript goes to `stdoutFile` (redacted). Never throws for the agent's failures. */
export async function askAgent(i: AskInput): Promise<AskResult> {
  const stdout = new RedactingLineWriter(i.stdoutFile, i.redact);
  const stderr = new RedactingLineWriter(i.stderrFile, i.redact);
  let turn;
  try {
    turn = await i.driver.runTurn({
      bin: i.bin,
      workspace: i.workspace,
      prompt: i.prompt,
      env: i.env,
      baseArgs: i.baseArgs,
      extraArgs: i.extraArgs,
      resume: i.resume,
      model: i.model,
      timeoutMs: i.timeoutMs,
      signal: i.signal,
      stdout,
      stderr,
      launcher: i.launcher,
    });
  } finally {
    await stdout.close();
    await stderr.close();
  }
  const ev = await parseEvidenceFile(
    i.stdoutFile,
    { workspace: i.workspace },
    i.driver.decoder({ workspace: i.workspace }),
  );
  return {
    text: turn.outcome === "completed" ? turn.result_text : null,
    outcome: turn.outcome,
    detail: turn.detail,
    sessionId: turn.session_id,
    costUsd: ev.total_cost_usd,
    tokens: ev.tokens ? { input: ev.tokens.input, output: ev.tokens.output } : null,
    durationMs: turn.duration_ms,
  };
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
