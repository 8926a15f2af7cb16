/**
 * The settings every run's plan is settled from are built in one function
 * (src/runner/plan-suite.ts `planSettings`) and frozen: the pre-flight check's and the runs'
 * settings differ only by what runSuite learns in between (the sandbox probe, the agents, the
 * simulator prompts), and nothing changes them after they are built.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { settleRun } from "../../../src/plan/run-plan.js";
import { selectRuns } from "../../../src/plan/select.js";
import { planSettings, planSuite } from "../../../src/runner/plan-suite.js";
import { loadSuite } from "../../../src/suite/index.js";

const SUITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/suites/e2e-matrix",
);

describe("planSettings", () => {
  it("builds the settings once, frozen, with what was learnt; a plan settled from them records it", async () => {
    const suite = await loadSuite(SUITE);
    const { profiles } = await planSuite(suite, { suite: SUITE, task: "needs-skill" }, {}, SUITE);
    const s = planSettings(
      suite,
      { profile: "generic", timeoutSec: 7, sandbox: "local", simulatorModel: "sim" },
      profiles,
      "m",
      {
        probe: { dockerDaemon: false, bwrap: true },
        agents: { claude: { bin: "/bin/claude", version: "2.1.328" } },
        envPromptFileText: "be brief",
        suitePromptFileText: null,
      },
    );
    for (const part of [s, s.sandbox, s.interaction, s.agents])
      expect(Object.isFrozen(part)).toBe(true);
    expect(Reflect.set(s, "model", "other")).toBe(false);
    expect(Reflect.set(s.sandbox, "probe", null)).toBe(false);
    expect(Reflect.set(s.agents, "codex", { bin: "/bin/codex", version: null })).toBe(false);
    expect(s.model).toBe("m");
    expect(s.sandbox.probe).toEqual({ dockerDaemon: false, bwrap: true });

    const [spec] = selectRuns(suite, {
      task: "needs-skill",
      treatment: "WITH_SKILL",
      count: 1,
    }).specs;
    expect(settleRun(s, spec!, "u")).toMatchObject({
      agent: { name: "claude", bin: "/bin/claude", version: "2.1.328" },
      model: "m",
      profile: "generic",
      timeout_sec: 7,
      sandbox: { choice: "local", kind: "local" },
      interaction: {
        simulator_model: "sim",
        simulator_prompt: "be brief",
        simulator_prompt_source: "env_file",
      },
    });
  });

  it("the pre-flight check settles every planned run from the same function, before any agent is resolved", async () => {
    const suite = await loadSuite(SUITE);
    await expect(
      planSuite(suite, { suite: SUITE, task: "needs-skill", profile: "nope" }, {}, SUITE),
    ).rejects.toThrow(InputError);
    await expect(
      planSuite(suite, { suite: SUITE, task: "needs-skill", profile: "nope" }, {}, SUITE),
    ).rejects.toThrow(/--profile/);
  });
});
