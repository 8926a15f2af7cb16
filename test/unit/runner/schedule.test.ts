import { describe, expect, it } from "vitest";
import { scheduleRuns } from "../../../src/runner/schedule.js";
import { Slots } from "../../../src/util/pool.js";

type Stage = "preparing" | "waiting-agent" | "agent" | "waiting-checks" | "checks" | "done";
type Step = "prepare" | "agent" | "checks";

/** Lets every promise that can settle do so (one macrotask turn: no timing involved). */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Fake runs: each stage's work is a promise the test resolves (or rejects) by hand, and the
 * stage every run is in is recorded, with the most runs ever seen in each stage.
 */
function fakeRuns(count: number) {
  const stage = new Map<number, Stage>();
  const most = { preparing: 0, agent: 0, checks: 0 };
  const open = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const count_ = (s: Stage) => [...stage.values()].filter((x) => x === s).length;
  const enter = (i: number, s: Stage) => stage.set(i, s);
  // Counted once everything has settled: a slot given back and the next run's start are two
  // steps of the same hand-over.
  const sample = () => {
    most.preparing = Math.max(most.preparing, count_("preparing") + count_("waiting-agent"));
    most.agent = Math.max(most.agent, count_("agent") + count_("waiting-checks"));
    most.checks = Math.max(most.checks, count_("checks"));
  };
  const step = (i: number, s: Step) =>
    new Promise<void>((resolve, reject) => open.set(`${i}:${s}`, { resolve, reject }));
  const finish = async (i: number, s: Step, error?: Error) => {
    const d = open.get(`${i}:${s}`);
    if (!d) throw new Error(`run ${i} is not in its ${s} step`);
    open.delete(`${i}:${s}`);
    if (error) d.reject(error);
    else d.resolve();
    await settled();
    sample();
  };
  const items = Array.from({ length: count }, (_, i) => i);
  const work = async (
    i: number,
    passage: { toAgent(): Promise<boolean>; toChecks(): Promise<void> },
  ) => {
    try {
      enter(i, "preparing");
      await step(i, "prepare");
      enter(i, "waiting-agent");
      if (!(await passage.toAgent())) return;
      enter(i, "agent");
      await step(i, "agent");
      enter(i, "waiting-checks");
      await passage.toChecks();
      enter(i, "checks");
      await step(i, "checks");
    } finally {
      enter(i, "done");
    }
  };
  const inStage = (s: Stage) => [...stage.entries()].filter(([, x]) => x === s).map(([i]) => i);
  return { items, work, finish, inStage, most, stage, sample };
}

describe("scheduleRuns", () => {
  it("runs one agent at a time at -j1, the next run prepared and the last one checked beside it", async () => {
    const f = fakeRuns(4);
    const all = scheduleRuns(f.items, 1, f.work);
    await settled();
    f.sample();
    expect(f.inStage("preparing")).toEqual([0]);
    await f.finish(0, "prepare");
    expect(f.inStage("agent")).toEqual([0]);
    expect(f.inStage("preparing")).toEqual([1]);
    await f.finish(1, "prepare");
    // Prepared, run 1 waits for the agent slot; run 2 waits for a preparation slot.
    expect(f.inStage("waiting-agent")).toEqual([1]);
    expect(f.stage.has(2)).toBe(false);
    await f.finish(0, "agent");
    expect(f.inStage("checks")).toEqual([0]);
    expect(f.inStage("agent")).toEqual([1]);
    expect(f.inStage("preparing")).toEqual([2]);
    await f.finish(2, "prepare");
    await f.finish(1, "agent");
    // Run 0's checks hold the one checks slot: run 1 keeps its agent slot, so run 2 waits.
    expect(f.inStage("waiting-checks")).toEqual([1]);
    expect(f.inStage("waiting-agent")).toEqual([2]);
    expect(f.stage.has(3)).toBe(false);
    await f.finish(0, "checks");
    expect(f.inStage("checks")).toEqual([1]);
    expect(f.inStage("agent")).toEqual([2]);
    expect(f.inStage("preparing")).toEqual([3]);
    await f.finish(3, "prepare");
    await f.finish(1, "checks");
    await f.finish(2, "agent");
    await f.finish(2, "checks");
    await f.finish(3, "agent");
    await f.finish(3, "checks");
    await expect(all).resolves.toEqual({ started: 4, skipped: [] });
    expect(f.inStage("done")).toEqual([0, 1, 2, 3]);
    expect(f.most).toEqual({ preparing: 1, agent: 1, checks: 1 });
  });

  it("bounds each stage by -j at -j2", async () => {
    const f = fakeRuns(8);
    const all = scheduleRuns(f.items, 2, f.work);
    await settled();
    expect(f.inStage("preparing")).toEqual([0, 1]);
    for (const i of [0, 1, 2, 3]) await f.finish(i, "prepare");
    expect(f.inStage("agent")).toEqual([0, 1]);
    expect(f.inStage("waiting-agent")).toEqual([2, 3]);
    expect(f.stage.has(4)).toBe(false);
    for (const i of [0, 1]) await f.finish(i, "agent");
    for (const i of [4, 5]) await f.finish(i, "prepare");
    for (const i of [2, 3]) await f.finish(i, "agent");
    // Two runs in their checks, two agents waiting for them, two prepared: nothing more starts.
    expect(f.inStage("checks")).toEqual([0, 1]);
    expect(f.inStage("waiting-checks")).toEqual([2, 3]);
    expect(f.inStage("waiting-agent")).toEqual([4, 5]);
    expect(f.stage.has(6)).toBe(false);
    for (const i of [0, 1]) await f.finish(i, "checks");
    for (const i of [6, 7]) await f.finish(i, "prepare");
    for (const i of [2, 3, 4, 5, 6, 7]) {
      if (f.inStage("agent").includes(i)) await f.finish(i, "agent");
    }
    while (f.inStage("done").length < 8) {
      const [checked] = f.inStage("checks");
      const [agent] = f.inStage("agent");
      if (checked !== undefined) await f.finish(checked, "checks");
      else if (agent !== undefined) await f.finish(agent, "agent");
      else throw new Error(`stuck: ${JSON.stringify([...f.stage])}`);
    }
    await expect(all).resolves.toEqual({ started: 8, skipped: [] });
    expect(f.most).toEqual({ preparing: 2, agent: 2, checks: 2 });
  });

  it("on stop, starts no agent for a prepared run and admits no more, but checks the runs past their agent", async () => {
    const f = fakeRuns(5);
    const stop = new AbortController();
    const all = scheduleRuns(f.items, 1, f.work, { stop: stop.signal });
    await settled();
    await f.finish(0, "prepare");
    await f.finish(1, "prepare");
    await f.finish(0, "agent");
    await f.finish(2, "prepare");
    await f.finish(1, "agent");
    expect(f.inStage("checks")).toEqual([0]);
    expect(f.inStage("waiting-checks")).toEqual([1]);
    expect(f.inStage("waiting-agent")).toEqual([2]);
    stop.abort();
    await settled();
    // Run 2 gives up its wait for an agent; runs 0 and 1 are checked to the end.
    expect(f.stage.get(2)).toBe("done");
    await f.finish(0, "checks");
    await f.finish(1, "checks");
    await expect(all).resolves.toEqual({ started: 3, skipped: [3, 4] });
    expect(f.stage.has(3)).toBe(false);
  });

  it("goes on when a run throws, and gives back the slots it held", async () => {
    const f = fakeRuns(3);
    const errors: Array<[number, string]> = [];
    const all = scheduleRuns(f.items, 1, f.work, {
      onError: (i, e) => errors.push([i, e instanceof Error ? e.message : String(e)]),
    });
    await settled();
    await f.finish(0, "prepare", new Error("workspace copy failed"));
    expect(f.inStage("preparing")).toEqual([1]);
    await f.finish(1, "prepare");
    await f.finish(1, "agent");
    await f.finish(2, "prepare");
    await f.finish(1, "checks", new Error("validator crashed"));
    expect(f.inStage("agent")).toEqual([2]);
    await f.finish(2, "agent");
    expect(f.inStage("checks")).toEqual([2]);
    await f.finish(2, "checks");
    await expect(all).resolves.toEqual({ started: 3, skipped: [] });
    expect(errors).toEqual([
      [0, "workspace copy failed"],
      [1, "validator crashed"],
    ]);
  });
});

describe("scheduleRuns, when an agent may not start beside other runs' checks (low disk)", () => {
  it("starts the agent once the runs then in their checks have ended", async () => {
    const f = fakeRuns(3);
    const all = scheduleRuns(f.items, 1, f.work, { beside: () => Promise.resolve(false) });
    await settled();
    await f.finish(0, "prepare");
    await f.finish(1, "prepare");
    await f.finish(0, "agent");
    // Run 1 holds the agent slot but its agent waits for run 0's checks.
    expect(f.inStage("checks")).toEqual([0]);
    expect(f.inStage("waiting-agent")).toEqual([1]);
    await f.finish(0, "checks");
    expect(f.inStage("agent")).toEqual([1]);
    await f.finish(2, "prepare");
    await f.finish(1, "agent");
    await f.finish(1, "checks");
    await f.finish(2, "agent");
    await f.finish(2, "checks");
    await expect(all).resolves.toEqual({ started: 3, skipped: [] });
  });

  it("starts no agent when those checks stopped the runs", async () => {
    const f = fakeRuns(3);
    const stop = new AbortController();
    const all = scheduleRuns(f.items, 1, f.work, {
      stop: stop.signal,
      beside: () => Promise.resolve(false),
    });
    await settled();
    await f.finish(0, "prepare");
    await f.finish(1, "prepare");
    await f.finish(0, "agent");
    expect(f.inStage("waiting-agent")).toEqual([1]);
    // Run 0's checks find the disk full: they stop the runs, then end.
    stop.abort();
    await f.finish(0, "checks");
    expect(f.stage.get(1)).toBe("done");
    // Run 2 was admitted when run 1 took the agent slot; prepared, it is refused one too.
    await f.finish(2, "prepare");
    expect(f.stage.get(2)).toBe("done");
    expect(f.inStage("agent")).toEqual([]);
    await expect(all).resolves.toEqual({ started: 3, skipped: [] });
  });
});

describe("Slots", () => {
  it("serves waiters in the order they asked, and drops one whose stop is aborted", async () => {
    const slots = new Slots(1);
    expect(await slots.take()).toBe(true);
    const order: string[] = [];
    const stopB = new AbortController();
    const a = slots.take().then((ok) => order.push(`a:${String(ok)}`));
    const b = slots.take(stopB.signal).then((ok) => order.push(`b:${String(ok)}`));
    const c = slots.take().then((ok) => order.push(`c:${String(ok)}`));
    stopB.abort();
    await b;
    slots.give();
    await a;
    slots.give();
    await c;
    expect(order).toEqual(["b:false", "a:true", "c:true"]);
    // c holds the one slot: an already-aborted stop is refused at once.
    expect(await slots.take(AbortSignal.abort())).toBe(false);
  });
});
