/**
 * `run|eval|calibrate --shard I/N`: which of the planned runs one shard of N runs. Pure.
 *
 * The slicer deals the plan round-robin over its (task, repetition) pairs, sorted by task (in plan
 * order) then repetition: pair k goes to shard (k mod N) + 1 with every arm of it (each treatment
 * × agent × model of that task and repetition). So a shard holds whole pairs (the CONTROL and
 * Skill runs of one repetition of a task sit together), every shard gets each task's repetitions in turn
 * (balanced by task within one repetition), and the arms are balanced because each pair carries
 * all of them. When the plan has fewer pairs than shards, it deals single runs instead, over the
 * plan sorted by (task, repetition, arm), so that N shards still share the work. The slice is a
 * function of the whole plan only (never of what has run), so `--resume` runs the same slice.
 */
import { InputError } from "../core/errors.js";
import type { RunSpec } from "./matrix.js";

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards one plan may be cut into (more would be runs of a handful each). */
const MAX_SHARDS = 1000;

/** `I/N` (1 ≤ I ≤ N ≤ MAX_SHARDS) as a Shard; bad input names the flag. */
export function parseShard(text: string, field = "--shard"): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count))
    throw new InputError(`${field} ${JSON.stringify(text)}: expected I/N, e.g. 2/5`, { field });
  if (count < 1 || count > MAX_SHARDS)
    throw new InputError(`${field} ${text}: N must be from 1 to ${MAX_SHARDS}`, { field });
  if (index < 1 || index > count)
    throw new InputError(`${field} ${text}: I must be from 1 to N (${count})`, { field });
  return { index, count };
}

/** `I/N`. */
export function shardText(s: Shard): string {
  return `${s.index}/${s.count}`;
}

type Planned = Pick<RunSpec, "task" | "treatment" | "agent" | "rep"> & {
  model?: string | null;
};

/** An arm: a treatment on one agent and one model. */
const armOf = (r: Planned): string => `${r.treatment}\0${r.agent}\0${r.model ?? ""}`;

/**
 * The shard (1-based) of each run of `plan` (same order as `plan`): see the file comment.
 * `plan` is the whole plan in its stable order (plan/matrix.ts).
 */
export function shardOfEach(plan: readonly Planned[], count: number): number[] {
  const taskAt = new Map<string, number>();
  const armAt = new Map<string, number>();
  for (const r of plan) {
    if (!taskAt.has(r.task)) taskAt.set(r.task, taskAt.size);
    const arm = armOf(r);
    if (!armAt.has(arm)) armAt.set(arm, armAt.size);
  }
  // Sort positions by (task, rep, arm); pairs are the runs of equal (task, rep).
  const order = plan.map((_, i) => i);
  const key = (i: number): [number, number, number] => {
    const r = plan[i] as Planned;
    return [taskAt.get(r.task) ?? 0, r.rep, armAt.get(armOf(r)) ?? 0];
  };
  order.sort((a, b) => {
    const [ta, ra, aa] = key(a);
    const [tb, rb, ab] = key(b);
    return ta - tb || ra - rb || aa - ab || a - b;
  });
  const pairOf = (i: number): string => {
    const r = plan[i] as Planned;
    return `${r.task}\0${r.rep}`;
  };
  const pairs = new Set(plan.map((_, i) => pairOf(i))).size;
  const out = new Array<number>(plan.length).fill(1);
  if (pairs >= count) {
    let k = -1;
    let last: string | null = null;
    for (const i of order) {
      const p = pairOf(i);
      if (p !== last) {
        k++;
        last = p;
      }
      out[i] = (k % count) + 1;
    }
  } else order.forEach((i, k) => (out[i] = (k % count) + 1));
  return out;
}

/**
 * The runs of `plan` in shard `shard`, in plan order; bad input when the shard holds none (a plan
 * of fewer runs than shards).
 */
export function shardRuns<T extends Planned>(plan: readonly T[], shard: Shard): T[] {
  const of = shardOfEach(plan, shard.count);
  const mine = plan.filter((_, i) => of[i] === shard.index);
  if (mine.length === 0)
    throw new InputError(
      `--shard ${shardText(shard)}: this shard holds no run: the plan has ${plan.length} run(s), fewer than ${shard.count} shards (use --shard I/N with N at most ${plan.length})`,
      { field: "--shard" },
    );
  return mine;
}
