import { describe, expect, it } from "vitest";
import type { Evidence } from "../../../src/core/evidence.js";
import { EvidenceSchema } from "../../../src/core/evidence.js";
import { EvidenceBuilder } from "../../../src/agents/claude/decoder.js";
import { MAX_TOOL_TEXT, parseEvidence, resultTextOf } from "../../../src/evidence/index.js";
import { init, line, lines, result, text, toolResult, toolUse, WS } from "./events.js";

function parse(t: string, preexisting: string[] = []): Evidence {
  return EvidenceSchema.parse(
    parseEvidence(t, { workspace: WS, preexisting: new Set(preexisting) }),
  );
}

describe("diagnostics", () => {
  it.each([
    [
      "non-object JSON lines",
      lines(init(), "42", '"str"', "[1,2]", "null", result()),
      { non_object_lines: [2, 3, 4, 5], malformed_lines: [] },
    ],
    [
      "malformed lines",
      lines(init(), '{"type":', "not json", result()),
      { malformed_lines: [2, 3], non_object_lines: [] },
    ],
    [
      "blank lines are counted, not malformed",
      lines(init(), "", "   ", result()),
      { lines: 4, malformed_lines: [] },
    ],
    ["CRLF line ends", `${init()}\r\n${result()}\r\n`, { lines: 2, malformed_lines: [] }],
    [
      "unknown and missing types",
      lines(
        init(),
        line({ type: "rate_limit_event" }),
        line({ type: "rate_limit_event" }),
        line({ x: 1 }),
        line({ type: 7 }),
      ),
      { unknown_types: { rate_limit_event: 2, "(missing)": 2 } },
    ],
    [
      "stream_event is known",
      lines(init(), line({ type: "stream_event", event: { type: "message_start" } })),
      { unknown_types: {} },
    ],
    [
      "truncated last line",
      `${init()}\n{"type":"result","subty`,
      { truncated_last_line: true, malformed_lines: [2], lines: 2 },
    ],
    [
      "complete last line without newline",
      `${init()}\n${result()}`,
      { truncated_last_line: false, malformed_lines: [], lines: 2 },
    ],
    [
      "malformed line followed by newline is not truncation",
      `${init()}\n{"type":\n`,
      { truncated_last_line: false, malformed_lines: [2] },
    ],
    ["empty input", "", { lines: 0, truncated_last_line: false }],
  ])("%s", (_name, input, want) => {
    expect(parse(input).diagnostics).toMatchObject(want);
  });

  it("a non-object line does not stop later events", () => {
    const ev = parse(lines(init(), "[]", toolUse("t1", "Bash", { command: "ls" }), result()));
    expect(ev.commands_run).toEqual(["ls"]);
    expect(ev.results).toHaveLength(1);
  });
});

describe("tool calls", () => {
  it("pairs tool_use and tool_result by id, across events sharing one message id", () => {
    const ev = parse(
      lines(
        init(),
        text("first", "msg_1"),
        toolUse("a", "Bash", { command: "echo a" }, "msg_1"),
        toolUse("b", "Read", { file_path: `${WS}/x.txt` }, "msg_1"),
        toolResult("b", "B out"),
        toolResult("a", "A out", false),
        result(),
      ),
    );
    expect(ev.tool_calls.map((c) => [c.id, c.name, c.output, c.is_error, c.turn])).toEqual([
      ["a", "Bash", "A out", false, 1],
      ["b", "Read", "B out", false, 1],
    ]);
  });

  it.each([
    ["string content", "plain", "plain"],
    [
      "list content joined from text parts",
      [
        { type: "text", text: "one" },
        { type: "image", source: {} },
        { type: "text", text: "two" },
      ],
      "one\n[image]\ntwo",
    ],
    ["empty list", [], ""],
    ["missing content", undefined, null],
  ])("output from %s", (_n, content, want) => {
    const ev = parse(
      lines(init(), toolUse("a", "Bash", { command: "x" }), toolResult("a", content)),
    );
    expect(ev.tool_calls[0]?.output).toBe(want);
  });

  it.each([
    [true, true],
    [false, false],
    [undefined, false],
  ])("is_error %s -> %s", (flag, want) => {
    const ev = parse(
      lines(init(), toolUse("a", "Bash", { command: "x" }), toolResult("a", "o", flag)),
    );
    expect(ev.tool_calls[0]?.is_error).toBe(want);
  });

  it("a tool_use without result keeps null output and error flag", () => {
    const ev = parse(lines(init(), toolUse("a", "Bash", { command: "x" })));
    expect(ev.tool_calls[0]).toMatchObject({ output: null, is_error: null });
  });

  it("a tool_result before its tool_use is attached when the tool_use arrives", () => {
    const ev = parse(
      lines(init(), toolResult("a", "early", true), toolUse("a", "Bash", { command: "x" })),
    );
    expect(ev.tool_calls[0]).toMatchObject({ output: "early", is_error: true });
  });

  it("a tool_result with an unknown id is ignored", () => {
    const ev = parse(
      lines(init(), toolUse("a", "Bash", { command: "x" }), toolResult("zzz", "lost"), result()),
    );
    expect(ev.tool_calls).toHaveLength(1);
    expect(ev.tool_calls[0]?.output).toBeNull();
  });

  it("the first answer to a tool_use_id wins and a repeated tool_use block is not a new call", () => {
    const ev = parse(
      lines(
        init(),
        toolUse("a", "Bash", { command: "x" }),
        toolUse("a", "Bash", { command: "x" }),
        toolResult("a", "one"),
        toolResult("a", "two"),
      ),
    );
    expect(ev.tool_calls).toHaveLength(1);
    expect(ev.tool_calls[0]?.output).toBe("one");
  });

  it("caps long outputs and long input strings with a marker", () => {
    const big = "x".repeat(MAX_TOOL_TEXT + 500);
    const ev = parse(
      lines(
        init(),
        toolUse("a", "Write", { file_path: `${WS}/b`, content: big }),
        toolResult("a", big),
      ),
    );
    const call = ev.tool_calls[0];
    expect(call?.output?.length).toBeLessThan(MAX_TOOL_TEXT + 100);
    expect(call?.output).toMatch(/truncated 500 characters\]$/);
    expect(String(call?.input.content)).toMatch(/truncated 500 characters\]$/);
  });

  it("turn = 1 + results seen before the call", () => {
    const ev = parse(
      lines(
        init(),
        toolUse("a", "Bash", { command: "a" }),
        result(),
        init(),
        toolUse("b", "Bash", { command: "b" }),
        result(),
        toolUse("c", "Bash", { command: "c" }),
      ),
    );
    expect(ev.tool_calls.map((c) => c.turn)).toEqual([1, 2, 3]);
  });

  it("a tool_use with a non-object input gets {}", () => {
    const ev = parse(
      lines(init(), toolUse("a", "Bash", { command: "x" }).replace('{"command":"x"}', '"oops"')),
    );
    expect(ev.tool_calls[0]?.input).toEqual({});
  });
});

describe("files and commands", () => {
  const cases: Array<[string, string[], string[], Partial<Evidence>]> = [
    [
      "Write of a new file is created, Write over a preexisting file is modified",
      [
        toolUse("a", "Write", { file_path: `${WS}/new.txt`, content: "" }),
        toolUse("b", "Write", { file_path: `${WS}/old.txt`, content: "" }),
      ],
      ["old.txt"],
      { files_created: ["new.txt"], files_modified: ["old.txt"] },
    ],
    [
      "Write after a Read of the same file is modified",
      [
        toolUse("a", "Read", { file_path: `${WS}/r.txt` }),
        toolResult("a", "x"),
        toolUse("b", "Write", { file_path: `${WS}/r.txt`, content: "" }),
      ],
      [],
      { files_read: ["r.txt"], files_created: [], files_modified: ["r.txt"] },
    ],
    [
      "Claude's tool_use_result.type beats the guess",
      [
        toolUse("a", "Write", { file_path: `${WS}/p.txt`, content: "" }),
        toolResult("a", "ok", false, { type: "update", filePath: `${WS}/p.txt` }),
        toolUse("b", "Write", { file_path: `${WS}/q.txt`, content: "" }),
        toolResult("b", "ok", false, { type: "create", filePath: `${WS}/q.txt` }),
      ],
      ["q.txt"],
      { files_created: ["q.txt"], files_modified: ["p.txt"] },
    ],
    [
      "a file created then edited or rewritten stays created only",
      [
        toolUse("a", "Write", { file_path: `${WS}/n.txt`, content: "" }),
        toolUse("b", "Edit", { file_path: `${WS}/n.txt`, old_string: "a", new_string: "b" }),
        toolUse("c", "Write", { file_path: `${WS}/n.txt`, content: "" }),
      ],
      [],
      { files_created: ["n.txt"], files_modified: [] },
    ],
    [
      "Edit, MultiEdit and NotebookEdit are modifications",
      [
        toolUse("a", "Edit", { file_path: `${WS}/e.ts` }),
        toolUse("b", "MultiEdit", { file_path: `${WS}/m.ts`, edits: [] }),
        toolUse("c", "NotebookEdit", { notebook_path: `${WS}/n.ipynb`, new_source: "" }),
        toolUse("d", "Edit", { file_path: `${WS}/e.ts` }),
      ],
      [],
      { files_modified: ["e.ts", "m.ts", "n.ipynb"] },
    ],
    [
      "failed edits, writes and reads do not count; failed commands do",
      [
        toolUse("a", "Edit", { file_path: `${WS}/e.ts` }),
        toolResult("a", "String not found", true),
        toolUse("b", "Write", { file_path: `${WS}/w.ts` }),
        toolResult("b", "denied", true),
        toolUse("c", "Read", { file_path: `${WS}/missing` }),
        toolResult("c", "File does not exist.", true),
        toolUse("d", "Bash", { command: "false" }),
        toolResult("d", "Exit code 1", true),
      ],
      [],
      { files_modified: [], files_created: [], files_read: [], commands_run: ["false"] },
    ],
    [
      "paths outside the workspace stay absolute; relative paths are normalised",
      [
        toolUse("a", "Read", { file_path: "/etc/hosts" }),
        toolUse("b", "Read", { file_path: "./src//a.ts" }),
        toolUse("c", "Read", { file_path: `${WS}/src/../b.ts` }),
        toolUse("d", "Read", { file_path: "/wsx/c.ts" }),
      ],
      [],
      { files_read: ["/etc/hosts", "src/a.ts", "b.ts", "/wsx/c.ts"] },
    ],
    [
      "commands are unique, first-seen",
      [
        toolUse("a", "Bash", { command: "ls" }),
        toolUse("b", "Bash", { command: "pwd" }),
        toolUse("c", "Bash", { command: "ls" }),
      ],
      [],
      { commands_run: ["ls", "pwd"] },
    ],
  ];
  it.each(cases)("%s", (_name, events, preexisting, want) => {
    expect(parse(lines(init(), ...events), preexisting)).toMatchObject(want);
  });

  it("uses the init cwd when no workspace is given, and both roots when both are", () => {
    const t = lines(
      init("/real/ws"),
      toolUse("a", "Read", { file_path: "/real/ws/a.txt" }),
      toolUse("b", "Read", { file_path: "/link/ws/b.txt" }),
    );
    expect(parseEvidence(t).files_read).toEqual(["a.txt", "/link/ws/b.txt"]);
    expect(parseEvidence(t, { workspace: "/link/ws" }).files_read).toEqual(["a.txt", "b.txt"]);
  });
});

describe("skills", () => {
  it.each([
    ["input.skill", { skill: "hello" }, ["hello"]],
    ["input.command with a slash and arguments", { command: "/review-pr 12" }, ["review-pr"]],
    ["input.name", { name: "plugin:thing" }, ["plugin:thing"]],
    ["no name", { other: 1 }, []],
  ])("Skill call with %s", (_n, input, want) => {
    expect(parse(lines(init(), toolUse("a", "Skill", input))).skills_invoked).toEqual(want);
  });

  it("a failed Skill call is not an invocation", () => {
    expect(
      parse(
        lines(
          init(),
          toolUse("a", "Skill", { skill: "nope" }),
          toolResult("a", "Unknown skill: nope", true),
        ),
      ).skills_invoked,
    ).toEqual([]);
  });

  it("skill files read or listed are touches, not invocations", () => {
    const ev = parse(
      lines(
        init(),
        toolUse("a", "Read", { file_path: `${WS}/.claude/skills/hello/SKILL.md` }),
        toolUse("b", "Bash", {
          command: 'cat "/home/u/.agents/skills/fmt/run.sh" && ls .qoder/skills/q/',
        }),
        toolUse("c", "Glob", { pattern: ".codebuddy/skills/cb/**/*.md" }),
        toolUse("d", "Grep", {
          pattern: ".claude/skills/not-a-path/",
          path: `${WS}/.claude/skills/g`,
        }),
        toolUse("e", "LS", { path: `${WS}/.claude/skills/hello` }),
        toolUse("f", "Read", { file_path: `${WS}/.claude/skills/hello/SKILL.md` }),
        toolUse("g", "Bash", { command: "cat .claude/skills/*/SKILL.md .claude/skills/" }),
      ),
    );
    expect(ev.skills_invoked).toEqual([]);
    expect(ev.skill_files_touched).toEqual([
      { skill: "hello", path: ".claude/skills/hello/SKILL.md", via: "Read" },
      { skill: "fmt", path: "/home/u/.agents/skills/fmt/run.sh", via: "Bash" },
      { skill: "q", path: ".qoder/skills/q", via: "Bash" },
      { skill: "cb", path: ".codebuddy/skills/cb/**/*.md", via: "Glob" },
      { skill: "g", path: ".claude/skills/g", via: "Grep" },
      { skill: "hello", path: ".claude/skills/hello", via: "LS" },
    ]);
  });
});

describe("results, totals and agent info", () => {
  const mu = (input: number, cost: number, window: number | null) => ({
    m1: {
      inputTokens: input,
      outputTokens: 1,
      cacheReadInputTokens: 2,
      cacheCreationInputTokens: 3,
      webSearchRequests: 0,
      costUSD: cost,
      contextWindow: window,
      maxOutputTokens: 10,
    },
  });

  it("sums several result events and merges model usage", () => {
    const ev = parse(
      lines(
        init(),
        result({
          num_turns: 2,
          duration_ms: 100,
          duration_api_ms: 50,
          total_cost_usd: 0.5,
          usage: {
            input_tokens: 10,
            output_tokens: 1,
            cache_read_input_tokens: 2,
            cache_creation_input_tokens: 3,
          },
          modelUsage: mu(10, 0.5, 1000),
        }),
        result({
          num_turns: 3,
          duration_ms: 200,
          duration_api_ms: true,
          total_cost_usd: 0.25,
          usage: { input_tokens: 20 },
          modelUsage: mu(20, 0.25, 2000),
          result: "second",
        }),
      ),
    );
    expect(ev).toMatchObject({
      num_turns: 5,
      duration_ms: 300,
      duration_api_ms: 50,
      total_cost_usd: 0.75,
      tokens: { input: 30, output: 1, cache_read: 2, cache_creation: 3, total: 36 },
      model_usage: {
        m1: {
          inputTokens: 30,
          outputTokens: 2,
          cacheReadInputTokens: 4,
          costUSD: 0.75,
          contextWindow: 2000,
          maxOutputTokens: 10,
        },
      },
      result_text: "second",
    });
    expect(ev.results.map((r) => [r.line, r.num_turns])).toEqual([
      [2, 2],
      [3, 3],
    ]);
  });

  it("prefers model_usage_since_last_result over the cumulative modelUsage/total_cost_usd of a resumed session", () => {
    const ev = parse(
      lines(
        result({
          total_cost_usd: 1,
          modelUsage: mu(10, 1, null),
          model_usage_since_last_result: mu(10, 1, null),
        }),
        result({
          total_cost_usd: 3,
          modelUsage: mu(30, 3, null),
          model_usage_since_last_result: mu(20, 2, null),
        }),
      ),
    );
    expect(ev.total_cost_usd).toBe(3);
    expect(ev.model_usage.m1?.inputTokens).toBe(30);
  });

  // Each row: two results of one session id. [label, r1, r2, want cost, want api ms, want m1 input]
  // Figures per result: [total_cost_usd, duration_api_ms, modelUsage input, usage input, session].
  it.each<[string, number[], number[], number, number, number, string?]>([
    // running total: nothing went down, m1 grew 10 -> 30 (+20 + 1 + 2 + 3 >= the turn's 20)
    ["running total: differences", [1, 100, 10, 10], [3, 250, 30, 20], 3, 250, 30],
    // cost went down: counters restarted (a new process): added in full
    ["cost lower: restarted", [1, 100, 10, 10], [0.5, 250, 30, 20], 1.5, 350, 40],
    // API time went down: restarted
    ["api time lower: restarted", [1, 100, 10, 10], [3, 50, 30, 20], 4, 150, 40],
    // nothing went down, but m1 grew by 5 + 0 while the turn alone used 40 + 1 + 2 + 3: a fresh
    // count that happens to be higher; added in full
    ["grew less than its own turn: fresh", [1, 100, 10, 10], [3, 250, 15, 40], 4, 350, 25],
    // another session id: its own counters
    ["other session", [1, 100, 10, 10], [3, 250, 30, 20, 1], 4, 350, 40],
  ])("%s", (_label, a, b, cost, api, input, _x) => {
    const r = (f: number[]) =>
      result({
        total_cost_usd: f[0],
        duration_api_ms: f[1],
        modelUsage: mu(f[2] ?? 0, f[0] ?? 0, null),
        usage: { input_tokens: f[3] },
        session_id: f[4] === undefined ? "s1" : `s${f[4] + 1}`,
      });
    const ev = parse(lines(r(a), r(b)));
    expect(ev.total_cost_usd).toBeCloseTo(cost, 10);
    expect(ev.duration_api_ms).toBe(api);
    expect(ev.model_usage.m1?.inputTokens).toBe(input);
    expect(ev.tokens?.input).toBe((a[3] ?? 0) + (b[3] ?? 0));
  });

  it("differences API time also when model_usage_since_last_result gives cost and usage", () => {
    const ev = parse(
      lines(
        result({
          duration_api_ms: 80,
          total_cost_usd: 1,
          modelUsage: mu(10, 1, null),
          model_usage_since_last_result: mu(10, 1, null),
        }),
        result({
          duration_api_ms: 200,
          total_cost_usd: 3,
          modelUsage: mu(30, 3, null),
          // exactly the growth of modelUsage: 20 more input tokens, 2 more dollars
          model_usage_since_last_result: { m1: { inputTokens: 20, costUSD: 2 } },
        }),
      ),
    );
    expect(ev.duration_api_ms).toBe(200);
    expect(ev.total_cost_usd).toBe(3);
  });

  it.each([
    ["success", false, false],
    ["success", true, true],
    ["error_max_turns", true, true],
    ["error_during_execution", undefined, true],
    ["success", undefined, false],
  ])("subtype %s with is_error %s -> %s", (subtype, flag, want) => {
    const extra: Record<string, unknown> = { subtype };
    if (flag === undefined) extra.is_error = undefined;
    else extra.is_error = flag;
    const ev = parse(lines(init(), result(extra)));
    expect(ev.is_error).toBe(want);
    expect(ev.results[0]?.is_error).toBe(want);
  });

  it("is_error comes from the last result only; no result at all is an error", () => {
    expect(parse(lines(result({ is_error: true }), result({ is_error: false }))).is_error).toBe(
      false,
    );
    expect(parse(lines(init(), text("hi"))).is_error).toBe(true);
  });

  it("nulls when nothing is observed", () => {
    const ev = parse(lines(init()));
    expect(ev).toMatchObject({
      num_turns: null,
      duration_ms: null,
      tokens: null,
      total_cost_usd: null,
      peak_context_tokens: null,
      result_text: null,
      model_usage: {},
    });
    expect(resultTextOf(ev)).toBeNull();
  });

  it("falls back to the text blocks of the last assistant message that had text", () => {
    const t = lines(
      init(),
      text("old", "m0"),
      text("part one", "m1"),
      text("part two", "m1"),
      toolUse("a", "Bash", { command: "x" }, "m2"),
      result({ result: null, subtype: "error_max_turns", is_error: true }),
    );
    const ev = parse(t);
    expect(ev.result_text).toBe("part one\npart two");
    expect(resultTextOf(ev)).toBe("part one\npart two");
    expect(parse(lines(init(), text("only text"))).result_text).toBe("only text");
  });

  it("subagent text does not become the result text, nor count for peak context", () => {
    const ev = parse(
      lines(init(), text("main", "m1"), text("sub", "m2", { parent_tool_use_id: "toolu_x" })),
    );
    expect(ev.result_text).toBe("main");
  });

  it("peak context = max of input + cache_read + cache_creation over assistant events", () => {
    const ev = parse(
      lines(
        init(),
        toolUse("a", "Bash", { command: "a" }, "m1", {
          input_tokens: 100,
          cache_read_input_tokens: 1000,
          cache_creation_input_tokens: 5,
          output_tokens: 9999,
        }),
        toolUse("b", "Bash", { command: "b" }, "m2", { input_tokens: 50 }),
      ),
    );
    expect(ev.peak_context_tokens).toBe(1105);
  });

  it("collects agent info, session ids, api retries and permission denials", () => {
    const ev = parse(
      lines(
        init(WS, { session_id: "A" }),
        line({
          type: "system",
          subtype: "api_retry",
          attempt: 1,
          max_retries: 2,
          retry_delay_ms: 500,
          error_status: 500,
          error: "server_error",
          session_id: "A",
        }),
        line({ type: "system", subtype: "permission_denied", tool_name: "Bash" }),
        result({ session_id: "A", permission_denials: [{ tool_name: "Bash" }] }),
        init(WS, { session_id: "B", model: "m2" }),
        result({ session_id: "B", permission_denials: [{}, {}] }),
        line({ type: "system", subtype: "permission_denied" }),
      ),
    );
    expect(ev.agent).toEqual({
      name: "claude",
      version: "9.9.9",
      claude_code_version: "9.9.9",
      model: "m1",
      cwd: WS,
    });
    expect(ev.session_ids).toEqual(["A", "B"]);
    expect(ev.api_retries).toEqual([
      {
        line: 2,
        attempt: 1,
        max_retries: 2,
        retry_delay_ms: 500,
        error_status: 500,
        error: "server_error",
      },
    ]);
    expect(ev.permission_denials).toBe(4);
  });

  it("finish() can be called repeatedly and returns independent copies", () => {
    const b = new EvidenceBuilder({ workspace: WS });
    b.pushLine(init());
    b.pushLine(toolUse("a", "Bash", { command: "x" }));
    const first = b.finish();
    const call = first.tool_calls[0];
    if (call) call.output = "mutated";
    b.pushLine(toolResult("a", "real"));
    expect(b.finish().tool_calls[0]?.output).toBe("real");
  });
});
