/**
 * Lift when the Skill fired (src/report/comparison/band.ts `liftOf`, docs/statistics.md §9):
 * intent to treat over every analysis-set run, per protocol over the candidate's runs that invoked
 * one of its own Skills, each arm's invocation rate, and the silent-bypass flag.
 */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { liftOf } from "../../../src/report/comparison/band.js";
import { makeReport, type RunSpec } from "./helpers.js";

const SKILL = [{ name: "house-style", hash: `sha256:${"b".repeat(64)}` }];
const roles = { candidate: "SKILL", baseline: "CONTROL", control: "CONTROL" };

interface Run {
  passed: boolean;
  /** Skills the run invoked */
  invoked?: string[];
  quality?: RunSpec["quality"];
}

function arm(
  treatment: string,
  runs: Run[],
  skills = treatment === "SKILL" ? SKILL : [],
): RunReport[] {
  return runs.map((r, i) => {
    const rep = makeReport({
      treatment,
      rep: i + 1,
      passed: r.passed,
      skills,
      quality: r.quality,
    });
    if (rep.events_summary) rep.events_summary.skills_invoked = r.invoked ?? [];
    return rep;
  });
}

const fired = (passed: boolean): Run => ({ passed, invoked: ["house-style"] });
const bypassed = (passed: boolean): Run => ({ passed });
const control = arm("CONTROL", [
  { passed: true },
  { passed: true },
  { passed: false },
  { passed: false },
]);

describe("liftOf", () => {
  it.each<{
    name: string;
    candidate: RunReport[];
    itt: number | null;
    pp: number | null;
    ppRuns: number;
    rate: number | null;
    bypass: boolean;
  }>([
    {
      name: "Skill fired in 3 of 4 runs, which pass; the bypassed run fails",
      candidate: arm("SKILL", [fired(true), fired(true), fired(true), bypassed(false)]),
      itt: 0.75 - 0.5,
      pp: 1 - 0.5,
      ppRuns: 3,
      rate: 0.75,
      bypass: false,
    },
    {
      name: "Skill fired in 1 of 4 runs: a silent bypass",
      candidate: arm("SKILL", [fired(true), bypassed(false), bypassed(true), bypassed(false)]),
      itt: 0.5 - 0.5,
      pp: 1 - 0.5,
      ppRuns: 1,
      rate: 0.25,
      bypass: true,
    },
    {
      name: "exactly half is not fewer than half",
      candidate: arm("SKILL", [fired(true), fired(false), bypassed(true), bypassed(true)]),
      itt: 0.75 - 0.5,
      pp: 0.5 - 0.5,
      ppRuns: 2,
      rate: 0.5,
      bypass: false,
    },
    {
      name: "invoking another Skill is not invoking its own",
      candidate: arm("SKILL", [
        { passed: true, invoked: ["other-skill"] },
        { passed: true, invoked: ["other-skill"] },
      ]),
      itt: 1 - 0.5,
      pp: null,
      ppRuns: 0,
      rate: 0,
      bypass: true,
    },
    {
      name: "excluded runs count in neither the rates nor the deltas",
      candidate: arm("SKILL", [
        fired(true),
        fired(true),
        { passed: false, quality: "excluded" },
        { passed: false, quality: "excluded" },
      ]),
      itt: 1 - 0.5,
      pp: 1 - 0.5,
      ppRuns: 2,
      rate: 1,
      bypass: false,
    },
    {
      name: "a candidate that installs no Skill has no invocation rate and no bypass",
      candidate: arm("SKILL", [bypassed(true), bypassed(false)], []),
      itt: 0.5 - 0.5,
      pp: null,
      ppRuns: 0,
      rate: null,
      bypass: false,
    },
  ])("$name", ({ candidate, itt, pp, ppRuns, rate, bypass }) => {
    const l = liftOf([...candidate, ...control], roles, 1);
    if (itt === null) expect(l.itt.delta).toBeNull();
    else expect(l.itt.delta).toBeCloseTo(itt, 12);
    if (pp === null) expect(l.per_protocol.delta).toBeNull();
    else expect(l.per_protocol.delta).toBeCloseTo(pp, 12);
    expect(l.per_protocol.runs).toBe(ppRuns);
    expect(l.invocation_rate).toEqual({ candidate: rate, baseline: null });
    expect(l.silent_bypass).toBe(bypass);
    // every delta that exists comes with an interval around it
    for (const d of [l.itt, l.per_protocol])
      if (d.delta !== null) {
        expect(d.ci?.low).toBeLessThanOrEqual(d.delta);
        expect(d.ci?.high).toBeGreaterThanOrEqual(d.delta);
      }
  });

  it("the baseline's invocation rate is its own Skills' (a Skill baseline)", () => {
    const base = arm(
      "CONTROL",
      [fired(true), bypassed(true), bypassed(true), bypassed(true)],
      SKILL,
    );
    const cand = arm("SKILL", [fired(true), fired(true)]);
    expect(liftOf([...cand, ...base], roles, 1).invocation_rate).toEqual({
      candidate: 1,
      baseline: 0.25,
    });
  });
});
