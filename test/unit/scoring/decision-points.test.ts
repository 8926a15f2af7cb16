import { describe, expect, it } from "vitest";
import { toScoringInput } from "../../../src/scoring/index.js";
import {
  decisionPointCompliance,
  type WorkflowKind,
} from "../../../src/scoring/profiles/comet-workflow/index.js";
import type { Evidence } from "../../../src/core/evidence.js";
import { rubricInput } from "./helpers.js";
import type { InputOverrides } from "./helpers.js";

function ask(n: number, name = "AskUserQuestion"): Evidence["tool_calls"] {
  return Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    name,
    input: {},
    output: null,
    is_error: null,
    turn: 1,
    parent_tool_use_id: null,
  }));
}

const T2 = ["comet transition x design-complete", "comet set x build_mode tdd"];

describe("decisionPointCompliance (asks = ask-tool calls + loop replies)", () => {
  it.each<[string, WorkflowKind, InputOverrides, number, string]>([
    ["no commands", "full", {}, 0, "no commands captured"],
    [
      "no mutations: neutral pass",
      "full",
      { evidence: { commands_run: ["pytest"] } },
      1,
      "no full decision mutations observed",
    ],
    [
      "one AskUserQuestion for two mutations (ratio 0.5 passes)",
      "full",
      { evidence: { commands_run: T2, tool_calls: ask(1) } },
      1,
      "workflow=full 1 asks (1 tool, 0 replies) for 2 mutations (ratio=0.50)",
    ],
    [
      "a plain-text question answered by the simulator counts (fixed: the original ignored it)",
      "full",
      {
        evidence: { commands_run: T2 },
        interaction: {
          mode: "auto_user",
          actual_turns: 3,
          simulated_replies: 1,
          deterministic_replies: 0,
        },
      },
      1,
      "workflow=full 1 asks (0 tool, 1 replies) for 2 mutations (ratio=0.50)",
    ],
    [
      "deterministic replies count too; 1 of 3 is too few",
      "full",
      {
        evidence: { commands_run: [...T2, "comet transition x verify-pass"] },
        interaction: { mode: "auto_user", actual_turns: 2, deterministic_replies: 1 },
      },
      0,
      "workflow=full 1 asks (0 tool, 1 replies) for 3 mutations (ratio=0.33)",
    ],
    [
      "no reply counts from the runner: actual_turns - 1 replies",
      "full",
      { evidence: { commands_run: T2 }, interaction: { mode: "auto_user", actual_turns: 3 } },
      1,
      "workflow=full 2 asks (0 tool, 2 replies) for 2 mutations (ratio=1.00)",
    ],
    [
      "single-turn ignores actual_turns",
      "full",
      { evidence: { commands_run: T2 }, interaction: { mode: "none", actual_turns: 3 } },
      0,
      "workflow=full 0 asks (0 tool, 0 replies) for 2 mutations (ratio=0.00)",
    ],
    [
      "other ask tools: ask_user, AskFollowUpQuestion",
      "full",
      {
        evidence: {
          commands_run: T2,
          tool_calls: [...ask(1, "ask_user"), ...ask(1, "AskFollowUpQuestion"), ...ask(3, "Bash")],
        },
      },
      1,
      "workflow=full 2 asks (2 tool, 0 replies) for 2 mutations (ratio=1.00)",
    ],
    [
      "hotfix: verify-pass is not a preset decision",
      "hotfix",
      { evidence: { commands_run: ["comet transition x verify-pass"] } },
      1,
      "no hotfix decision mutations observed",
    ],
    [
      "tweak: archive-reopen is",
      "tweak",
      { evidence: { commands_run: ["comet transition x archive-reopen"] } },
      0,
      "workflow=tweak 0 asks (0 tool, 0 replies) for 1 mutations (ratio=0.00)",
    ],
    [
      "full: design-complete twice in one command line counts twice",
      "full",
      {
        evidence: {
          commands_run: ["comet transition x design-complete && comet transition x build-complete"],
          tool_calls: ask(1),
        },
      },
      1,
      "workflow=full 1 asks (1 tool, 0 replies) for 2 mutations (ratio=0.50)",
    ],
  ])("%s", (_l, wf, o, score, reason) => {
    const ev = decisionPointCompliance(toScoringInput(rubricInput(o)), wf);
    const s =
      ev.score ??
      (ev.checks.length > 0 ? ev.checks.filter((c) => c.passed).length / ev.checks.length : 0);
    expect([s, ev.reason]).toEqual([score, reason]);
  });
});
