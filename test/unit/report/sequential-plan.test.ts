import { describe, expect, it } from "vitest";
import { planSequential } from "../../../src/report/sequential/plan.js";
import { alphaSpent } from "../../../src/stats/index.js";

const base = { round: 2, alpha: 0.05, spending: "obrien_fleming" as const, margin: 0.05 };

describe("planSequential (run --until-decided, plan ahead)", () => {
  it("the three-task demo: tasks disagree, so --max-count cannot decide at 3 tasks; more tasks would", () => {
    // first round, 2 runs per task: the Skill passes everything; CONTROL fails two tasks and passes one
    const p = planSequential({
      ...base,
      a: { n: [2, 2, 2], c: [2, 2, 2] },
      b: { n: [2, 2, 2], c: [0, 0, 2] },
      count: 2,
      maxCount: 8,
    });
    expect(p).toMatchObject({
      tasks: 3,
      goal: "improvement",
      decidable: false,
      count_needed: null,
    });
    expect(p?.tasks_needed).toBeGreaterThan(3);
    expect(p?.text).toContain("cannot show improvement at 3 task(s): the tasks disagree");
    expect(p?.text).toContain(`About ${p?.tasks_needed} tasks as spread as these would`);
  });

  it("tasks that agree: --max-count can decide, and says by about how many repetitions", () => {
    const p = planSequential({
      ...base,
      a: { n: [2, 2, 2], c: [2, 2, 2] },
      b: { n: [2, 2, 2], c: [0, 0, 0] },
      count: 2,
      maxCount: 8,
    });
    expect(p).toMatchObject({ tasks: 3, goal: "improvement", decidable: true, tasks_needed: null });
    expect(p?.count_needed).toBeGreaterThanOrEqual(2);
    expect(p?.count_needed).toBeLessThanOrEqual(8);
    expect(p?.text).toMatch(
      /^Plan: if the first round's rates hold, --max-count 8 can show improvement at 3 task\(s\) \(by about \d+ repetitions per task\)\.$/,
    );
  });

  it("the last look's level is the α the spending function leaves for it", () => {
    const p = planSequential({
      ...base,
      a: { n: [2], c: [2] },
      b: { n: [2], c: [0] },
      count: 2,
      maxCount: 6,
    });
    // looks at 2, 4, 6: the last spends α(1) − α(4/6) (O'Brien–Fleming-like)
    expect(p?.alpha_last).toBeCloseTo(0.05 - alphaSpent(4 / 6, 0.05, "obrien_fleming"), 12);
  });

  it("no task both arms ran: no plan", () => {
    expect(
      planSequential({
        ...base,
        a: { n: [2, 0], c: [2, 0] },
        b: { n: [0, 2], c: [0, 1] },
        count: 2,
        maxCount: 4,
      }),
    ).toBeNull();
  });
});
