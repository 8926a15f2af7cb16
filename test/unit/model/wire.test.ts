/**
 * The wire APIs of the scripted model server (pure): request facts per API, reply encodings,
 * and agent-neutral actions mapped to each agent's tool.
 */
import { describe, expect, it } from "vitest";
import { buildReply } from "../../../src/model/build-reply.js";
import { addFilePatch } from "../../../src/agents/codex/tools.js";
import { actionToTool, dialectOf } from "../../../src/model/dialect.js";
import { parseModelScriptText } from "../../../src/model/index.js";
import { chatEvents, chatFacts, chatJson } from "../../../src/model/wire/chat.js";
import { geminiEvents, geminiFacts } from "../../../src/model/wire/gemini.js";
import { responsesEvents, responsesFacts } from "../../../src/model/wire/responses.js";
import { listedSkills } from "../../../src/model/wire/common.js";

describe("dialectOf", () => {
  it.each([
    ["anthropic", ["Bash", "Skill"], "claude"],
    ["anthropic", ["bash", "skill", "write"], "opencode"],
    ["openai-responses", ["exec_command", "apply_patch"], "codex"],
    ["gemini", ["run_shell_command", "activate_skill"], "gemini"],
    ["gemini", [], "gemini"],
    ["openai-chat", [], "codex"],
  ] as const)("%s offering %j is %s", (api, tools, want) => {
    expect(dialectOf(api, tools)).toBe(want);
  });
});

describe("actionToTool", () => {
  const f = {
    tools: ["exec_command", "apply_patch"],
    skillFiles: { hello: "/ws/.agents/skills/hello/SKILL.md" },
  };
  it.each([
    ["claude", { action: "run", command: "ls" }, { name: "Bash", input: { command: "ls" } }],
    ["claude", { action: "skill", skill: "hello" }, { name: "Skill", input: { skill: "hello" } }],
    [
      "claude",
      { action: "write", path: "a.md", content: "x" },
      { name: "Write", input: { file_path: "a.md", content: "x" } },
    ],
    [
      "gemini",
      { action: "skill", skill: "hello" },
      { name: "activate_skill", input: { name: "hello" } },
    ],
    [
      "gemini",
      { action: "write", path: "a.md", content: "x" },
      { name: "write_file", input: { file_path: "a.md", content: "x" } },
    ],
    [
      "opencode",
      { action: "write", path: "a.md", content: "x" },
      { name: "write", input: { filePath: "a.md", content: "x" } },
    ],
    ["opencode", { action: "skill", skill: "hello" }, { name: "skill", input: { name: "hello" } }],
    ["codex", { action: "run", command: "ls" }, { name: "exec_command", input: { cmd: "ls" } }],
    [
      "codex",
      { action: "skill", skill: "hello" },
      { name: "exec_command", input: { cmd: "cat '/ws/.agents/skills/hello/SKILL.md'" } },
    ],
    [
      "codex",
      { action: "write", path: "a.md", content: "x\ny\n" },
      {
        name: "apply_patch",
        input: {},
        custom: "*** Begin Patch\n*** Add File: a.md\n+x\n+y\n*** End Patch\n",
      },
    ],
  ] as const)("%s: %j", (d, a, want) => {
    expect(actionToTool(a, d, f)).toEqual(want);
  });

  it("writes with a shell command when Codex offers no apply_patch", () => {
    const t = actionToTool({ action: "write", path: "it's.md", content: "a'b" }, "codex", {
      tools: ["exec_command"],
      skillFiles: {},
    });
    expect(t.name).toBe("exec_command");
    expect(t.input.cmd).toBe(
      `mkdir -p "$(dirname 'it'"'"'s.md')" && printf %s 'a'"'"'b' > 'it'"'"'s.md'`,
    );
  });

  it("an empty file is an Add File patch with no lines", () => {
    expect(addFilePatch("e.txt", "")).toBe("*** Begin Patch\n*** Add File: e.txt\n*** End Patch\n");
  });
});

describe("listedSkills", () => {
  it("expands Codex's short skill roots", () => {
    const text =
      "### Skill roots\n- `r1` = `/ws/.agents/skills`\n### Available skills\n- hello: Greets. (file: r1/hello/SKILL.md)\n- plain: no file here";
    expect(listedSkills(text)).toEqual({
      names: ["hello"],
      files: { hello: "/ws/.agents/skills/hello/SKILL.md" },
    });
  });
});

describe("request facts per API", () => {
  it("Responses: positions count assistant groups; Codex's own context is not the user's turn", () => {
    const f = responsesFacts({
      model: "gpt-5.5",
      stream: true,
      instructions: "sys",
      tools: [
        { type: "function", name: "exec_command" },
        { type: "custom", name: "apply_patch" },
      ],
      input: [
        { type: "message", role: "developer", content: [{ type: "input_text", text: "dev" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "do it" }] },
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>cwd</environment_context>" }],
        },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
        { type: "function_call", call_id: "c1", name: "exec_command", arguments: "{}" },
        {
          type: "function_call_output",
          call_id: "c1",
          output: "Process exited with code 1\nOutput:\nboom",
        },
      ],
    });
    expect(f).toMatchObject({
      position: 1,
      turnPosition: 1,
      userText: "do it",
      toolResultIsError: true,
      tools: ["exec_command", "apply_patch"],
      model: "gpt-5.5",
      stream: true,
    });
    expect(f.systemText).toContain("dev");
  });

  it("Chat Completions: assistant messages, the last tool message", () => {
    const f = chatFacts({
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [] },
        { role: "tool", content: "exit code 0" },
      ],
      tools: [{ type: "function", function: { name: "run" } }],
    });
    expect(f).toMatchObject({
      position: 1,
      userText: "hi",
      toolResult: "exit code 0",
      toolResultIsError: false,
      tools: ["run"],
    });
  });

  it("Gemini: model contents, function responses, and the activate_skill enum as the skill listing", () => {
    const f = geminiFacts(
      {
        systemInstruction: { parts: [{ text: "sys" }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: "activate_skill",
                parametersJsonSchema: { properties: { name: { enum: ["hello"] } } },
              },
              { name: "run_shell_command" },
            ],
          },
        ],
        contents: [
          {
            role: "user",
            parts: [{ text: "<session_context>x</session_context>" }, { text: "greet me" }],
          },
          { role: "model", parts: [{ functionCall: { name: "run_shell_command", args: {} } }] },
          {
            role: "user",
            parts: [
              {
                functionResponse: {
                  name: "run_shell_command",
                  response: { output: "Output: no\nExit Code: 1" },
                },
              },
            ],
          },
        ],
      },
      true,
      "gemini-2.5-pro",
    );
    expect(f).toMatchObject({
      position: 1,
      userText: "greet me",
      toolResultIsError: true,
      skills: ["hello"],
      tools: ["activate_skill", "run_shell_command"],
      model: "gemini-2.5-pro",
    });
  });
});

describe("reply encodings", () => {
  const script = parseModelScriptText(
    "rules:\n  - steps:\n      - text: Hello there\n        run: echo hi\n",
    "s.yaml",
  );
  const step = script.rules[0]!.steps[0]!;
  if (step.kind !== "plain") throw new Error("plain step expected");
  const reply = buildReply(script, step.step, "m", "seed", {
    dialect: "codex",
    facts: { tools: ["exec_command"], skillFiles: {} },
  });

  it("maps the action with the agent's dialect", () => {
    expect(reply.content[1]).toMatchObject({
      type: "tool_use",
      name: "exec_command",
      input: { cmd: "echo hi" },
    });
  });

  it("Responses: created, items, completed with usage", () => {
    const events = responsesEvents(reply).map(
      (e) => JSON.parse(e.split("\ndata: ")[1]!) as Record<string, unknown>,
    );
    expect(events[0]?.type).toBe("response.created");
    expect(events.at(-1)?.type).toBe("response.completed");
    const done = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    expect(done).toMatchObject([
      { type: "message" },
      { type: "function_call", name: "exec_command", arguments: '{"cmd":"echo hi"}' },
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("Chat: chunks end with the finish reason and [DONE]", () => {
    const chunks = chatEvents(reply);
    expect(chunks.at(-1)).toBe("data: [DONE]\n\n");
    expect(chunks.at(-2)).toContain('"finish_reason":"tool_calls"');
    expect(chatJson(reply)).toMatchObject({
      choices: [
        {
          message: { content: "Hello there", tool_calls: [{ function: { name: "exec_command" } }] },
        },
      ],
    });
  });

  it("Gemini: one chunk per part, the last with finishReason and usage", () => {
    const chunks = geminiEvents(reply).map(
      (c) => JSON.parse(c.slice("data: ".length)) as Record<string, unknown>,
    );
    expect(chunks).toHaveLength(2);
    expect(JSON.stringify(chunks[1])).toContain('"finishReason":"STOP"');
    expect(chunks[1]).toHaveProperty("usageMetadata");
  });
});
