/** Each run settled once (src/plan): selection and the RunPlan every stage reads. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RunPlanSchema, settleRun, type PlanSettings } from "../../../src/plan/run-plan.js";
import { selectRuns } from "../../../src/plan/select.js";
import { loadSuiteProfiles } from "../../../src/scoring/index.js";
import { loadSuite } from "../../../src/suite/index.js";

const SUITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/suites/e2e-matrix",
);

async function settings(over: Partial<PlanSettings> = {}): Promise<PlanSettings> {
  const suite = await loadSuite(SUITE);
  return {
    suite,
    profiles: await loadSuiteProfiles(suite.profiles),
    profileOverride: null,
    timeoutSecOverride: null,
    sandbox: { cli: null, suite: null, probe: null, hasDockerfile: () => false },
    interaction: {},
    agents: {
      claude: { bin: "/bin/claude", version: "2.1.328" },
      codex: { bin: "/bin/codex", version: "0.50.0" },
    },
    model: "m",
    ...over,
  };
}

describe("selectRuns", () => {
  it("selects tasks × treatments × reps in a stable order, and names an unknown task", async () => {
    const s = await settings();
    const { taskNames, specs } = selectRuns(s.suite, { task: "needs-skill", count: 2 });
    expect(taskNames).toEqual(["needs-skill"]);
    expect(specs.map((r) => r.run_id)).toEqual([
      "needs-skill-CONTROL-r1",
      "needs-skill-CONTROL-r2",
      "needs-skill-WITH_SKILL-r1",
      "needs-skill-WITH_SKILL-r2",
    ]);
    expect(() => selectRuns(s.suite, { task: "nope", count: 1 })).toThrow(/nope/);
  });

  it("crosses treatments with each one's agents: ids name the agent only when a treatment has several", async () => {
    const s = await settings();
    const { specs } = selectRuns(s.suite, {
      task: "needs-skill",
      count: 1,
      agentsOf: (t) => (t === "WITH_SKILL" ? ["claude", "codex"] : ["codex"]),
    });
    expect(specs.map((r) => [r.run_id, r.agent])).toEqual([
      ["needs-skill-CONTROL-r1", "codex"],
      ["needs-skill-WITH_SKILL@claude-r1", "claude"],
      ["needs-skill-WITH_SKILL@codex-r1", "codex"],
    ]);
  });
});

describe("settleRun", () => {
  it("settles profile, sandbox, timeout, interaction, prompt and treatment files; the plan parses", async () => {
    const s = await settings();
    const [spec] = selectRuns(s.suite, {
      task: "needs-skill",
      treatment: "WITH_SKILL",
      count: 1,
    }).specs;
    const plan = settleRun(s, spec!, "11111111-2222-4333-8444-555555555555");
    expect(RunPlanSchema.parse(plan)).toEqual(plan);
    expect(plan).toMatchObject({
      run_id: "needs-skill-WITH_SKILL-r1",
      run_uuid: "11111111-2222-4333-8444-555555555555",
      agent: { name: "claude", version: "2.1.328" },
      model: "m",
      profile: "generic",
      timeout_sec: 120,
      interaction: { mode: "none" },
      treatment_files: { skills: [{ name: "greeter", source_type: "path" }], claude_md: false },
    });
    // Unprobed, auto resolves as if nothing were there: local, and the plan says why.
    expect(plan.sandbox.choice).toBe("auto");
    expect(plan.sandbox.kind).toBe("local");
    expect(plan.sandbox.why).toMatch(/auto:/);
    expect(plan.prompt.length).toBeGreaterThan(0);
  });

  it("records the run's own agent: its name, binary and version from the resolved agents", async () => {
    const s = await settings();
    const [spec] = selectRuns(s.suite, {
      task: "needs-skill",
      treatment: "CONTROL",
      count: 1,
      agentsOf: () => ["codex"],
    }).specs;
    expect(settleRun(s, spec!, "u").agent).toEqual({
      name: "codex",
      bin: "/bin/codex",
      version: "0.50.0",
    });
    // Before the agents are resolved (the pre-flight check) a plan has no binary or version.
    expect(settleRun({ ...s, agents: {} }, spec!, "u").agent).toEqual({
      name: "codex",
      bin: "",
      version: null,
    });
  });

  it("--profile, --timeout-sec and --sandbox win; an unknown profile is an input error naming --profile", async () => {
    const s = await settings({
      profileOverride: "comet-workflow",
      timeoutSecOverride: 7,
      sandbox: { cli: "bwrap", suite: null, probe: null, hasDockerfile: () => false },
    });
    const [spec] = selectRuns(s.suite, { task: "tone", count: 1 }).specs;
    const plan = settleRun(s, spec!, "u");
    expect(plan.profile).toBe("comet-workflow");
    expect(plan.prompt).toMatch(/^## Eval harness requirement/);
    expect(plan.timeout_sec).toBe(7);
    expect(plan.sandbox).toMatchObject({ choice: "bwrap", kind: "bwrap", why: "requested" });
    const bad = await settings({ profileOverride: "nope" });
    expect(() => settleRun(bad, spec!, "u")).toThrow(/--profile nope/);
  });
});
