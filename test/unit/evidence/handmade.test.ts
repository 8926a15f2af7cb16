/**
 * Hand-written transcripts (test/fixtures/transcripts/handmade/, described in its README.md),
 * each shaped like a Claude Code version that emits it. Every expected figure was worked out by
 * hand from the fixture; the arithmetic is written next to it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Evidence } from "../../../src/core/evidence.js";
import { EvidenceSchema } from "../../../src/core/evidence.js";
import { MAX_TOOL_TEXT, parseEvidence } from "../../../src/evidence/index.js";
import { init, line, lines, result, toolUse } from "./events.js";

const DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/transcripts/handmade",
);

function parseFixture(name: string, preexisting: string[] = []): Evidence {
  const text = readFileSync(path.join(DIR, `${name}.jsonl`), "utf8");
  const ev = parseEvidence(text, { workspace: "/ws", preexisting: new Set(preexisting) });
  expect(EvidenceSchema.parse(ev)).toEqual(ev);
  return ev;
}

describe("hand-written transcripts", () => {
  it("multi-result, one process, no model_usage_since_last_result: running totals are differenced", () => {
    const ev = parseFixture("multi-result-cumulative");
    // result 1: cost 0.0102, api 800 ms; result 2 (running totals): cost 0.0185, api 1400 ms.
    // Summing would give 0.0287 (55 % too high) and 2200 ms.
    expect(ev.total_cost_usd).toBeCloseTo(0.0185, 10);
    expect(ev.duration_api_ms).toBe(1400);
    // per-turn figures add: 1000 + 1500 ms, 1 + 2 turns, usage 100+70 in, 10+11 out
    expect(ev.duration_ms).toBe(2500);
    expect(ev.num_turns).toBe(3);
    expect(ev.tokens).toEqual({
      input: 170,
      output: 21,
      cache_read: 0,
      cache_creation: 0,
      total: 191,
    });
    // per model: the last running total (sonnet 170/21, haiku 40/4)
    expect(ev.model_usage["claude-sonnet-4"]).toMatchObject({ inputTokens: 170, outputTokens: 21 });
    expect(ev.model_usage["claude-sonnet-4"]?.costUSD).toBeCloseTo(0.0181, 10);
    expect(ev.model_usage["claude-haiku-3-5"]).toMatchObject({ inputTokens: 40, outputTokens: 4 });
    expect(ev.model_usage["claude-haiku-3-5"]?.costUSD).toBeCloseTo(0.0004, 10);
    expect(ev.model_usage["claude-sonnet-4"]?.contextWindow).toBe(200000);
    expect(ev.results.map((r) => r.result)).toEqual(["Turn one answer.", "Turn two answer."]);
    expect(ev.tool_calls.map((c) => [c.name, c.turn])).toEqual([["Bash", 2]]);
    expect(ev.session_ids).toEqual(["sess-multi"]);
  });

  it("subagent calls count in tool_calls, commands and file lists, and are reported apart", () => {
    const ev = parseFixture("subagents", ["README.md"]);
    expect(ev.tool_calls.map((c) => [c.name, c.parent_tool_use_id])).toEqual([
      ["Task", null],
      ["Bash", "toolu_task"],
      ["Read", "toolu_task"],
      ["Write", "toolu_task"],
      ["Edit", null],
    ]);
    expect(ev.subagent_tool_calls).toBe(3); // Bash, Read, Write
    expect(ev.commands_run).toEqual(["grep -r port config/"]);
    expect(ev.files_read).toEqual(["config/app.yml"]);
    expect(ev.files_created).toEqual(["notes/port.md"]);
    expect(ev.files_modified).toEqual(["README.md"]);
    // the subagent's 9000..9300-token contexts are its own; the main agent peaked at 800
    expect(ev.peak_context_tokens).toBe(800);
    expect(ev.tool_calls[0]?.output).toBe("The port is 8080.");
    expect(ev.result_text).toBe("Documented the port.");
  });

  it("MCP tools are tool calls under their full names, never file reads or commands", () => {
    const ev = parseFixture("mcp-tools");
    expect(ev.tool_calls.map((c) => [c.name, c.is_error, c.output])).toEqual([
      ["mcp__github__create_issue", false, "Created issue #12"],
      ["mcp__fs__read_file", true, "MCP error -32602: path outside allowed directories"],
    ]);
    expect(ev.files_read).toEqual([]);
    expect(ev.commands_run).toEqual([]);
    expect(ev.subagent_tool_calls).toBe(0);
    expect(ev.total_cost_usd).toBe(0.003);
  });

  it("thinking blocks are skipped; a process killed before its result is an error with the last text", () => {
    const ev = parseFixture("thinking-no-result");
    expect(ev.results).toEqual([]);
    expect(ev.is_error).toBe(true);
    // msg_2 and msg_3 hold only thinking/tool_use blocks: the last text is msg_1's
    expect(ev.result_text).toBe("Here is a partial summary.");
    expect(ev.tool_calls.map((c) => c.name)).toEqual(["Read"]);
    expect(ev.files_read).toEqual(["spec.md"]);
    expect(ev.diagnostics.unknown_types).toEqual({});
    expect([ev.total_cost_usd, ev.duration_ms, ev.duration_api_ms, ev.tokens]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it("image tool results become [image] markers, never base64", () => {
    const ev = parseFixture("image-results");
    expect(ev.tool_calls.map((c) => c.output)).toEqual([
      "[image]",
      "Screenshot of http://localhost:3000\n[image]",
    ]);
    expect(JSON.stringify(ev)).not.toContain("iVBORw0KGgo");
    expect(ev.files_read).toEqual(["shot.png"]);
  });

  it("stream_event partials add nothing: the complete assistant events carry the content", () => {
    const ev = parseFixture("stream-partials");
    expect(ev.tool_calls.map((c) => [c.name, c.input, c.output])).toEqual([
      ["Bash", { command: "npm test" }, "2 passing"],
    ]);
    expect(ev.commands_run).toEqual(["npm test"]);
    expect(ev.diagnostics).toMatchObject({ unknown_types: {}, malformed_lines: [], lines: 17 });
    // contexts 120 (msg_1, twice) and 160 (msg_2)
    expect(ev.peak_context_tokens).toBe(160);
    expect(ev.tokens?.total).toBe(304); // 280 + 24
  });

  it("non-JSON banner lines are reported by line number and skipped", () => {
    const ev = parseFixture("banner-lines");
    expect(ev.diagnostics).toMatchObject({
      lines: 8,
      malformed_lines: [1, 2, 3, 8], // the blank line 6 is not malformed
      non_object_lines: [],
      truncated_last_line: false,
    });
    expect(ev.agent.claude_code_version).toBe("1.0.3");
    expect(ev.result_text).toBe("Hello.");
    expect(ev.is_error).toBe(false);
  });

  it("error results: error_max_turns, is_error on a success subtype, a missing is_error", () => {
    const ev = parseFixture("error-results");
    expect(ev.results.map((r) => [r.subtype, r.is_error, r.api_error_status, r.result])).toEqual([
      ["error_max_turns", true, null, null],
      ["success", true, 500, 'API Error: 500 {"type":"error"}'],
      ["error_during_execution", true, null, null],
    ]);
    expect(ev.is_error).toBe(true);
    // the last result has no text: the last assistant text stands in
    expect(ev.result_text).toBe("Stopped while editing.");
    // three sessions, each its own counters: 0.004 + 0 + 0.001; 600 + 0 (+ none) ms
    expect(ev.total_cost_usd).toBeCloseTo(0.005, 10);
    expect(ev.duration_api_ms).toBe(600);
    expect(ev.duration_ms).toBe(1300); // 800 + 300 + 200
    expect(ev.num_turns).toBe(4); // 2 + 1 + 1
    expect(ev.tool_calls.map((c) => [c.name, c.is_error])).toEqual([["Bash", true]]);
    expect(ev.session_ids).toEqual(["sess-e1", "sess-e2", "sess-e3"]);
  });

  it("many init/result pairs: resumed counters differenced, restarted counters added in full", () => {
    const ev = parseFixture("many-init-result");
    // P1 sess-A: 0.02, 1000 ms, m 200/20
    // P2 sess-A resumed, counters restored: 0.05, 2500 ms, m 450/50; tokens grew by 280 = its
    //    turn's 250 + 30 -> running total: adds 0.03, 1500 ms, m 250/30
    // P3 sess-B fresh: adds 0.01, 400 ms, m 100/10
    // P4 sess-A resumed, counters not restored: m 380/20 is below 450/50 -> added in full:
    //    0.06, 1800 ms, m 380/20 (its cost alone, 0.06 > 0.05, would not have told)
    expect(ev.total_cost_usd).toBeCloseTo(0.12, 10); // 0.02 + 0.03 + 0.01 + 0.06
    expect(ev.duration_api_ms).toBe(4700); // 1000 + 1500 + 400 + 1800
    expect(ev.model_usage.m).toMatchObject({ inputTokens: 930, outputTokens: 80 });
    expect(ev.model_usage.m?.costUSD).toBeCloseTo(0.12, 10);
    expect(ev.tokens).toEqual({
      input: 930,
      output: 80,
      cache_read: 0,
      cache_creation: 0,
      total: 1010,
    });
    expect(ev.num_turns).toBe(10); // 2 + 3 + 1 + 4
    expect(ev.duration_ms).toBe(6300); // 1500 + 2000 + 600 + 2200
    expect(ev.session_ids).toEqual(["sess-A", "sess-B"]);
    expect(ev.results.map((r) => r.result)).toEqual(["P1", "P2", "P3", "P4"]);
    expect(ev.tool_calls.map((c) => [c.name, c.turn])).toEqual([["Bash", 3]]);
  });

  it("a line over 1 MB parses; its tool output is cut to the cap", () => {
    const big = "x".repeat(1_100_000);
    const t = lines(
      init(),
      toolUse("toolu_big", "Bash", { command: "cat big.log" }),
      line({
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_big", content: big }],
        },
        session_id: "s1",
      }),
      result(),
    );
    expect(t.split("\n")[2]?.length).toBeGreaterThan(1_048_576);
    const ev = parseEvidence(t, { workspace: "/ws" });
    expect(ev.diagnostics.malformed_lines).toEqual([]);
    const out = ev.tool_calls[0]?.output ?? "";
    expect(out.startsWith("x".repeat(MAX_TOOL_TEXT))).toBe(true);
    expect(out.slice(MAX_TOOL_TEXT)).toBe(
      `\n[skillbench: truncated ${1_100_000 - MAX_TOOL_TEXT} characters]`,
    );
  });
});
