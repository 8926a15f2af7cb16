/** skill_adherence in the generic rubric (docs/trajectory.md): when it shows, how it scores. Pure. */
import { describe, expect, it } from "vitest";
import { agentDriver } from "../../../src/agents/index.js";
import type { Evidence } from "../../../src/core/evidence.js";
import { genericProfile, scoreRubric } from "../../../src/scoring/index.js";
import { StepsSchema } from "../../../src/trajectory/index.js";
import { rubricInput } from "./helpers.js";

function calls(...c: [string, Record<string, unknown>][]): Evidence["tool_calls"] {
  return c.map(([name, input], i) => ({
    id: `t${i}`,
    name,
    input,
    output: null,
    is_error: null,
    turn: 1,
    parent_tool_use_id: null,
  }));
}

/** Claude Code opens the Skill, writes the report; it never reads references/format.md. */
const RUN = {
  tool_calls: calls(["Skill", { skill: "stepper" }], ["Write", { file_path: "report.md" }]),
  skills_invoked: ["stepper"],
};

const STEPS = {
  skill: "stepper",
  ordered: true,
  expect: [
    { reads_skill_file: "SKILL.md" },
    { name: "read the format", reads_skill_file: "references/format.md" },
    { writes: "report.md" },
  ],
};

function adherence(steps: unknown, ev: Partial<Evidence> = RUN) {
  const r = scoreRubric(genericProfile, {
    ...rubricInput({
      evidence: ev,
      task: { skill_steps: steps === null ? null : StepsSchema.parse(steps) },
    }),
    tool_vocabulary: agentDriver("claude")!.toolVocabulary,
  });
  return { r, d: r.dimensions.find((x) => x.name === "skill_adherence") };
}

describe("skill_adherence", () => {
  it("is left out of the rubric of a task without steps (its rubric reads as before)", () => {
    const { r, d } = adherence(null);
    expect(d).toBeUndefined();
    expect(r.dimensions).toHaveLength(7);
    expect(r.rubric_lines.some((l) => l.includes("skill_adherence"))).toBe(false);
  });

  it.each([
    [
      "three steps, one skipped",
      STEPS,
      RUN,
      2 / 3,
      "2/3 steps met in order; missed: read the format (no tool call matches)",
    ],
    [
      "unordered, written before the Skill was opened",
      { ...STEPS, ordered: false, expect: [STEPS.expect[2], STEPS.expect[0]] },
      {
        ...RUN,
        tool_calls: calls(["Write", { file_path: "report.md" }], ["Skill", { skill: "stepper" }]),
      },
      1,
      "2/2 steps met",
    ],
    [
      "a forbidden step taken scores 0",
      { ...STEPS, forbidden: [{ tool: "command", command: "rm -rf" }] },
      { ...RUN, tool_calls: [...RUN.tool_calls, ...calls(["Bash", { command: "rm -rf build" }])] },
      0,
      "2/3 steps met in order; missed: read the format (no tool call matches); forbidden step taken: tool command · command /rm -rf/ at #3 (Bash)",
    ],
    [
      "only forbidden steps, none taken",
      { forbidden: [{ command: "rm -rf" }] },
      RUN,
      1,
      "0/0 steps met",
    ],
  ])("%s", (_what, steps, ev, score, reason) => {
    const { d } = adherence(steps, ev);
    expect(d?.score).toBeCloseTo(score, 12);
    expect(d?.reason).toBe(reason);
    expect(d?.weight).toBe(1);
  });

  it("is N/A when the Skill did not fire", () => {
    const { r, d } = adherence(STEPS, { ...RUN, skills_invoked: ["other"] });
    expect(d?.score).toBeNull();
    expect(d?.reason).toBe("the Skill did not fire (stepper not invoked)");
    expect(r.dimensions).toHaveLength(8);
  });

  it("without a named Skill, any Skill invoked counts as firing", () => {
    const { skill: _skill, ...anySkill } = STEPS;
    expect(adherence(anySkill, { ...RUN, skills_invoked: [] }).d?.score).toBeNull();
    expect(adherence(anySkill).d?.score).toBeCloseTo(2 / 3, 12);
  });

  it("one check per step, forbidden steps as their own checks", () => {
    const { d } = adherence({ ...STEPS, forbidden: [{ command: "rm -rf" }] });
    expect(d?.checks).toEqual([
      { name: "step 1: reads_skill_file SKILL.md", passed: true },
      { name: "step 2: read the format", passed: false },
      { name: "step 3: writes report.md", passed: true },
      { name: "forbidden: command /rm -rf/", passed: true },
    ]);
  });
});
