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
