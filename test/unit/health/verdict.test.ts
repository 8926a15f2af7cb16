import { describe, expect, it } from "vitest";
import type { HealthSummary } from "../../../src/core/health.js";
import { buildComparison } from "../../../src/report/comparison/index.js";
import { makeMetadata, makeReport } from "../report/helpers.js";

// CAND passes a, b and c; CONTROL passes only c: b is the broken task the preflight found.
const reports = ["a", "b", "c"].flatMap((task) =>
  [1, 2, 3].flatMap((rep) => [
    makeReport({ task, treatment: "CAND", rep, passed: true }),
    makeReport({ task, treatment: "CONTROL", rep, passed: task === "c" }),
  ]),
);
const summary = (o: Partial<HealthSummary> = {}): HealthSummary => ({
  tasks: 3,
  sound: 2,
  verified: 1,
  unverified: 1,
  left_out: [{ task: "b", reasons: ["oracle_failed (x)"] }],
  inconclusive: [],
  ...o,
});
const compare = (health?: HealthSummary) =>
  buildComparison({
    reports,
    metadata: { ...makeMetadata(["CONTROL", "CAND"]), ...(health ? { health } : {}) },
    ks: [1],
  });

describe("the verdict and the preflight's task health", () => {
  it("without health the comparison is as before (no health field)", () => {
    const c = compare();
    expect(c.health).toBeUndefined();
    expect(c.paired.tasks).toEqual(["a", "b", "c"]);
  });

  it("a left-out task is not compared, and the line names it and counts the verified tasks", () => {
    const c = compare(summary());
    expect(c.paired.tasks).toEqual(["a", "c"]);
    expect(c.health?.line).toBe(
      "Task health: 2 of 3 task(s) sound; 1 left out of the comparison: b (oracle_failed (x)); 1 verified by a reference solution.",
    );
  });

  it("no problem: every task compared, the line still says how many were verified", () => {
    const c = compare(summary({ sound: 3, left_out: [] }));
    expect(c.paired.tasks).toEqual(["a", "b", "c"]);
    expect(c.health?.line).toBe(
      "Task health: 3 of 3 task(s) sound; 1 verified by a reference solution.",
    );
  });

  it("every task left out: inconclusive, with the reason", () => {
    const c = compare(
      summary({
        sound: 0,
        left_out: ["a", "b", "c"].map((task) => ({ task, reasons: ["vacuous"] })),
      }),
    );
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.reason).toContain("every compared task was left out");
  });

  it("a problem of an inconclusive kind makes the band inconclusive", () => {
    const c = compare(
      summary({ inconclusive: [{ task: "a", reason: "arm_leak: read SKILL.md" }] }),
    );
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.headline).toContain("arm_leak: read SKILL.md");
  });
});
