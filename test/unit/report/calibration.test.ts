/**
 * A/A calibration (src/report/calibration, docs/statistics.md §13): flip rates, the split by
 * repetition and the random splits read by the verdict rule; when a calibration applies to a
 * comparison, and the noise floor the comparison then shows.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import type { RunReport } from "../../../src/core/report.js";
import {
  buildCalibration,
  calibrationDifferences,
  unquotableFloor,
} from "../../../src/report/calibration/build.js";
import type { Calibration } from "../../../src/report/calibration/types.js";
import { buildComparison } from "../../../src/report/comparison/build.js";
import { makeReport, type RunSpec } from "./helpers.js";

const settings = { treatment: "CONTROL", per_arm: 2, splits: 100, seed: 1, margin: 0.05 };

/** One task's runs of a treatment: "P" passes, "F" fails, "X" is excluded. */
function runs(
  task: string,
  pattern: string,
  extra: RunSpec = {},
  treatment = "CONTROL",
): RunReport[] {
  return [...pattern].map((ch, i) =>
    makeReport({
      ...extra,
      task,
      treatment,
      rep: i + 1,
      passed: ch === "P",
      quality: ch === "X" ? "excluded" : "included",
    }),
  );
}

const calibrate = (reports: RunReport[], s = settings): Calibration =>
  buildCalibration({ reports, settings: s, experimentId: "cal-1", scripted: false });

describe("buildCalibration", () => {
  const reports = [
    ...runs("steady", "PPPP"),
    ...runs("flaky", "PFPF"),
    ...runs("x", "PP", {}, "OTHER"),
  ];
  const c = calibrate(reports);

  it("pair disagreement per task (the share of pairs of its runs that disagree); the flip rate as a comparison's", () => {
    expect(c.tasks).toEqual([
      { task: "steady", runs: 4, passes: 4, pass_rate: 1, pair_disagreement: 0 },
      {
        task: "flaky",
        runs: 4,
        passes: 2,
        pass_rate: 0.5,
        pair_disagreement: (2 * 2 * 2) / (4 * 3),
      },
    ]);
    expect(c.task_flip_rate).toBe(0.5);
    expect(c.mean_pair_disagreement).toBeCloseTo(1 / 3, 12);
    expect(c.runs).toEqual({ raw: 8, analysis: 8, excluded: 0 });
  });

  it("the first per_arm repetitions against the rest", () => {
    // steady PP vs PP, flaky PF vs PF: Δ 0, far too few runs to be non-inferior
    expect(c.split_by_rep).toMatchObject({ delta: 0, band: "inconclusive" });
  });

  it("random splits: every split read, the noise floor from |Δ|", () => {
    const r = c.resampled;
    expect(r?.splits).toBe(100);
    const b = r?.bands;
    expect(
      (b?.improved ?? 0) + (b?.regressed ?? 0) + (b?.non_inferior ?? 0) + (b?.inconclusive ?? 0),
    ).toBe(100);
    // halves of 2 + 2 runs: |Δ| is 0, 0.25 or 0.5 (flaky PP|FF puts 2 of 4 passes apart)
    expect([0, 0.25, 0.5]).toContain(r?.delta_abs_max);
    expect(r?.delta_abs_p95).toBeLessThanOrEqual(r?.delta_abs_max ?? 0);
    expect(r?.claim_rate).toBe(((b?.improved ?? 0) + (b?.regressed ?? 0)) / 100);
  });

  it("is deterministic (seeded) and changes with the seed", () => {
    expect(calibrate(reports)).toEqual(c);
    const other = calibrate(reports, { ...settings, seed: 2 });
    expect(other.resampled?.splits).toBe(100);
  });

  it("a treatment that always passes never differs from itself", () => {
    const all = calibrate(runs("steady", "PPPPPP"), { ...settings, per_arm: 3 });
    expect(all.resampled).toMatchObject({ claim_rate: 0, delta_abs_p95: 0, delta_abs_max: 0 });
    expect(all.task_flip_rate).toBe(0);
  });

  it("excluded runs are counted, not split", () => {
    const x = calibrate(runs("flaky", "PXFXPF"), { ...settings, per_arm: 3 });
    expect(x.runs).toEqual({ raw: 6, analysis: 4, excluded: 2 });
    expect(x.tasks[0]).toMatchObject({ runs: 4, passes: 2 });
  });

  it("with fewer than 2 runs per task there is nothing to split", () => {
    const one = calibrate(runs("steady", "P"), { ...settings, per_arm: 1 });
    expect(one.resampled).toBeNull();
    expect(one.split_by_rep).toBeNull();
    expect(one.tasks[0]?.pair_disagreement).toBeNull();
  });
});

describe("calibrationDifferences", () => {
  const cal = calibrate([...runs("steady", "PPPP"), ...runs("flaky", "PFPF")]);
  const compared = (extra: RunSpec, treatment = "CONTROL", task = "steady"): RunReport[] =>
    runs(task, "PP", extra, treatment);
  it.each<[string, RunReport[], boolean, string[]]>([
    ["same agent, model, task and Skills", compared({}), false, []],
    [
      "another model",
      compared({ model: "other" }),
      false,
      ["model: calibrated claude-test, now other"],
    ],
    [
      "another agent version",
      compared({ agentVersion: "9.9.9" }),
      false,
      ["agent version: calibrated 2.1.328, now 9.9.9"],
    ],
    [
      "the scripted model instead of a real one",
      compared({}),
      true,
      ["endpoint: calibrated real, now scripted"],
    ],
    [
      "the task's content changed",
      compared({ taskHash: `sha256:${"c".repeat(64)}` }),
      false,
      ["task steady: its content changed since the calibration"],
    ],
    ["no task in common", compared({}, "CONTROL", "other-task"), false, ["no task in common"]],
    [
      "the treatment is not compared",
      compared({}, "SKILL"),
      false,
      ["treatment CONTROL is not compared here"],
    ],
  ])("%s", (_name, reports, scripted, want) => {
    expect(calibrationDifferences(cal, reports, scripted)).toEqual(want);
  });
  it("a Skill that changed", () => {
    const withSkill = calibrate(runs("steady", "PFPF", { skills: [{ name: "s", hash: "h1" }] }));
    expect(
      calibrationDifferences(
        withSkill,
        runs("steady", "PP", { skills: [{ name: "s", hash: "h2" }] }),
        false,
      ),
    ).toEqual(["skills of CONTROL: calibrated s@h1, now s@h2"]);
  });
});

describe("unquotableFloor: never a floor from fewer than 5 runs per arm", () => {
  it.each<[string, Calibration, string | null]>([
    [
      "5 per arm, 10 runs on every task",
      calibrate([...runs("a", "P".repeat(10)), ...runs("b", "PF".repeat(5))], {
        ...settings,
        per_arm: 5,
      }),
      null,
    ],
    [
      "--count 2",
      calibrate(runs("a", "PFPF")),
      "2 run(s) per arm (--count 2) is below the minimum of 5",
    ],
    [
      "5 per arm asked, 2 runs lost to exclusion",
      calibrate(runs("a", "PFPFPXPFXF"), { ...settings, per_arm: 5 }),
      "a has 8 analysis-set run(s), fewer than 10 (5 per arm)",
    ],
  ])("%s", (_name, cal, want) => {
    expect(unquotableFloor(cal)).toBe(want);
  });
});

describe("the noise floor in a comparison", () => {
  const cal = calibrate([...runs("steady", "P".repeat(10)), ...runs("flaky", "PF".repeat(5))], {
    ...settings,
    per_arm: 5,
  });
  const reports = [
    ...runs("steady", "PP"),
    ...runs("flaky", "PF"),
    ...runs("steady", "PP", {}, "SKILL"),
    ...runs("flaky", "PP", {}, "SKILL"),
  ];
  const found = (c: Calibration, explicit: boolean) => [
    { dir: "/results/cal", calibration: c, explicit },
  ];

  it("a matching calibration of the baseline is shown beside the delta", () => {
    const c = buildComparison({ reports, metadata: null, calibrations: found(cal, false) });
    expect(c.noise_floor).toMatchObject({
      dir: "/results/cal",
      treatment: "CONTROL",
      arm: "baseline",
      per_arm: 5,
      splits: 100,
      delta_abs_p95: cal.resampled?.delta_abs_p95,
      delta_beyond_floor: Math.abs(c.verdict.delta ?? 0) > (cal.resampled?.delta_abs_p95 ?? 0),
    });
  });

  it("one that does not match is left out, unless it was named (then: exit 2 with the differences)", () => {
    const other = { ...cal, fingerprint: { ...cal.fingerprint, model: "other-model" } };
    expect(
      buildComparison({ reports, metadata: null, calibrations: found(other, false) }).noise_floor,
    ).toBeNull();
    expect(() =>
      buildComparison({ reports, metadata: null, calibrations: found(other, true) }),
    ).toThrow(InputError);
    expect(() =>
      buildComparison({ reports, metadata: null, calibrations: found(other, true) }),
    ).toThrow(/model: calibrated other-model, now claude-test/);
  });

  it("one from 2 runs per arm is never quoted; named, it is refused with the reason", () => {
    const few = calibrate([...runs("steady", "PPPP"), ...runs("flaky", "PFPF")]);
    expect(
      buildComparison({ reports, metadata: null, calibrations: found(few, false) }).noise_floor,
    ).toBeNull();
    expect(() =>
      buildComparison({ reports, metadata: null, calibrations: found(few, true) }),
    ).toThrow(
      /its noise floor is not quoted: 2 run\(s\) per arm \(--count 2\) is below the minimum of 5/,
    );
  });

  it("without any, there is none", () => {
    expect(buildComparison({ reports, metadata: null }).noise_floor).toBeNull();
  });
});
