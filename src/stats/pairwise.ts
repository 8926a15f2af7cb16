/**
 * Pairwise judging with positions swapped (docs/judge.md, "Pairwise"). Pure.
 *
 * Each pair (a task and repetition with a candidate run and a baseline run) is judged twice: once
 * with the candidate as A, once with the baseline as A. A preference counts only when both orders
 * agree; otherwise the pair is a tie, and the share of pairs whose orders disagree is the judge's
 * position bias (a judge that always picks A disagrees with itself on every pair: 1.0).
 */
import { signTest } from "./binomial-tests.js";
import { wilsonInterval, type Interval } from "./wilson.js";

import type { Preference } from "../core/pairwise.js";

/** A pair's outcome from the candidate's side. */
export type PairOutcome = "candidate" | "baseline" | "tie";

/** `first`: the candidate was A; `second`: the baseline was A. */
export function reducePair(
  first: Preference,
  second: Preference,
): { outcome: PairOutcome; disagree: boolean } {
  const one: PairOutcome = first === "A" ? "candidate" : first === "B" ? "baseline" : "tie";
  const two: PairOutcome = second === "A" ? "baseline" : second === "B" ? "candidate" : "tie";
  return one === two ? { outcome: one, disagree: false } : { outcome: "tie", disagree: true };
}

export interface PairwiseSummary {
  /** pairs with both orders judged (failed pairs are left out and counted apart) */
  pairs: number;
  wins: number;
  losses: number;
  ties: number;
  /** pairs whose two orders disagreed (they count as ties) */
  disagreements: number;
  /** disagreements / pairs; null without pairs */
  position_bias: number | null;
  /** wins / (wins + losses): ties are left out; null when every pair is a tie */
  win_rate: number | null;
  /** Wilson interval (95%) of win_rate */
  win_rate_ci: Interval | null;
  /** sign test over tasks: a task counts + when the candidate won more of its pairs than it lost */
  sign_test: { tasks_better: number; tasks_worse: number; tasks_even: number; p: number | null };
}

/** The pairs' summary; `task` groups the sign test. */
export function summarizePairs(
  pairs: readonly { task: string; outcome: PairOutcome; disagree: boolean }[],
): PairwiseSummary {
  let wins = 0;
  let losses = 0;
  let disagreements = 0;
  const net = new Map<string, number>();
  for (const p of pairs) {
    const d = p.outcome === "candidate" ? 1 : p.outcome === "baseline" ? -1 : 0;
    if (d > 0) wins += 1;
    if (d < 0) losses += 1;
    if (p.disagree) disagreements += 1;
    net.set(p.task, (net.get(p.task) ?? 0) + d);
  }
  const n = pairs.length;
  const decisive = wins + losses;
  const nets = [...net.values()];
  const better = nets.filter((x) => x > 0).length;
  const worse = nets.filter((x) => x < 0).length;
  return {
    pairs: n,
    wins,
    losses,
    ties: n - decisive,
    disagreements,
    position_bias: n === 0 ? null : disagreements / n,
    win_rate: decisive === 0 ? null : wins / decisive,
    win_rate_ci: wilsonInterval(wins, decisive),
    sign_test: {
      tasks_better: better,
      tasks_worse: worse,
      tasks_even: nets.length - better - worse,
      p: better + worse === 0 ? null : signTest(better, worse),
    },
  };
}
