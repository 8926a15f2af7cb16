/** `--shard I/N`: the slicer (plan/shard.ts) and the plan record merge checks (plan/plan-record.ts). */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { planRuns, type RunSpec } from "../../../src/plan/matrix.js";
import {
  planDifferences,
  planRecord,
  type ArmSettings,
  type PlanArm,
} from "../../../src/plan/plan-record.js";
import { parseShard, shardOfEach, shardRuns } from "../../../src/plan/shard.js";

function plan(tasks: number, treatments: string[], count: number, agents = ["claude"]): RunSpec[] {
  return planRuns({
    tasks: Array.from({ length: tasks }, (_, i) => ({ name: `t${i}`, default_treatments: [] })),
    treatments,
    treatmentFilter: null,
    count,
    agentsOf: () => agents,
  });
}

const pairOf = (r: RunSpec): string => `${r.task}/r${r.rep}`;

describe("parseShard", () => {
  it.each([
    ["1/1", { index: 1, count: 1 }],
    ["2/5", { index: 2, count: 5 }],
    [" 3 / 3 ", { index: 3, count: 3 }],
  ])("reads %s", (text, want) => expect(parseShard(text)).toEqual(want));

  it.each([
    ["2", /expected I\/N/],
    ["a/b", /expected I\/N/],
    ["0/3", /I must be from 1 to N \(3\)/],
    ["4/3", /I must be from 1 to N \(3\)/],
    ["1/0", /N must be from 1 to 1000/],
    ["1/1001", /N must be from 1 to 1000/],
    ["-1/3", /expected I\/N/],
    ["1.5/3", /expected I\/N/],
  ])("refuses %s, naming the flag", (text, message) => {
    expect(() => parseShard(text)).toThrow(InputError);
    expect(() => parseShard(text)).toThrow(message);
    expect(() => parseShard(text)).toThrow(/--shard/);
  });
});

describe("shardRuns", () => {
  const cases: Array<[string, RunSpec[], number]> = [
    ["1 task × 2 arms × 3 reps, 3 shards", plan(1, ["CONTROL", "SKILL"], 3), 3],
    ["2 tasks × 2 arms × 2 reps, 3 shards", plan(2, ["CONTROL", "SKILL"], 2), 3],
    ["3 tasks × 3 arms × 5 reps, 4 shards", plan(3, ["CONTROL", "A", "B"], 5), 4],
    ["5 tasks × 2 arms × 1 rep, 2 shards", plan(5, ["CONTROL", "SKILL"], 1), 2],
    [
      "2 tasks × 2 arms × 2 agents × 3 reps, 5 shards",
      plan(2, ["C", "S"], 3, ["claude", "codex"]),
      5,
    ],
    ["1 task × 2 arms × 1 rep, 2 shards (fewer pairs than shards)", plan(1, ["C", "S"], 1), 2],
    ["7 tasks × 2 arms × 10 reps, 1 shard", plan(7, ["C", "S"], 10), 1],
  ];

  it.each(cases)("%s: every run in exactly one shard, in plan order", (_, runs, n) => {
    const slices = Array.from({ length: n }, (_, i) => shardRuns(runs, { index: i + 1, count: n }));
    const all = slices.flat().map((r) => r.run_id);
    expect(all.length).toBe(runs.length);
    expect(new Set(all).size).toBe(runs.length);
    for (const s of slices) {
      const at = s.map((r) => runs.indexOf(r));
      expect(at).toEqual([...at].sort((a, b) => a - b));
    }
  });

  it.each(cases)("%s: balanced (runs, and each task's pairs, within one pair)", (_, runs, n) => {
    const pairs = new Set(runs.map(pairOf)).size;
    const perPair = runs.length / pairs;
    const slices = Array.from({ length: n }, (_, i) => shardRuns(runs, { index: i + 1, count: n }));
    const sizes = slices.map((s) => s.length);
    const unit = pairs >= n ? perPair : 1;
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(unit);
    if (pairs < n) return;
    // Every arm the same number of times in a shard (whole pairs), and each task's pairs spread.
    for (const s of slices) {
      const byArm = new Map<string, number>();
      for (const r of s)
        byArm.set(`${r.treatment}@${r.agent}`, (byArm.get(`${r.treatment}@${r.agent}`) ?? 0) + 1);
      expect(new Set(byArm.values()).size).toBeLessThanOrEqual(1);
      const shardPairs = new Set(s.map(pairOf));
      expect(s.length).toBe(shardPairs.size * perPair);
    }
    for (const task of new Set(runs.map((r) => r.task))) {
      const counts = slices.map((s) => new Set(s.filter((r) => r.task === task).map(pairOf)).size);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it("is a function of the whole plan: the same slice every time, whatever has run", () => {
    const runs = plan(3, ["CONTROL", "SKILL"], 4);
    const a = shardOfEach(runs, 3);
    expect(shardOfEach([...runs], 3)).toEqual(a);
    // A copy of the plan's specs (as --resume plans them again) gives the same ids.
    const again = plan(3, ["CONTROL", "SKILL"], 4);
    expect(shardRuns(again, { index: 2, count: 3 }).map((r) => r.run_id)).toEqual(
      shardRuns(runs, { index: 2, count: 3 }).map((r) => r.run_id),
    );
  });

  it("deals (task, rep) pairs round-robin in (task, rep) order", () => {
    const runs = plan(2, ["CONTROL", "SKILL"], 2);
    const of = shardOfEach(runs, 3);
    const byPair = Object.fromEntries(runs.map((r, i) => [pairOf(r), of[i]]));
    expect(byPair).toEqual({ "t0/r1": 1, "t0/r2": 2, "t1/r1": 3, "t1/r2": 1 });
  });

  it("deals single runs when the plan has fewer pairs than shards", () => {
    const runs = plan(1, ["CONTROL", "SKILL"], 1);
    expect(shardRuns(runs, { index: 1, count: 2 }).map((r) => r.run_id)).toEqual(["t0-CONTROL-r1"]);
    expect(shardRuns(runs, { index: 2, count: 2 }).map((r) => r.run_id)).toEqual(["t0-SKILL-r1"]);
  });

  it("refuses a shard that holds no run, saying how many runs the plan has", () => {
    const runs = plan(1, ["CONTROL", "SKILL"], 1);
    expect(() => shardRuns(runs, { index: 3, count: 3 })).toThrow(
      /--shard 3\/3: this shard holds no run: the plan has 2 run\(s\), fewer than 3 shards/,
    );
  });
});

describe("plan records", () => {
  const settings: ArmSettings = {
    agent: "claude-code",
    model: "m1",
    endpoint: "scripted",
    endpoint_at: "sha256:abc",
    sandbox: "bwrap",
    profile: "default",
    judge: "off",
    interaction: "none",
    interaction_settings: "sha256:def",
    timeout_sec: "600",
    skills: "none",
  };
  const arm = (task: string, treatment: string, s: Partial<ArmSettings> = {}): PlanArm => ({
    task,
    treatment,
    agent: "claude",
    settings: { ...settings, ...s },
  });
  const arms = [arm("t", "CONTROL"), arm("t", "SKILL", { skills: "greeter" })];

  it("has one fingerprint per arms and repetitions", () => {
    expect(planRecord(arms, 2, 4).fingerprint).toBe(planRecord([...arms], 2, 4).fingerprint);
    expect(planRecord(arms, 3, 6).fingerprint).not.toBe(planRecord(arms, 2, 4).fingerprint);
  });

  it.each([
    ["the same plan", planRecord(arms, 2, 4), []],
    ["more repetitions", planRecord(arms, 3, 6), ["repetitions (--count): A 2, B 3"]],
    [
      "an arm more",
      planRecord([...arms, arm("u", "CONTROL")], 2, 6),
      ["planned only in B: u × CONTROL (claude)"],
    ],
    [
      "another model",
      planRecord([arm("t", "CONTROL", { model: "m2" }), arms[1] as PlanArm], 2, 4),
      ["model: A m1, B m2"],
    ],
    [
      "another timeout for a task",
      planRecord([arm("t", "CONTROL", { timeout_sec: "60" }), arms[1] as PlanArm], 2, 4),
      ["task t: timeout_sec: A 600, B 60"],
    ],
    ["the arms in another order", planRecord([...arms].reverse(), 2, 4), [/order/]],
  ])("names the difference: %s", (_, b, want) => {
    const got = planDifferences(planRecord(arms, 2, 4), b, { a: "A", b: "B" });
    expect(got.length).toBe(want.length);
    want.forEach((w, i) =>
      typeof w === "string" ? expect(got[i]).toBe(w) : expect(got[i]).toMatch(w),
    );
  });
});
