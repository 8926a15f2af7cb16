export {
  JudgeBlockSchema,
  type JudgeBlock,
  type JudgeDimension,
  type JudgeSpread,
  type JudgeTransportName,
} from "../core/judge.js";

/** One answer from a transport. Never thrown: failures are values. */
export type JudgeReply =
  | {
      ok: true;
      text: string;
      tokens: { input: number; output: number } | null;
      costUsd: number | null;
    }
  | { ok: false; error: string };

/** Sends one prompt (a single user message) to the judge model. */
export type JudgeTransport = (prompt: string, signal?: AbortSignal) => Promise<JudgeReply>;

/**
 * The experiment's budget as one run's judge sees it (runner/budget.ts `judgeFor`;
 * docs/budgets.md, "The judge"). Absent: no budget.
 */
export interface JudgeBudget {
  /**
   * Before each call (repairs too): null when it may start, else why not (it is not started).
   * Asynchronous: under a queue it reads the spend every worker shares first.
   */
  admit(): Promise<string | null>;
  /** After each call that answered: the usage the transport reported, for the judge's model. */
  replied(model: string, tokens: { input: number; output: number } | null): void;
}
