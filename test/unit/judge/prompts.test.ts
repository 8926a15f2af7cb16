import { describe, expect, it } from "vitest";
import { parseJudgeAnswer } from "../../../src/judge/parse.js";
import {
  baselineText,
  buildGenericPrompt,
  buildRepairPrompt,
  genericDimensions,
  withAnswerFormat,
} from "../../../src/judge/prompts.js";
import {
  buildCometPrompt,
  COMET_DIMENSIONS,
} from "../../../src/scoring/profiles/comet-workflow/judge.js";

describe("generic prompt", () => {
  it.each<[string[], string[]]>([
    [[], ["task_completion", "output_quality", "instruction_adherence"]],
    [
      ["uses tables", "cites sources"],
      ["task_completion", "output_quality", "instruction_adherence", "custom_0", "custom_1"],
    ],
  ])("dimensions for %j", (criteria, dims) => {
    expect(genericDimensions(criteria)).toEqual(dims);
  });

  it.each<[string, { passed: string[]; failed: string[] }, string[], string[]]>([
    ["no checks", { passed: [], failed: [] }, ["(no baseline checks)"], ["Passed:"]],
    [
      "counts",
      { passed: ["a", "b"], failed: ["c"] },
      ["Passed: 2, Failed: 1", "Failed checks:", "- c"],
      [],
    ],
    [
      "rubric lines are not checks; at most 10 failed listed",
      { passed: ["[RUBRIC] x: 1", "ok"], failed: Array.from({ length: 12 }, (_, i) => `f${i}`) },
      ["Passed: 1, Failed: 12", "- f9", "(2 more)"],
      ["- f10"],
    ],
  ])("baseline: %s", (_n, b, has, hasNot) => {
    const t = baselineText(b);
    for (const s of has) expect(t).toContain(s);
    for (const s of hasNot) expect(t).not.toContain(s);
  });

  it("carries the criteria, the instruction, the dump and the answer format", () => {
    const p = buildGenericPrompt({
      baseline: { passed: ["a"], failed: [] },
      rubricCriteria: ["uses tables"],
      workspaceDump: "\n=== a.txt ===\nhello\n",
      instruction: "Write a.txt",
    });
    expect(p.startsWith("You are an impartial judge scoring an AI agent's task execution.")).toBe(
      true,
    );
    for (const s of [
      "Additional task-specific criteria:",
      "- custom_0: uses tables",
      "Write a.txt",
      "=== Workspace artifacts ===",
      "=== a.txt ===",
      "```json",
      "[RUBRIC-JUDGE] custom_0: <score> - <reason>",
    ])
      expect(p).toContain(s);
  });
});

describe("comet prompt", () => {
  it("names the change and the three dimensions", () => {
    const p = withAnswerFormat(
      buildCometPrompt({
        changeDir: "docs/openspec/changes/x",
        proposal: "P",
        design: "(missing: design.md)",
        tasks: "T",
        report: "(none)",
        spec: "(none)",
      }),
      COMET_DIMENSIONS,
    );
    expect(
      p.startsWith("You are an impartial judge scoring a software-development workflow run."),
    ).toBe(true);
    for (const s of [
      "docs/openspec/changes/x",
      "(missing: design.md)",
      '"artifact_quality"',
      '"spec_drift"',
      '"main_flow"',
    ])
      expect(p).toContain(s);
  });
});

describe("repair prompt", () => {
  it("holds the bad answer and the format; the bad answer itself does not parse", () => {
    const dims = genericDimensions([]);
    const p = buildRepairPrompt("ORIGINAL", "garbage answer", dims);
    expect(p).toContain("ORIGINAL");
    expect(p).toContain("garbage answer");
    expect(p).toContain("could not be parsed");
    expect(parseJudgeAnswer("garbage answer", dims).ok).toBe(false);
  });
});
