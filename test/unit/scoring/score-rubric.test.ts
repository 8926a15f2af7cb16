import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  builtinProfiles,
  genericProfile,
  resolveProfile,
  rubricAverage,
  scoreRubric,
  weightedScore,
} from "../../../src/scoring/index.js";
import type { DimensionResult, RubricProfile } from "../../../src/scoring/index.js";
import { rubricInput, toolCalls } from "./helpers.js";

describe("generic profile", () => {
  it("has the 7 dimensions and weights of docs/rubrics.md, and skill_adherence for declared steps", () => {
    expect(genericProfile.dimensions.map((d) => [d.name, d.weight])).toEqual([
      ["completion", 2.0],
      ["skill_invocation", 1.0],
      ["artifact_presence", 1.0],
      ["instruction_following", 1.0],
      ["interaction_compliance", 0.8],
      ["efficiency", 0.7],
      ["safety_boundary", 1.2],
      ["skill_adherence", 1.0],
    ]);
  });

  it("scores an empty run", () => {
    // completion 0.0 (w 2.0), skill_invocation N/A, artifact_presence N/A, instruction_following 1.0 (w 1.0),
    // interaction_compliance 1.0 (w 0.8), efficiency 1.0 (w 0.7), safety_boundary 1.0 (w 1.2).
    // weighted = (0*2 + 1*1 + 1*0.8 + 1*0.7 + 1*1.2) / (2 + 1 + 0.8 + 0.7 + 1.2) = 3.7 / 5.7 = 0.6491...
    // rubric_avg = (0 + 1 + 1 + 1 + 1) / 5 = 0.8
    const r = scoreRubric(genericProfile, rubricInput());
    expect(r.profile).toBe("generic");
    expect(r.weighted_score).toBeCloseTo(3.7 / 5.7, 12);
    expect(r.rubric_avg).toBeCloseTo(0.8, 12);
    expect(r.hard_failures).toEqual([]);
    expect(r.rubric_lines).toEqual([
      "[RUBRIC] completion: 0.00 - no baseline checks ran",
      "[RUBRIC] skill_invocation: N/A - no required_skills configured",
      "[RUBRIC] artifact_presence: N/A - no expected_artifacts configured",
      "[RUBRIC] instruction_following: 1.00 - no explicit constraint failures",
      "[RUBRIC] interaction_compliance: 1.00 - single-turn or no simulator",
      "[RUBRIC] efficiency: 1.00 - turns=0 tools=0 dur=0s",
      "[RUBRIC] safety_boundary: 1.00 - no dangerous command pattern observed",
      "[RUBRIC] weighted_score: 0.65",
    ]);
  });

  it("scores a mixed run", () => {
    // completion 3/4 = 0.75 (w 2.0); skill_invocation 1/2 = 0.5 (w 1.0); artifact_presence 1/2 = 0.5 (w 1.0);
    // instruction_following 0 (w 1.0); interaction_compliance 0 (w 0.8); efficiency 2/3 (w 0.7); safety 0 (w 1.2).
    // weighted = (1.5 + 0.5 + 0.5 + 0 + 0 + 0.4666.. + 0) / 7.7 = 2.9666.. / 7.7 = 0.3852..
    // rubric_avg = (0.75 + 0.5 + 0.5 + 0 + 0 + 0.6666.. + 0) / 7 = 2.41666.. / 7 = 0.3452..
    const input = rubricInput({
      baseline: { passed: ["a", "b", "c"], failed: ["constraint: no new dependencies"] },
      task: {
        required_skills: ["hello", "world"],
        expected_artifacts: [{ paths: ["out.md"] }, { paths: ["docs/*.md"] }],
        require_skill_invocation: true,
      },
      evidence: {
        skills_invoked: ["hello"],
        num_turns: 90,
        tool_calls: toolCalls(10),
        duration_ms: 30_000,
        commands_run: ["npm test", "rm -rf build"],
      },
      interaction: { mode: "auto_user", actual_turns: 13, max_turns: 12 },
      files: ["out.md"],
    });
    const r = scoreRubric(genericProfile, input);
    expect(r.dimensions.map((d) => d.score)).toEqual([0.75, 0.5, 0.5, 0, 0, 2 / 3, 0]);
    expect(r.weighted_score).toBeCloseTo((1.5 + 0.5 + 0.5 + 0.7 * (2 / 3)) / 7.7, 12);
    expect(r.rubric_avg).toBeCloseTo((0.75 + 0.5 + 0.5 + 2 / 3) / 7, 12);
    expect(r.rubric_lines.at(-1)).toBe("[RUBRIC] weighted_score: 0.39");
    expect(r.hard_failures).toEqual(["Required skill not invoked: world"]);
  });

  it("scores a perfect run 1.00", () => {
    const r = scoreRubric(
      genericProfile,
      rubricInput({
        baseline: { passed: ["ok"] },
        task: {
          required_skills: ["hello"],
          expected_artifacts: [{ paths: ["a"] }],
          require_skill_invocation: true,
        },
        evidence: { skills_invoked: ["hello"], num_turns: 3 },
        files: ["a"],
      }),
    );
    expect(r.weighted_score).toBe(1);
    expect(r.rubric_avg).toBe(1);
    expect(r.hard_failures).toEqual([]);
  });
});

describe("hard failures (require_skill_invocation)", () => {
  it.each<[string, { required: string[]; invoked: string[]; require: boolean }, string[]]>([
    ["not required", { required: ["a"], invoked: [], require: false }, []],
    ["all invoked", { required: ["a", "b"], invoked: ["b", "a"], require: true }, []],
    [
      "one per missing skill",
      { required: ["a", "b", "c", "b"], invoked: ["b"], require: true },
      ["Required skill not invoked: a", "Required skill not invoked: c"],
    ],
    ["N/A (none required) has nothing missing", { required: [], invoked: [], require: true }, []],
  ])("%s", (_label, c, expected) => {
    const input = rubricInput({
      task: { required_skills: c.required, require_skill_invocation: c.require },
      evidence: { skills_invoked: c.invoked },
    });
    expect(scoreRubric(genericProfile, input).hard_failures).toEqual(expected);
  });
});

function res(score: number | null, weight: number): DimensionResult {
  return { name: "d", weight, score, reason: "", checks: [] };
}

describe("weightedScore and rubricAverage", () => {
  it.each<[string, DimensionResult[], number, number | null]>([
    ["nothing applies", [res(null, 1), res(null, 2)], 0, null],
    ["no dimensions", [], 0, null],
    // (1*1 + 0*3) / 4 = 0.25; avg (1 + 0) / 2 = 0.5
    ["weights matter", [res(1, 1), res(0, 3)], 0.25, 0.5],
    // N/A excluded from both: (0.5*2) / 2 = 0.5
    ["N/A excluded", [res(0.5, 2), res(null, 5)], 0.5, 0.5],
    // all weights 0 -> 0; avg still the plain mean (0.2 + 0.4) / 2 = 0.3
    ["zero weights", [res(0.2, 0), res(0.4, 0)], 0, 0.3],
  ])("%s", (_label, dims, weighted, avg) => {
    expect(weightedScore(dims)).toBeCloseTo(weighted, 12);
    const a = rubricAverage(dims);
    if (avg === null) expect(a).toBeNull();
    else expect(a).toBeCloseTo(avg, 12);
  });
});

describe("custom profiles", () => {
  const base: Omit<RubricProfile, "dimensions"> = {
    name: "custom",
    emptyChecks: { score: 0, reason: "no checks" },
  };

  it("uses emptyChecks for a dimension without checks, and an explicit score over passed/total", () => {
    const profile: RubricProfile = {
      ...base,
      dimensions: [
        { name: "empty", weight: 1, evaluate: () => ({ checks: [], reason: "ignored" }) },
        {
          name: "explicit",
          weight: 1,
          evaluate: () => ({
            checks: [
              { name: "x", passed: false },
              { name: "y", passed: true },
            ],
            score: 0.9,
            reason: "r",
          }),
        },
        { name: "na", weight: 3, evaluate: () => ({ checks: [], reason: "r", na: "not today" }) },
      ],
    };
    const r = scoreRubric(profile, rubricInput());
    // (0*1 + 0.9*1) / 2 = 0.45
    expect(r.weighted_score).toBeCloseTo(0.45, 12);
    expect(r.rubric_lines).toEqual([
      "[RUBRIC] empty: 0.00 - no checks",
      "[RUBRIC] explicit: 0.90 - r",
      "[RUBRIC] na: N/A - not today",
      "[RUBRIC] weighted_score: 0.45",
    ]);
    expect(r.hard_failures).toEqual([]);
  });

  it.each<[string, RubricProfile, RegExp]>([
    [
      "score above 1",
      {
        ...base,
        dimensions: [
          { name: "d", weight: 1, evaluate: () => ({ checks: [], score: 1.5, reason: "" }) },
        ],
      },
      /outside \[0, 1\]/,
    ],
    [
      "NaN score",
      {
        ...base,
        dimensions: [
          { name: "d", weight: 1, evaluate: () => ({ checks: [], score: Number.NaN, reason: "" }) },
        ],
      },
      /outside/,
    ],
    [
      "negative weight",
      {
        ...base,
        dimensions: [{ name: "d", weight: -1, evaluate: () => ({ checks: [], reason: "" }) }],
      },
      /invalid weight/,
    ],
    [
      "duplicate names",
      {
        ...base,
        dimensions: [
          { name: "d", weight: 1, evaluate: () => ({ checks: [], reason: "" }) },
          { name: "d", weight: 1, evaluate: () => ({ checks: [], reason: "" }) },
        ],
      },
      /duplicate dimension d/,
    ],
  ])("refuses a broken profile: %s", (_label, profile, message) => {
    expect(() => scoreRubric(profile, rubricInput())).toThrow(message);
  });
});

describe("resolveProfile", () => {
  it("finds built-ins", () => {
    expect(resolveProfile("generic")).toBe(genericProfile);
    expect(Object.keys(builtinProfiles)).toEqual(["generic", "comet-workflow", "authoring-skill"]);
    expect(resolveProfile("comet-workflow").name).toBe("comet-workflow");
    expect(resolveProfile("authoring-skill").name).toBe("authoring-skill");
  });

  it("a suite profile with a built-in name overrides it, and suite names are listed", () => {
    const mine: RubricProfile = {
      name: "generic",
      dimensions: [],
      emptyChecks: { score: 0, reason: "x" },
    };
    const extra: RubricProfile = {
      name: "extra",
      dimensions: [],
      emptyChecks: { score: 0, reason: "x" },
    };
    expect(resolveProfile("generic", { generic: mine, extra })).toBe(mine);
    expect(resolveProfile("extra", { generic: mine, extra })).toBe(extra);
    expect(() => resolveProfile("nope", { extra })).toThrow(
      "Profile not found: nope. Available: authoring-skill, comet-workflow, extra, generic",
    );
  });

  it.each(["nope", "toString", "__proto__"])("unknown name %s is an InputError", (name) => {
    expect(() => resolveProfile(name)).toThrow(InputError);
    expect(() => resolveProfile(name)).toThrow(
      `Profile not found: ${name}. Available: authoring-skill, comet-workflow, generic`,
    );
  });
});
