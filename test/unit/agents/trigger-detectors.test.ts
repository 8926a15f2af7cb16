/**
 * The trigger-decision watchers of Codex, Gemini CLI and opencode (src/agents/<name>/trigger.ts)
 * on streams recorded from the real CLIs against the scripted model
 * (test/fixtures/triggers-agents/streams/<agent>/: q1–q4 by test/e2e/triggers-agents.test.ts,
 * SKILLBENCH_RECORD_GOLDEN=1 rewrites them; none and files as its README says). Each row: the
 * Skill chosen and how, the line of the stream at which the choice shows (where the probe stops
 * the agent), the tool calls counted against the budget, and the end the watcher saw.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CodexDecisionWatcher } from "../../../src/agents/codex/trigger.js";
import { GeminiDecisionWatcher } from "../../../src/agents/gemini/trigger.js";
import { OpencodeDecisionWatcher } from "../../../src/agents/opencode/trigger.js";
import { skillInText, type DecisionWatcher } from "../../../src/agents/probe-turn.js";
import { codexDriver } from "../../../src/agents/codex/driver.js";
import { geminiDriver } from "../../../src/agents/gemini/driver.js";
import { opencodeDriver } from "../../../src/agents/opencode/driver.js";
import type { SkillDecision } from "../../../src/agents/types.js";
import { classifyProbe } from "../../../src/triggers/classify.js";

const STREAMS = path.join(__dirname, "../../fixtures/triggers-agents/streams");

const WATCHERS: Record<string, () => DecisionWatcher> = {
  codex: () => new CodexDecisionWatcher(codexDriver.skillFolders),
  gemini: () => new GeminiDecisionWatcher(geminiDriver.skillFolders),
  opencode: () => new OpencodeDecisionWatcher(opencodeDriver.skillFolders),
};

interface Row {
  agent: string;
  stream: string;
  decision: SkillDecision | null;
  /** 1-based line at which the decision shows; for no decision, the line the budget is passed at (or null). */
  stopAt: number | null;
  toolCalls: number;
  end: string | null;
}

const CW = "changelog-writer";
const DU = "dependency-updater";
const tool = (skill: string): SkillDecision => ({ skill, via: "skill_tool" });
const files = (skill: string): SkillDecision => ({ skill, via: "skill_files" });

// Expected values from the scripts: q1/q3 choose the Skill, q2 runs three commands (budget 2),
// q4 chooses a decoy, none answers "Done.", files reads the Skill's SKILL.md with a file tool.
const ROWS: Row[] = [
  // Codex: thread.started, turn.started, then the command item that opens the SKILL.md.
  { agent: "codex", stream: "q1", decision: files(CW), stopAt: 3, toolCalls: 0, end: null },
  { agent: "codex", stream: "q2", decision: null, stopAt: 7, toolCalls: 3, end: null },
  { agent: "codex", stream: "q3", decision: files(CW), stopAt: 3, toolCalls: 0, end: null },
  { agent: "codex", stream: "q4", decision: files(DU), stopAt: 3, toolCalls: 0, end: null },
  { agent: "codex", stream: "none", decision: null, stopAt: null, toolCalls: 0, end: "success" },
  { agent: "codex", stream: "files", decision: files(CW), stopAt: 3, toolCalls: 0, end: null },
  // Gemini CLI: init, the user message, then the tool_use.
  { agent: "gemini", stream: "q1", decision: tool(CW), stopAt: 3, toolCalls: 0, end: null },
  { agent: "gemini", stream: "q2", decision: null, stopAt: 7, toolCalls: 3, end: null },
  { agent: "gemini", stream: "q3", decision: tool(CW), stopAt: 3, toolCalls: 0, end: null },
  { agent: "gemini", stream: "q4", decision: tool(DU), stopAt: 3, toolCalls: 0, end: null },
  { agent: "gemini", stream: "none", decision: null, stopAt: null, toolCalls: 0, end: "success" },
  { agent: "gemini", stream: "files", decision: files(CW), stopAt: 3, toolCalls: 0, end: null },
  // opencode: step_start, then the finished tool call.
  { agent: "opencode", stream: "q1", decision: tool(CW), stopAt: 2, toolCalls: 0, end: null },
  { agent: "opencode", stream: "q2", decision: null, stopAt: 8, toolCalls: 3, end: null },
  { agent: "opencode", stream: "q3", decision: tool(CW), stopAt: 2, toolCalls: 0, end: null },
  { agent: "opencode", stream: "q4", decision: tool(DU), stopAt: 2, toolCalls: 0, end: null },
  { agent: "opencode", stream: "none", decision: null, stopAt: null, toolCalls: 0, end: "success" },
  { agent: "opencode", stream: "files", decision: files(CW), stopAt: 2, toolCalls: 0, end: null },
];

const BUDGET = 2;

describe("trigger decision watchers on recorded streams", () => {
  it.each(ROWS)("$agent $stream", (row) => {
    const text = readFileSync(path.join(STREAMS, row.agent, `${row.stream}.jsonl`), "utf8");
    const w = (WATCHERS[row.agent] as () => DecisionWatcher)();
    let stopAt: number | null = null;
    text.split("\n").forEach((l, i) => {
      w.push(l);
      if (stopAt === null && (w.state.decision !== null || w.toolCalls > BUDGET)) stopAt = i + 1;
    });
    expect(w.state.decision).toEqual(row.decision);
    expect(stopAt).toBe(row.stopAt);
    expect(w.toolCalls).toBe(row.toolCalls);
    expect(w.state.resultSubtype).toBe(row.end);
  });
});

describe("skillInText", () => {
  it.each([
    ["cat '/tmp/a/workspace/.agents/skills/cw/SKILL.md'", ["agents", "codex"], files("cw")],
    ["sed -n 1,20p .agents/skills/cw/SKILL.md", ["agents"], files("cw")],
    [".codex/skills/x/refs/a.md", ["agents", "codex"], files("x")],
    [".claude/skills/cw/SKILL.md", ["agents", "codex"], null],
    ["ls .agents/skills", ["agents"], null],
    ["cat my.agents/skills/cw/SKILL.md", ["agents"], null],
  ])("%s in %j → %j", (text, folders, want) => {
    expect(skillInText(text, folders)).toEqual(want);
  });
});

describe("classifyProbe with a spent tool-call budget", () => {
  it("is 'none (turn budget)', although the process was stopped", () => {
    expect(
      classifyProbe(
        {
          decision: null,
          agentOutcome: "aborted",
          resultSubtype: null,
          budgetSpent: true,
          detail: "",
        },
        "cw",
      ),
    ).toEqual({ kind: "none", why: "turn_budget" });
    expect(
      classifyProbe(
        { decision: null, agentOutcome: "aborted", resultSubtype: null, detail: "x" },
        "cw",
      ),
    ).toEqual({ kind: "invalid", reason: "harness_error", detail: "x" });
  });
});
