import { Slots } from "../util/pool.js";

/**
 * A run's way through the schedule (scheduleRuns): it prepares, then asks for an agent slot, then
 * for a checks slot; each slot taken gives back the one before it.
 */
export interface RunPassage {
  /**
   * Wait for an agent slot (the run's preparation slot is then given back). False when the runs
   * were stopped first: the run ends without starting its agent.
   */
  toAgent(): Promise<boolean>;
  /**
   * Wait for a checks slot (the agent slot is then given back). Never refused: a run whose agent
   * ran is always checked and recorded, stop or not.
   */
  toChecks(): Promise<void>;
}

/** The passage of a run executed on its own (a test, or a caller without a schedule). */
export const unscheduled: RunPassage = {
  toAgent: () => Promise.resolve(true),
  toChecks: () => Promise.resolve(),
};

/**
 * Run `work` over `items` in three stages, each with at most `limit` runs in it: preparing (the
 * run folder, workspace and sandbox, before the agent), the agent, and the checks (evidence,
 * validators, scoring, judge, records). So `limit` agents run at once while the next runs prepare
 * and the finished ones are checked beside them: at most 3 × `limit` runs are under way, and a run
 * waiting for the next stage keeps its slot, so a stage that is slow holds back the ones before it
 * instead of piling runs up (docs/ARCHITECTURE.md, "Scheduling runs"). Runs enter in the order of
 * `items` and take each stage's slots in that order.
 *
 * `stop` ends the admission of runs (those not admitted are returned as skipped) and refuses an
 * agent slot to every run still waiting for one; runs past their agent go on to the end.
 * `beside` is asked when a run takes its agent slot while others are in their checks: when it
 * answers false, that agent waits until those checks have ended, and does not start if they
 * stopped the runs (the caller's way to keep an agent from starting before what the checks find,
 * a full disk, is known). `work` should not throw (a run records its own failures); if it does,
 * the error goes to onError and the other runs go on.
 */
export async function scheduleRuns<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, passage: RunPassage) => Promise<void>,
  opts: {
    stop?: AbortSignal | undefined;
    beside?: (() => Promise<boolean>) | undefined;
    onError?: (item: T, e: unknown) => void;
  } = {},
): Promise<{ started: number; skipped: T[] }> {
  const width = Math.max(1, limit);
  const preparing = new Slots(width);
  const agents = new Slots(width);
  const checking = new Slots(width);
  const under = new Set<Promise<void>>();
  // The ends of the runs in their checks.
  const checked = new Set<Promise<void>>();
  let next = 0;
  while (next < items.length && (await preparing.take(opts.stop))) {
    const item = items[next++] as T;
    const held = { preparing: true, agent: false, checks: false };
    const end = { run: Promise.resolve() };
    const passage: RunPassage = {
      toAgent: async () => {
        if (!held.preparing) return held.agent;
        if (!(await agents.take(opts.stop))) return false;
        held.preparing = false;
        held.agent = true;
        preparing.give();
        if (checked.size > 0 && opts.beside && !(await opts.beside())) {
          await Promise.all(checked);
          if (opts.stop?.aborted) return false;
        }
        return true;
      },
      toChecks: async () => {
        if (held.checks) return;
        await checking.take();
        held.checks = true;
        checked.add(end.run);
        if (held.preparing) preparing.give();
        if (held.agent) agents.give();
        held.preparing = false;
        held.agent = false;
      },
    };
    end.run = work(item, passage)
      .catch((e: unknown) => opts.onError?.(item, e))
      .finally(() => {
        if (held.preparing) preparing.give();
        if (held.agent) agents.give();
        if (held.checks) checking.give();
        under.delete(end.run);
        checked.delete(end.run);
      });
    under.add(end.run);
  }
  await Promise.all(under);
  return { started: next, skipped: items.slice(next) };
}
