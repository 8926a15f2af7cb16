/**
 * Adding an agent is one folder and one registry line (docs/agents.md, "Adding an agent"): a
 * fixture driver registered at test time is picked by name and alias and gets its report name,
 * its Skill folders in evidence, its tool table in the scripted model and its telemetry
 * provider, with no other file edited. The built-in registry and the report schema stay as they
 * are.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AGENT_NAMES,
  agentDriver,
  agentNames,
  registerAgent,
  reportAgentName,
} from "../../../src/agents/index.js";
import { builtInReportNames, defaultAgent } from "../../../src/agents/registry.js";
import { BUILT_IN_REPORT_NAMES } from "../../../src/agents/report-names.js";
import { RunReportSchema, type RunReport } from "../../../src/core/report.js";
import { findSkillPaths } from "../../../src/evidence/paths.js";
import { actionToTool, dialectOf } from "../../../src/model/dialect.js";
import { planRunSpans } from "../../../src/telemetry/plan-run.js";
import { fixtureDriver } from "../../fixtures/agents/fixture-agent/driver.js";
import { load, oneTask } from "../suite/make-suite.js";

const SKILL_READ = "cat .fixturecli/skills/hello/SKILL.md";

/** The run span's GenAI provider of a report whose agent has `name`. */
function providerOf(name: string): unknown {
  const report = { ...minimalReport(), agent: { name, bin: null, version: null } } as RunReport;
  const spans = planRunSpans(
    {
      report,
      evidence: null,
      lineTimes: null,
      toolLines: new Map(),
      validators: [],
      scriptedModel: true,
    },
    { includeContent: false, redact: (s) => s, maxChars: 10 },
  );
  return spans[0]?.attributes["gen_ai.provider.name"];
}

describe("the built-in registry", () => {
  it("lists the four agents in the report's order, Claude Code first and the default", () => {
    expect(AGENT_NAMES).toEqual(["claude", "codex", "gemini", "opencode"]);
    expect(builtInReportNames()).toEqual(["claude-code", "codex", "gemini", "opencode"]);
    // The report schema's enum lists the drivers' report names, in registry order.
    expect(BUILT_IN_REPORT_NAMES).toEqual(builtInReportNames());
    expect(defaultAgent().name).toBe("claude");
    expect(agentDriver("claude-code")?.name).toBe("claude");
    expect(agentDriver("gemini-cli")?.name).toBe("gemini");
    expect(agentDriver("opencode-ai")?.name).toBe("opencode");
    expect(agentDriver("fixture-cli")).toBeNull();
    expect(providerOf("claude-code")).toBe("anthropic");
    expect(providerOf("opencode")).toBeUndefined();
  });

  it("refuses a name or alias already taken", () => {
    expect(() => registerAgent({ ...fixtureDriver, aliases: ["claude-code"] })).toThrow(
      /"claude-code" is already registered/,
    );
    expect(agentNames()).toEqual([...AGENT_NAMES]);
  });
});

describe("a fixture agent registered at test time", () => {
  let unregister: () => void = () => undefined;
  beforeEach(() => {
    // Before: the fixture's Skill folder means nothing to evidence (the regex is the registry's).
    expect(findSkillPaths(SKILL_READ)).toEqual([]);
    unregister = registerAgent(fixtureDriver);
  });
  afterEach(() => unregister());

  it("is picked by name and alias, after the built-in agents", () => {
    expect(agentDriver("fixture-cli")).toBe(fixtureDriver);
    expect(agentDriver("fixture")).toBe(fixtureDriver);
    expect(agentNames()).toEqual([...AGENT_NAMES, "fixture-cli"]);
  });

  it("is accepted where a user names an agent: a treatment's `agent:` pin", async () => {
    const { suite } = await load(
      oneTask("", { "treatments/t.yaml": "PINNED: {agent: fixture-cli}\n" }),
    );
    expect(suite.treatments.find((t) => t.name === "PINNED")?.agents).toEqual(["fixture-cli"]);
  });

  it("gets its report name; the report schema's enum stays the built-in one", () => {
    expect(reportAgentName("fixture")).toBe("fixture-cli-report");
    expect(builtInReportNames()).toEqual(["claude-code", "codex", "gemini", "opencode"]);
  });

  it("has its Skill folder found in evidence", () => {
    expect(findSkillPaths(SKILL_READ)).toEqual([
      { skill: "hello", path: ".fixturecli/skills/hello/SKILL.md" },
    ]);
    unregister();
    expect(findSkillPaths(SKILL_READ)).toEqual([]);
  });

  it("is recognised by the scripted model from its tools and answered with its own tool table", () => {
    expect(dialectOf("openai-chat", ["fx_shell", "other"])).toBe("fixture-cli");
    // A request with a built-in agent's tools is still that agent's.
    expect(dialectOf("anthropic", ["Bash"])).toBe("claude");
    const facts = { tools: ["fx_shell"], skillFiles: {} };
    expect(actionToTool({ action: "run", command: "ls" }, "fixture-cli", facts)).toEqual({
      name: "fx_shell",
      input: { script: "ls" },
    });
    expect(actionToTool({ action: "skill", skill: "hello" }, "fixture-cli", facts)).toEqual({
      name: "fx_skill",
      input: { id: "hello" },
    });
  });

  it("gives its telemetry provider to its runs' spans", () => {
    expect(providerOf("fixture-cli-report")).toBe("fixture.provider");
  });
});

function minimalReport(): RunReport {
  return RunReportSchema.parse({
    schema: "skillbench.report.v1",
    run_id: "t-A-r1",
    run_uuid: null,
    experiment_id: "exp-1",
    task: "t",
    treatment: "A",
    rep: 1,
    passed: true,
    status: "passed",
    outcome: "completed",
    agent_outcome: "completed",
    outcome_detail: "completed",
    harness_error: null,
    exit_code: 0,
    checks_passed: [],
    checks_failed: [],
    rubric: {
      profile: "generic",
      dimensions: [],
      weighted_score: 1,
      rubric_avg: 1,
    },
    rubric_lines: [],
    events_summary: null,
    skill_sources: [],
    sample_quality: {
      status: "included",
      reason_code: "valid_signal",
      reason: "",
      include_in_analysis: true,
      confidence: "high",
      evidence: [],
    },
    failure_attribution: [],
    interaction: null,
    judge: null,
    model: "m",
    sandbox: null,
    agent: { name: "codex", bin: null, version: null },
    hashes: { task: "h", suite: "h" },
    timing: {
      started_at: "2026-01-01T00:00:00.000Z",
      finished_at: "2026-01-01T00:00:01.000Z",
      wall_ms: 1000,
    },
    artifacts: { stdout: "", stderr: "", events: null, validation: null, workspace: null },
    timestamp: "",
  });
}
