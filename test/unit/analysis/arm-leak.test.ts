import { describe, expect, it } from "vitest";
// The registry hands evidence the registered agents' Skill folders when it loads.
import "../../../src/agents/registry.js";
import { runArmProblems, type RunArmInput } from "../../../src/analysis/arm-leak.js";
import type { ToolCall } from "../../../src/core/evidence.js";

const call = (name: string, input: Record<string, unknown>, is_error: boolean | null = false) =>
  ({
    id: null,
    name,
    input,
    output: null,
    is_error,
    turn: 1,
    parent_tool_use_id: null,
  }) satisfies ToolCall;

const FROZEN = new Map([["SKILL.md", "aaa"]]);
const base = (over: Partial<RunArmInput>): RunArmInput => ({
  evidence: { tool_calls: [], skills_invoked: [] },
  installed: [],
  underTest: new Set(["house-style"]),
  roots: ["/ws"],
  workspaceSha: () => undefined,
  ...over,
});

describe("runArmProblems", () => {
  it.each<[string, Partial<RunArmInput>, Array<[string, string, string | null]>]>([
    ["nothing seen", {}, []],
    [
      "Claude Code's Skill tool in an arm without the Skill",
      { evidence: { tool_calls: [], skills_invoked: ["house-style"] } },
      [["arm_leak", "house-style", null]],
    ],
    [
      "a Read of the Skill's file (absolute path) in an arm without it",
      {
        evidence: {
          tool_calls: [call("Read", { file_path: "/ws/.claude/skills/house-style/SKILL.md" })],
          skills_invoked: [],
        },
      },
      [["arm_leak", "house-style", ".claude/skills/house-style/SKILL.md"]],
    ],
    [
      "Codex's shell read of .agents/skills (command and raw name it twice: one problem)",
      {
        evidence: {
          tool_calls: [
            call("command_execution", {
              command: "cat .agents/skills/house-style/SKILL.md",
              raw: "bash -lc 'cat .agents/skills/house-style/SKILL.md'",
            }),
          ],
          skills_invoked: [],
        },
      },
      [["arm_leak", "house-style", ".agents/skills/house-style/SKILL.md"]],
    ],
    [
      "a failed read saw nothing",
      {
        evidence: {
          tool_calls: [call("Read", { file_path: ".claude/skills/house-style/SKILL.md" }, true)],
          skills_invoked: [],
        },
      },
      [],
    ],
    [
      "a Skill no treatment installs is not the one under test",
      { evidence: { tool_calls: [], skills_invoked: ["pdf"] } },
      [],
    ],
    [
      "the arm's own Skill, read unchanged",
      {
        installed: [{ name: "house-style", files: FROZEN }],
        evidence: {
          tool_calls: [call("Read", { file_path: ".claude/skills/house-style/SKILL.md" })],
          skills_invoked: ["house-style"],
        },
        workspaceSha: (rel) => (rel === ".claude/skills/house-style/SKILL.md" ? "aaa" : undefined),
      },
      [],
    ],
    [
      "the arm's own Skill, read with other content than the frozen copy",
      {
        installed: [{ name: "house-style", files: FROZEN }],
        evidence: {
          tool_calls: [call("Read", { file_path: "/ws/.claude/skills/house-style/SKILL.md" })],
          skills_invoked: [],
        },
        workspaceSha: () => "bbb",
      },
      [["skill_drift", "house-style", ".claude/skills/house-style/SKILL.md"]],
    ],
    [
      "own Skill, content not known (not hashed): no drift claimed",
      {
        installed: [{ name: "house-style", files: FROZEN }],
        evidence: {
          tool_calls: [call("Read", { file_path: ".claude/skills/house-style/SKILL.md" })],
          skills_invoked: [],
        },
        workspaceSha: () => null,
      },
      [],
    ],
  ])("%s", (_name, over, want) => {
    expect(runArmProblems(base(over)).map((p) => [p.kind, p.skill, p.path])).toEqual(want);
  });
});
