import { describe, expect, it } from "vitest";
import { parseModelScript } from "../../../src/model/load-script.js";
import { faultForAttempt } from "../../../src/model/faults.js";
import { requestFacts } from "../../../src/model/request-facts.js";
import type { RunRef } from "../../../src/model/run-path.js";
import {
  intMatches,
  selectStep,
  textMatches,
  whenMatches,
} from "../../../src/model/select-step.js";
import type { Fault, IntMatcher, TextMatcher } from "../../../src/model/script.js";

const run = (over: Partial<RunRef> = {}): RunRef => ({
  task: "t1",
  treatment: "SKILL",
  rep: 1,
  role: "subject",
  ...over,
});

const SKILLS =
  "The following skills are available for use with the Skill tool:\n\n- hello: Say hello\n- pdf-tools: PDFs\n\nOther text";

/** A request with `assistants` assistant messages; the last user message says `last`. */
interface Body {
  messages: unknown[];
  [key: string]: unknown;
}
function body(
  opts: {
    assistants?: number;
    userText?: string;
    toolResult?: string;
    tools?: string[];
    system?: string;
  } = {},
): Body {
  const messages: unknown[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>\nreminder\n</system-reminder>\n" },
        { type: "text", text: opts.userText ?? "do the task" },
      ],
    },
    { role: "system", content: `# Environment\n${SKILLS}` },
  ];
  for (let i = 0; i < (opts.assistants ?? 0); i++) {
    messages.push({
      role: "assistant",
      content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: {} }],
    });
    messages.push({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: `t${i}`,
          content: opts.toolResult ?? `out ${i}`,
          is_error: false,
        },
      ],
    });
  }
  return {
    model: "claude-x",
    stream: true,
    system: [{ type: "text", text: opts.system ?? "You are Claude." }],
    tools: (opts.tools ?? ["Bash", "Skill"]).map((name) => ({ name })),
    messages,
  };
}

describe("intMatches", () => {
  const cases: Array<[IntMatcher, number, boolean]> = [
    [{ kind: "values", values: [1, 3] }, 3, true],
    [{ kind: "values", values: [1, 3] }, 2, false],
    [{ kind: "every", every: 3, offset: 0 }, 3, true],
    [{ kind: "every", every: 3, offset: 0 }, 1, false],
    [{ kind: "every", every: 3, offset: 1 }, 1, true],
    [{ kind: "every", every: 3, offset: 1 }, 4, true],
    [{ kind: "every", every: 2, offset: 3 }, 5, true],
    [{ kind: "range", min: 2, max: null }, 2, true],
    [{ kind: "range", min: null, max: 2 }, 3, false],
  ];
  it.each(cases)("%j matches %i: %s", (m, n, expected) => expect(intMatches(m, n)).toBe(expected));
});

describe("textMatches", () => {
  const cases: Array<[TextMatcher[], string | null, boolean]> = [
    [[{ kind: "contains", value: "yes" }], "oh yes please", true],
    [[{ kind: "contains", value: "Yes" }], "oh yes please", false],
    [[{ kind: "equals", value: "yes" }], "  yes\n", true],
    [[{ kind: "equals", value: "yes" }], "yes please", false],
    [[{ kind: "regex", re: /^y/i }], "Yes", true],
    [
      [
        { kind: "contains", value: "no" },
        { kind: "contains", value: "yes" },
      ],
      "yes",
      true,
    ],
    [[{ kind: "contains", value: "" }], null, false],
  ];
  it.each(cases)("%j on %j: %s", (m, text, expected) =>
    expect(textMatches(m, text)).toBe(expected),
  );
});

describe("requestFacts", () => {
  it("counts positions and finds the latest user text, tool result, tools and skills", () => {
    const f = requestFacts(body({ assistants: 2, toolResult: "Exit code 1" }));
    expect(f).toMatchObject({
      model: "claude-x",
      stream: true,
      position: 2,
      turnPosition: 2,
      userText: "do the task",
      toolResult: "Exit code 1",
      toolResultIsError: false,
      tools: ["Bash", "Skill"],
      skills: ["hello", "pdf-tools"],
    });
    expect(f.systemText).toContain("You are Claude.");
    expect(f.systemText).toContain("# Environment");
  });

  it("resets the turn position at a new user turn (resume) but not at tool results with text", () => {
    const b = body({ assistants: 1 });
    const msgs = b.messages;
    msgs.push({ role: "assistant", content: [{ type: "text", text: "Proceed?" }] });
    msgs.push({ role: "user", content: [{ type: "text", text: "yes" }] });
    msgs.push({
      role: "assistant",
      content: [{ type: "tool_use", id: "s", name: "Skill", input: { skill: "hello" } }],
    });
    msgs.push({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "s", content: "Launching skill: hello" },
        { type: "text", text: "Base directory for this skill: /x" },
      ],
    });
    const f = requestFacts(b);
    expect([f.position, f.turnPosition, f.userText, f.toolResult]).toEqual([
      3,
      1,
      "yes",
      "Launching skill: hello",
    ]);
  });

  it.each([null, "text", 3, { messages: "no" }])("tolerates a malformed body %j", (b) => {
    expect(requestFacts(b)).toMatchObject({ position: 0, userText: null, tools: [], skills: [] });
  });

  it("reads string content (a direct HTTP judge call)", () => {
    expect(requestFacts({ messages: [{ role: "user", content: "Score this run" }] }).userText).toBe(
      "Score this run",
    );
  });
});

describe("whenMatches", () => {
  const facts = requestFacts(
    body({ assistants: 1, toolResult: "Exit code 1\nboom", system: "judge mode" }),
  );
  const cases: Array<[string, unknown, RunRef, boolean]> = [
    ["empty", {}, run(), true],
    ["task", { task: "t1" }, run(), true],
    ["task other", { task: ["t2", "t3"] }, run(), false],
    ["task on a run without task", { task: "t1" }, run({ task: null }), false],
    ["treatment", { treatment: "SKILL" }, run(), true],
    ["rep list", { rep: [2, 3] }, run({ rep: 3 }), true],
    ["rep every", { rep: { every: 2 } }, run({ rep: 3 }), false],
    ["role", { role: "judge" }, run(), false],
    ["position", { position: 1 }, run(), true],
    ["user_text", { user_text: "task" }, run(), true],
    ["tool_result regex", { tool_result: { regex: "^Exit code [1-9]" } }, run(), true],
    ["system", { system: "judge mode" }, run(), true],
    ["tool present", { tool: ["Bash", "Skill"] }, run(), true],
    ["tool absent", { tool: "AskUserQuestion" }, run(), false],
    ["skill present", { skill: "pdf-tools" }, run(), true],
    ["skill absent", { skill: "nope" }, run(), false],
    ["all must hold", { task: "t1", role: "simulator" }, run(), false],
  ];
  it.each(cases)("%s", (_n, when, r, expected) => {
    const s = parseModelScript({ rules: [{ when, steps: [{ text: "x" }] }] });
    expect(whenMatches(s.rules[0]!.when, r, facts)).toBe(expected);
  });
});

describe("selectStep", () => {
  const script = parseModelScript({
    rules: [
      { name: "judge", when: { role: "judge" }, reply: { text: "score" } },
      { name: "sim", when: { role: "simulator", user_text: "Proceed?" }, steps: [{ text: "yes" }] },
      {
        name: "flaky",
        when: { task: "flaky" },
        steps: [{ by_rep: [{ text: "pass" }, { text: "fail" }, { text: "other" }] }],
        after_last: "repeat",
      },
      { name: "short", when: { task: "short" }, steps: [{ text: "one" }], after_last: "next" },
      {
        name: "turns",
        when: { task: "turns" },
        count: "turn",
        steps: [{ text: "first" }, { text: "second" }],
      },
      {
        name: "main",
        when: { role: "subject", task: ["t1", "turns"] },
        steps: [{ tool_use: { name: "Bash", input: { command: "ls" } } }, { text: "done" }],
      },
    ],
  });
  const pick = (r: RunRef, b: unknown): string => {
    const s = selectStep(script, r, requestFacts(b));
    if (s.kind !== "step") return s.kind;
    const c = s.step.content[0];
    return `${s.rule.name}#${s.stepIndex}:${c?.type === "text" ? c.text : c?.type === "tool_use" ? c.name : ""}`;
  };
  const cases: Array<[string, RunRef, unknown, string]> = [
    ["first step", run(), body(), "main#0:Bash"],
    ["second step", run(), body({ assistants: 1 }), "main#1:done"],
    ["past the end", run(), body({ assistants: 2 }), "past_end"],
    ["judge repeats", run({ role: "judge" }), body({ assistants: 5 }), "judge#0:score"],
    [
      "simulator by text",
      run({ role: "simulator" }),
      body({ userText: "Assistant said: Proceed?" }),
      "sim#0:yes",
    ],
    ["simulator no match", run({ role: "simulator" }), body({ userText: "hm" }), "no_match"],
    ["by_rep 1", run({ task: "flaky", rep: 1 }), body(), "flaky#0:pass"],
    ["by_rep 2", run({ task: "flaky", rep: 2 }), body(), "flaky#0:fail"],
    ["by_rep 4 wraps", run({ task: "flaky", rep: 4 }), body({ assistants: 3 }), "flaky#0:pass"],
    ["next falls through to no match", run({ task: "short" }), body({ assistants: 1 }), "no_match"],
    ["turn counting", run({ task: "turns" }), body({ assistants: 4 }), "past_end"],
  ];
  it.each(cases)("%s", (_n, r, b, expected) => expect(pick(r, b)).toBe(expected));

  it("turn counting restarts after a new user message", () => {
    const b = body({ assistants: 2 });
    const msgs = b.messages;
    msgs.push({ role: "assistant", content: [{ type: "text", text: "ok?" }] });
    msgs.push({ role: "user", content: "go on" });
    expect(pick(run({ task: "turns" }), b)).toBe("turns#0:first");
    msgs.push({ role: "assistant", content: [{ type: "text", text: "first" }] });
    msgs.push({ role: "user", content: [{ type: "text", text: "more" }] });
    msgs.push({ role: "assistant", content: [{ type: "text", text: "first" }] });
    expect(pick(run({ task: "turns" }), b)).toBe("turns#1:second");
  });

  it("explains a miss: run, position, latest user text", () => {
    const s = selectStep(
      script,
      run({ task: "nope", role: "simulator" }),
      requestFacts(body({ userText: "What now?" })),
    );
    expect(s.kind).toBe("no_match");
    expect(s.kind === "no_match" ? s.message : "").toMatch(
      /no rule matched this request \(task=nope treatment=SKILL rep=1 role=simulator; position 0 .*latest user text: "What now\?"/,
    );
  });

  it("explains running past the end", () => {
    const s = selectStep(script, run(), requestFacts(body({ assistants: 2 })));
    expect(s.kind === "past_end" ? s.message : "").toContain(
      'rule "main" has 2 step(s) but this request is at conversation position 2',
    );
  });
});

describe("faultForAttempt", () => {
  const f = (times: number | null, status: number): Fault => ({
    kind: "status",
    status,
    errorType: "api_error",
    message: "m",
    body: undefined,
    headers: {},
    delayMs: 0,
    times,
  });
  const list = [f(1, 500), f(2, 429)];
  it.each([
    [1, 500],
    [2, 429],
    [3, 429],
    [4, null],
  ])("attempt %i -> %s", (attempt, status) => {
    const got = faultForAttempt(list, attempt);
    expect(got?.kind === "status" ? got.status : null).toBe(status);
  });
  it("a fault without times covers every attempt", () => {
    expect(faultForAttempt([f(null, 529)], 99)).not.toBeNull();
    expect(faultForAttempt([], 1)).toBeNull();
  });
});
