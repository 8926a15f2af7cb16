/** Each run's agent, settled by the plan: treatment pins, the --agent default, run ids, model-server paths. */
import { describe, expect, it } from "vitest";
import { planRuns } from "../../../src/plan/matrix.js";
import { agentsOfTreatments } from "../../../src/plan/agents.js";
import { parseRunPath, runBaseUrl } from "../../../src/model/run-path.js";
import { InputError } from "../../../src/core/errors.js";
import { load, loadError, oneTask } from "../suite/make-suite.js";

const TREATMENTS = `
CONTROL: {description: none}
PINNED: {agent: codex}
BOTH: {agent: [claude, gemini]}
FREE: {}
`;

describe("treatment agent pins", () => {
  it("reads agent: as one name or a list", async () => {
    const { suite } = await load(oneTask("", { "treatments/t.yaml": TREATMENTS }));
    const pins = Object.fromEntries(suite.treatments.map((t) => [t.name, t.agents ?? null]));
    expect(pins).toEqual({
      CONTROL: null,
      PINNED: ["codex"],
      BOTH: ["claude", "gemini"],
      FREE: null,
    });
  });

  it.each([
    [
      "an unknown agent",
      "X: {agent: cursor}\n",
      'treatments/t.yaml: X.agent: unknown agent "cursor": use one of claude, codex, gemini, opencode',
    ],
    [
      "an agent listed twice",
      "X: {agent: [codex, codex]}\n",
      'treatments/t.yaml: X.agent: agent "codex" is listed twice',
    ],
    [
      "an empty list",
      "X: {agent: []}\n",
      "treatments/t.yaml: X.agent: name at least one agent (claude, codex, gemini, opencode), or leave it out",
    ],
    [
      "a number",
      "X: {agent: 3}\n",
      "treatments/t.yaml: X.agent: expected a string or a list of strings, got number 3",
    ],
  ])("refuses %s, naming file and field", async (_n, yaml, message) => {
    expect(await loadError(oneTask("", { "treatments/t.yaml": yaml }))).toContain(message);
  });
});

describe("planRuns with agents", () => {
  it("uses the pin, else --agent; a treatment on several agents names the agent in its run ids", async () => {
    const { suite } = await load(oneTask("", { "treatments/t.yaml": TREATMENTS }));
    const runs = planRuns({
      tasks: [{ name: "t", default_treatments: [] }],
      treatments: suite.treatments.map((t) => t.name),
      treatmentFilter: null,
      count: 1,
      agentsOf: agentsOfTreatments(suite, { agent: "opencode" }),
    });
    expect(runs.map((r) => [r.run_id, r.agent])).toEqual([
      ["t-CONTROL-r1", "opencode"],
      ["t-PINNED-r1", "codex"],
      ["t-BOTH@claude-r1", "claude"],
      ["t-BOTH@gemini-r1", "gemini"],
      ["t-FREE-r1", "opencode"],
    ]);
  });

  it("crosses every unpinned treatment with a comma list of agents", async () => {
    const { suite } = await load(oneTask("", { "treatments/t.yaml": "WITH: {}\n" }));
    const runs = planRuns({
      tasks: [{ name: "t", default_treatments: [] }],
      treatments: suite.treatments.map((t) => t.name),
      treatmentFilter: null,
      count: 2,
      agentsOf: agentsOfTreatments(suite, { agent: "claude-code, codex" }),
    });
    expect(runs.map((r) => r.run_id)).toEqual([
      "t-CONTROL@claude-r1",
      "t-CONTROL@claude-r2",
      "t-CONTROL@codex-r1",
      "t-CONTROL@codex-r2",
      "t-WITH@claude-r1",
      "t-WITH@claude-r2",
      "t-WITH@codex-r1",
      "t-WITH@codex-r2",
    ]);
  });

  it("refuses an unknown --agent", async () => {
    const { suite } = await load(oneTask("", {}));
    expect(() => agentsOfTreatments(suite, { agent: "claude,cursor" })).toThrow(InputError);
    expect(() => agentsOfTreatments(suite, { agent: "claude,cursor" })).toThrow(
      'unknown agent "cursor": use one of claude, codex, gemini, opencode',
    );
  });

  it("defaults to claude without agentsOf", () => {
    const runs = planRuns({
      tasks: [{ name: "t", default_treatments: [] }],
      treatments: ["CONTROL"],
      treatmentFilter: null,
      count: 1,
    });
    expect(runs).toEqual([
      {
        run_id: "t-CONTROL-r1",
        task: "t",
        treatment: "CONTROL",
        rep: 1,
        agent: "claude",
        model: null,
      },
    ]);
  });
});

describe("model-server paths carry the agent", () => {
  it("round-trips <treatment>@<agent>", () => {
    const url = runBaseUrl("http://127.0.0.1:1/", {
      task: "t",
      treatment: "WITH",
      rep: 2,
      role: "subject",
      agent: "codex",
    });
    expect(url).toBe("http://127.0.0.1:1/runs/t/WITH%40codex/2/subject");
    const parsed = parseRunPath(`${new URL(url).pathname}/v1/responses`);
    expect(parsed).toEqual({
      ok: true,
      run: { task: "t", treatment: "WITH", rep: 2, role: "subject", agent: "codex" },
      rest: "/v1/responses",
    });
  });

  it("leaves paths without an agent as they were", () => {
    expect(parseRunPath("/runs/t/WITH/1/judge/v1/messages")).toEqual({
      ok: true,
      run: { task: "t", treatment: "WITH", rep: 1, role: "judge" },
      rest: "/v1/messages",
    });
  });
});
