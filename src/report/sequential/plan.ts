/**
 * Plan ahead of `run --until-decided` (docs/statistics.md §12, "Plan ahead"): at the first look,
 * whether --max-count can decide at this number of tasks if the first round's per-task rates
 * hold, and how many tasks it would take when it cannot. Pure.
 *
 * The decision at the last look is made at that look's nominal level (the α left for it by the
 * spending function); the projection (comparison/projection.ts) scales every task's runs and
 * passes from the first round's count to --max-count. More runs narrow Newcombe's part of the
 * interval only: when the tasks disagree, the task-clustered part (T − 1 degrees of freedom)
 * stays as wide, so a design with few tasks can run to --max-count and still be inconclusive.
 */
import { alphaSpent, type Spending } from "../../stats/index.js";
import {
  goalOf,
  runFactorToResolve,
  tasksToResolve,
  type ArmCounts,
  type Goal,
} from "../comparison/projection.js";

export interface SequentialPlan {
  /** tasks both arms ran in the first round */
  tasks: number;
  /** what the first round's Δ points to */
  goal: Goal;
  /** the nominal two-sided level of the last look (at --max-count) */
  alpha_last: number;
  /** --max-count can decide `goal` at this number of tasks, if the first round's rates hold */
  decidable: boolean;
  /** the repetitions per task it takes (≤ --max-count), when decidable */
  count_needed: number | null;
  /** when not decidable: the tasks as spread as these that would decide it by --max-count (null: none would) */
  tasks_needed: number | null;
  /** the one sentence the run prints and the reports show */
  text: string;
}

/** The repetitions per task at each look: round, 2 round, … up to maxCount. */
function lookCounts(first: number, round: number, maxCount: number): number[] {
  const out: number[] = [];
  for (let c = first; ; c = Math.min(maxCount, c + round)) {
    out.push(c);
    if (c >= maxCount) return out;
  }
}

export function planSequential(i: {
  a: ArmCounts;
  b: ArmCounts;
  /** repetitions per task and treatment in the first round */
  count: number;
  round: number;
  maxCount: number;
  alpha: number;
  spending: Spending;
  margin: number;
}): SequentialPlan | null {
  const tasks = i.a.n.filter((n, k) => n > 0 && (i.b.n[k] ?? 0) > 0).length;
  const na = i.a.n.reduce((s, x) => s + x, 0);
  const nb = i.b.n.reduce((s, x) => s + x, 0);
  if (tasks === 0 || na === 0 || nb === 0) return null;
  const delta = i.a.c.reduce((s, x) => s + x, 0) / na - i.b.c.reduce((s, x) => s + x, 0) / nb;
  const goal = goalOf(delta, i.margin);
  const counts = lookCounts(i.count, i.round, i.maxCount);
  const previous = counts.length >= 2 ? (counts[counts.length - 2] ?? 0) : 0;
  const alphaLast =
    alphaSpent(1, i.alpha, i.spending) - alphaSpent(previous / i.maxCount, i.alpha, i.spending);
  const factor = i.maxCount / i.count;
  const f = runFactorToResolve(i.a, i.b, goal, i.margin, alphaLast, 1);
  const goalText = goal.replace("_", "-");
  if (f !== null && f <= factor) {
    const need = Math.min(i.maxCount, Math.ceil(f * i.count));
    return {
      tasks,
      goal,
      alpha_last: alphaLast,
      decidable: true,
      count_needed: need,
      tasks_needed: null,
      text: `Plan: if the first round's rates hold, --max-count ${i.maxCount} can show ${goalText} at ${tasks} task(s) (by about ${need} repetitions per task).`,
    };
  }
  const whole = Math.max(1, Math.floor(factor));
  const needed = tasksToResolve(i.a, i.b, goal, i.margin, alphaLast, whole);
  const why =
    f === null
      ? `the tasks disagree, so the task-clustered interval (${tasks - 1} degree(s) of freedom) stays too wide at any number of repetitions`
      : `it would take about ${Math.ceil(f * i.count)} repetitions per task`;
  return {
    tasks,
    goal,
    alpha_last: alphaLast,
    decidable: false,
    count_needed: null,
    tasks_needed: needed,
    text: `⚠️ Plan: even if the first round's rates hold, --max-count ${i.maxCount} cannot show ${goalText} at ${tasks} task(s): ${why}. ${needed === null ? "No number of tasks like these would either: expect an inconclusive band." : `About ${needed} tasks as spread as these would; add tasks, or expect an inconclusive band.`}`,
  };
}
