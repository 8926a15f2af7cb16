/**
 * The step matcher on each agent's normalised evidence (the golden recordings of the
 * agent-neutral scenario, decoded as test/unit/agents/golden.test.ts does): the same steps,
 * written with neutral kinds, meet the same calls on every agent. Pure.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_NAMES, agentDriver } from "../../../src/agents/index.js";
import {
  matchSteps,
  StepsSchema,
  ToolsExpectSchema,
  trajectoryOf,
  trajectoryText,
  type TrajectoryCall,
} from "../../../src/trajectory/index.js";
import { REPO_ROOT } from "../../helpers/cli.js";

const DIR = path.join(REPO_ROOT, "test/fixtures/agents/transcripts");

function trajectory(name: string): TrajectoryCall[] {
  const text = readFileSync(path.join(DIR, `${name}.jsonl`), "utf8");
  const opts: unknown = JSON.parse(readFileSync(path.join(DIR, `${name}.options.json`), "utf8"));
  const workspace =
    typeof opts === "object" && opts !== null && "workspace" in opts ? String(opts.workspace) : "";
  const driver = agentDriver(name)!;
  const d = driver.decoder({ workspace });
  for (const l of text.split("\n")) if (l !== "") d.pushLine(l);
  return trajectoryOf(d.finish(), driver.toolVocabulary);
}

const steps = (s: unknown) => StepsSchema.parse(s);

/** The scenario: open the hello Skill, run `echo hello-from-skill > hello.txt`, write notes.md, run `cat does-not-exist.txt`. */
const TABLE: {
  name: string;
  spec: unknown;
  met: number;
  calls: (number | null)[];
  why?: (string | null)[];
  violated?: number;
}[] = [
  {
    name: "three ordered steps in neutral terms, all met",
    spec: {
      ordered: true,
      expect: [
        { reads_skill_file: "SKILL.md" },
        { tool: "command", command: "hello-from-skill" },
        { writes: "notes.md" },
      ],
    },
    met: 3,
    calls: [0, 1, 2],
  },
  {
    name: "ordered: a step before one it follows is out of order",
    spec: { ordered: true, expect: [{ writes: "*.md" }, { command: "/HELLO-FROM/i" }] },
    met: 1,
    calls: [2, null],
    why: [null, "out of order: only #2 (%command) matches"],
  },
  {
    name: "unordered: the same steps are both met",
    spec: { expect: [{ writes: "*.md" }, { command: "hello-from-skill" }] },
    met: 2,
    calls: [2, 1],
  },
  {
    name: "a step no call meets",
    spec: { expect: [{ command: "pytest" }, { reads_skill_file: "references/*.md" }] },
    met: 0,
    calls: [null, null],
    why: ["no tool call matches", "no tool call matches"],
  },
  {
    name: "forbidden steps: one happened, one did not",
    spec: { forbidden: [{ command: "rm -rf" }, { command: "does-not-exist" }] },
    met: 0,
    calls: [],
    violated: 1,
  },
  {
    name: "a shell write is a command, not a `writes` step",
    spec: { expect: [{ writes: "hello.txt" }] },
    met: 0,
    calls: [null],
  },
];

/** The agent's own command tool, for `%command` in the table. */
const COMMAND_TOOL: Record<string, string> = {
  claude: "Bash",
  codex: "command_execution",
  gemini: "run_shell_command",
  opencode: "bash",
};

describe.each(AGENT_NAMES)("steps on the %s recording", (agent) => {
  const calls = trajectory(agent);

  it("gives every call a neutral kind", () => {
    expect(calls.map((c) => c.kind)).toEqual([
      agent === "codex" ? "command" : "skill",
      "command",
      agent === "codex" ? "patch" : "write",
      "command",
    ]);
    expect(calls[0]?.skill_files).toEqual([{ skill: "hello", path: "SKILL.md" }]);
    expect(calls[2]?.paths).toEqual(["notes.md"]);
  });

  it.each(TABLE)("$name", (row) => {
    const m = matchSteps(steps(row.spec), calls);
    expect(m.met).toBe(row.met);
    expect(m.expected.map((r) => r.call)).toEqual(row.calls);
    if (row.why)
      expect(m.expected.map((r) => r.why)).toEqual(
        row.why.map((w) => w?.replace("%command", COMMAND_TOOL[agent] ?? "") ?? null),
      );
    expect(m.violated).toBe(row.violated ?? 0);
    if (row.violated) expect(m.forbidden.find((f) => f.matched)?.call).toBe(3);
  });

  it("a step may name the agent's own tool, and then only that agent's calls meet it", () => {
    const own = matchSteps(steps({ expect: [{ tool: COMMAND_TOOL[agent] }] }), calls);
    expect(own.expected[0]?.call).toBe(agent === "codex" ? 0 : 1);
    const other = agent === "claude" ? "bash" : "Bash";
    expect(matchSteps(steps({ expect: [{ tool: other }] }), calls).met).toBe(0);
  });

  it("args match the call's input fields by regex", () => {
    // Every agent's command tool names its input field `command`.
    const m = matchSteps(steps({ expect: [{ args: { command: "^cat does" } }] }), calls);
    expect(m.expected[0]?.call).toBe(3);
    expect(matchSteps(steps({ expect: [{ args: { nope: "." } }] }), calls).met).toBe(0);
  });
});

function call(index: number, tool: string, command: string | null = null): TrajectoryCall {
  return {
    index,
    tool,
    kind: command === null ? "other" : "command",
    input: {},
    command,
    paths: [],
    skill_files: [],
    failed: false,
  };
}

describe("the ordered matcher", () => {
  it("meets as many steps in order as it can, not the first one greedily", () => {
    // Greedy A at #3 would leave B and C (both at #2 and before) unmet.
    const calls = [call(0, "B"), call(1, "C"), call(2, "A")];
    const m = matchSteps(
      steps({ ordered: true, expect: [{ tool: "A" }, { tool: "B" }, { tool: "C" }] }),
      calls,
    );
    expect(m.expected.map((r) => r.call)).toEqual([null, 0, 1]);
    expect(m.met).toBe(2);
    expect(m.expected[0]?.why).toBe("out of order: only #3 (A) matches");
  });

  it("lets other calls come between steps, and one call meet one ordered step only", () => {
    const calls = [call(0, "A"), call(1, "X"), call(2, "A")];
    const m = matchSteps(steps({ ordered: true, expect: [{ tool: "A" }, { tool: "A" }] }), calls);
    expect(m.expected.map((r) => r.call)).toEqual([0, 2]);
  });
});

describe("step syntax", () => {
  it.each([
    [{ expect: [{}] }, "a step needs at least one of tool"],
    [{ expect: [{ command: "(" }] }, "Invalid regular expression: /(/: Unterminated group"],
    [{ expect: [{ tool: "x", bogus: 1 }] }, 'Unrecognized key: "bogus"'],
    [{}, "steps needs at least one step"],
  ])("refuses %j", (spec, msg) => {
    const r = StepsSchema.safeParse(spec);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join("\n")).toContain(msg);
  });

  it("tools: needs one assertion, max_calls a count or counts per tool", () => {
    expect(ToolsExpectSchema.safeParse({}).success).toBe(false);
    expect(ToolsExpectSchema.safeParse({ max_calls: { Bash: 2 } }).success).toBe(true);
    expect(ToolsExpectSchema.safeParse({ max_calls: -1 }).success).toBe(false);
  });
});

describe("trajectoryText", () => {
  it.each([
    [[], 24, "(no tool calls)"],
    [["Skill", "Bash", "Write"], 24, "Skill → Bash → Write"],
    [["a", "b", "c", "d", "e", "f", "g"], 5, "a → b → c → d → … 2 more … → g"],
  ])("%j (max %i)", (names, max, want) => {
    expect(
      trajectoryText(
        names.map((tool) => ({ tool })),
        max,
      ),
    ).toBe(want);
  });
});
