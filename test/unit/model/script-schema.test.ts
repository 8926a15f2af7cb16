import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  loadModelScript,
  parseModelScript,
  parseModelScriptText,
  validateModelScript,
} from "../../../src/model/load-script.js";

const good: Array<[string, unknown]> = [
  ["one text step", { rules: [{ steps: [{ text: "hi" }] }] }],
  [
    "reply shorthand",
    { rules: [{ when: { role: "judge" }, reply: { text: "[RUBRIC-JUDGE] x: 1 - ok" } }] },
  ],
  [
    "text + tool_use",
    { rules: [{ steps: [{ text: "a", tool_use: { name: "Bash", input: { command: "ls" } } }] }] },
  ],
  [
    "tool_use list",
    { rules: [{ steps: [{ tool_use: [{ name: "Read", input: {} }, { name: "Write" }] }] }] },
  ],
  [
    "content blocks",
    {
      rules: [
        {
          steps: [
            { content: [{ text: "a" }, { tool_use: { name: "Skill", input: { skill: "x" } } }] },
          ],
        },
      ],
    },
  ],
  [
    "all matchers",
    {
      rules: [
        {
          when: {
            task: ["a", "b"],
            treatment: "T",
            rep: { every: 3, offset: 1 },
            role: ["subject", "simulator"],
            position: { min: 0, max: 3 },
            user_text: [{ regex: "^yes", flags: "i" }, "ok"],
            tool_result: { contains: "Exit code 1" },
            system: { equals: "x" },
            tool: ["Bash"],
            skill: "hello",
          },
          count: "turn",
          after_last: "next",
          steps: [{ text: "x" }],
        },
      ],
    },
  ],
  ["fault only (every attempt)", { rules: [{ steps: [{ fault: { status: 529 } }] }] }],
  [
    "fault times with reply",
    {
      rules: [
        {
          steps: [{ text: "ok", fault: { status: 429, headers: { "retry-after": 1 }, times: 2 } }],
        },
      ],
    },
  ],
  [
    "fault list",
    {
      rules: [
        {
          steps: [
            { text: "ok", fault: [{ status: 500 }, { cut: true }, { hang: true, times: 1 }] },
          ],
        },
      ],
    },
  ],
  ["cut options", { rules: [{ steps: [{ fault: { cut: { after_events: 2, clean: true } } }] }] }],
  ["by_rep", { rules: [{ steps: [{ by_rep: [{ text: "pass" }, { text: "fail" }] }] }] }],
  [
    "defaults",
    {
      version: 1,
      defaults: {
        model: "m",
        usage: { input_tokens: 5, cache_read_input_tokens: 9 },
        after_last: "repeat",
        count: "conversation",
      },
      rules: [{ steps: [{ text: "" }] }],
    },
  ],
];

const bad: Array<[string, unknown, string]> = [
  ["no rules", {}, "rules: required"],
  ["empty rules", { rules: [] }, "rules: Too small"],
  [
    "tool name not string",
    { rules: [{ steps: [{ tool_use: { name: 3 } }] }] },
    "rules[0].steps[0].tool_use.name: expected string, received number",
  ],
  [
    "unknown step field",
    { rules: [{ steps: [{ txt: "a" }] }] },
    "rules[0].steps[0].txt: unknown field",
  ],
  [
    "empty step",
    { rules: [{ steps: [{}] }] },
    "rules[0].steps[0]: a step needs text, tool_use, content, by_rep or fault",
  ],
  [
    "content and text",
    { rules: [{ steps: [{ text: "a", content: [{ text: "b" }] }] }] },
    "rules[0].steps[0].content: use either content or text/tool_use",
  ],
  [
    "bad block",
    { rules: [{ steps: [{ content: [{ tool_use: { nme: "x" } }] }] }] },
    "rules[0].steps[0].content[0].tool_use.name: required",
  ],
  [
    "steps and reply",
    { rules: [{ steps: [{ text: "a" }], reply: { text: "b" } }] },
    "rules[0]: a rule needs exactly one of steps or reply",
  ],
  [
    "bad role",
    { rules: [{ when: { role: "boss" }, steps: [{ text: "a" }] }] },
    "rules[0].when.role: expected subject, simulator, judge",
  ],
  [
    "bad regex",
    { rules: [{ when: { user_text: { regex: "(" } }, steps: [{ text: "a" }] }] },
    "rules[0].when.user_text.regex: invalid regular expression",
  ],
  [
    "regex g flag",
    { rules: [{ when: { system: { regex: "a", flags: "g" } }, steps: [{ text: "a" }] }] },
    "rules[0].when.system.flags: flags may only use",
  ],
  [
    "bad rep",
    { rules: [{ when: { rep: { every: 0 } }, steps: [{ text: "a" }] }] },
    "rules[0].when.rep.every: Too small",
  ],
  [
    "rep string",
    { rules: [{ when: { rep: "odd" }, steps: [{ text: "a" }] }] },
    "rules[0].when.rep: expected an integer",
  ],
  [
    "fault two kinds",
    { rules: [{ steps: [{ fault: { status: 500, hang: true } }] }] },
    "rules[0].steps[0].fault: a fault needs exactly one of status, cut or hang",
  ],
  [
    "fault status range",
    { rules: [{ steps: [{ fault: { status: 200 } }] }] },
    "rules[0].steps[0].fault.status: Too small",
  ],
  [
    "headers without status",
    { rules: [{ steps: [{ fault: { cut: true, headers: { a: "b" } } }] }] },
    "rules[0].steps[0].fault.headers: headers is only allowed with status",
  ],
  [
    "finite fault needs reply",
    { rules: [{ steps: [{ fault: { status: 500, times: 1 } }] }] },
    "rules[0].steps[0].fault: this fault ends after some attempts",
  ],
  [
    "by_rep with other fields",
    { rules: [{ steps: [{ by_rep: [{ text: "a" }], text: "b" }] }] },
    "rules[0].steps[0].by_rep: a by_rep step may not have other fields",
  ],
  [
    "bad stop_reason",
    { rules: [{ steps: [{ text: "a", stop_reason: "done" }] }] },
    "rules[0].steps[0].stop_reason",
  ],
  [
    "negative usage",
    { rules: [{ steps: [{ text: "a", usage: { input_tokens: -1 } }] }] },
    "rules[0].steps[0].usage.input_tokens: Too small",
  ],
  [
    "bad after_last",
    { rules: [{ after_last: "loop", steps: [{ text: "a" }] }] },
    "rules[0].after_last",
  ],
  ["null file", null, "the file is empty"],
];

describe("model script validation", () => {
  it.each(good)("accepts %s", (_name, value) => {
    expect(validateModelScript(value)).toEqual([]);
    expect(() => parseModelScript(value, "x.yaml")).not.toThrow();
  });

  it.each(bad)("rejects %s", (_name, value, expected) => {
    const problems = validateModelScript(value).map((p) =>
      p.path ? `${p.path}: ${p.message}` : p.message,
    );
    expect(problems.join("\n")).toContain(expected);
    expect(() => parseModelScript(value, "x.yaml")).toThrow(InputError);
  });

  it("names the file, path and line in YAML errors", () => {
    const text = "rules:\n  - steps:\n      - text: ok\n  - steps:\n      - tool_use: {name: 3}\n";
    let err: unknown;
    try {
      parseModelScriptText(text, "suite/model.yaml");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const ie = err instanceof InputError ? err : null;
    expect(ie?.message).toContain("model script suite/model.yaml is invalid");
    expect(ie?.message).toContain(
      "rules[1].steps[0].tool_use.name (line 5): expected string, received number",
    );
    expect(ie?.details).toEqual({
      file: "suite/model.yaml",
      field: "rules[1].steps[0].tool_use.name",
      line: 5,
    });
  });

  it("reports YAML syntax errors with a line", () => {
    expect(() => parseModelScriptText("rules: [\n", "m.yaml")).toThrow(
      /model script m\.yaml:\d+: not valid YAML\/JSON/,
    );
  });

  it("accepts JSON text", () => {
    const s = parseModelScriptText('{"rules": [{"steps": [{"text": "hi"}]}]}', "m.json");
    expect(s.rules[0]?.steps[0]).toEqual({
      kind: "plain",
      step: {
        content: [{ type: "text", text: "hi" }],
        stopReason: null,
        usage: {},
        model: null,
        delayMs: 0,
        faults: [],
      },
    });
  });

  it("normalises defaults, reply rules and faults", () => {
    const s = parseModelScript({
      defaults: { after_last: "next" },
      rules: [
        { reply: { text: "a" } },
        { steps: [{ text: "b", fault: [{ status: 500 }, { status: 429, times: 2 }] }] },
        { steps: [{ fault: { status: 529 } }] },
      ],
    });
    expect(s.rules.map((r) => [r.name, r.afterLast, r.count])).toEqual([
      ["rules[0]", "repeat", "conversation"],
      ["rules[1]", "next", "conversation"],
      ["rules[2]", "next", "conversation"],
    ]);
    const f1 = s.rules[1]?.steps[0];
    const f2 = s.rules[2]?.steps[0];
    expect(f1?.kind === "plain" ? f1.step.faults.map((f) => f.times) : null).toEqual([1, 2]);
    expect(f2?.kind === "plain" ? f2.step.faults.map((f) => [f.kind, f.times]) : null).toEqual([
      ["status", null],
    ]);
    expect(s.defaults.usage).toEqual({
      input_tokens: 100,
      output_tokens: null,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });
});

describe("example scripts", () => {
  it.each(["bash-write-done.yaml", "demo-roles.yaml", "faults.yaml"])(
    "examples/scripts/%s is valid",
    async (name) => {
      const s = await loadModelScript(`examples/scripts/${name}`);
      expect(s.rules.length).toBeGreaterThan(0);
    },
  );

  it("reports a missing file as InputError", async () => {
    await expect(loadModelScript("examples/scripts/does-not-exist.yaml")).rejects.toThrow(
      /model script .*does-not-exist\.yaml: cannot read/,
    );
  });
});
