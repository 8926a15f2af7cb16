import { runDriverTurn } from "../run-turn.js";
import type { TurnRequest, TurnResult } from "../types.js";
import { claudeDriver } from "./driver.js";

export { claudeArgs } from "./driver.js";

export type { TurnOutcome, TurnRequest, TurnResult } from "../types.js";

/** Run one `claude -p` turn; never throws. */
export function runClaudeTurn(r: TurnRequest): Promise<TurnResult> {
  return runDriverTurn(claudeDriver, r);
}
