/** The pure outcome rules of a run (src/runner/evaluate.ts): agent outcome → outcome, status, checks. */
import { describe, expect, it } from "vitest";
import { evaluateRun, type EvaluateInput } from "../../../src/runner/evaluate.js";

function input(over: Partial<EvaluateInput>): EvaluateInput {
  return {
    spec: { run_id: "t-A-r1", task: "t", treatment: "A", rep: 1 },
    experimentId: "x",
    runUuid: "u",
    task: undefined,
    treatment: undefined,
    profileName: "generic",
    agent: { outcome: "completed", exit_code: 0, detail: "", interaction: null },
    evidence: null,
    validation: { artifacts: [], scripts: [], passed: ["ok"], failed: [] },
    rubric: null,
    judge: null,
    sandbox: null,
    harnessError: null,
    stdoutTail: "",
    stderrTail: "",
    model: null,
    agentInfo: { name: "claude-code", bin: "claude", version: null },
    suiteHash: "h",
    timing: { started_at: "s", finished_at: "f", wall_ms: 1 },
    artifacts: {
      stdout: "stdout.jsonl",
      stderr: "stderr.txt",
      events: null,
      validation: null,
      workspace: null,
    },
    ...over,
  };
}

describe("evaluateRun outcome rules", () => {
  it.each([
    ["completed", "completed", "passed", 0],
    ["timeout", "timeout", "failed", 1],
    ["crashed", "agent_error", "failed", 1],
    ["empty_output", "agent_error", "failed", 1],
    ["spawn_error", "harness_error", "errored", 0],
    ["aborted", "harness_error", "errored", 0],
    ["simulator_error", "harness_error", "errored", 1],
  ])("agent %s → outcome %s, status %s, %i failed check(s)", (agent, outcome, status, failed) => {
    const r = evaluateRun(
      input({ agent: { outcome: agent, exit_code: 1, detail: "d", interaction: null } }),
    );
    expect(r.outcome).toBe(outcome);
    expect(r.status).toBe(status);
    expect(r.agent_outcome).toBe(agent);
    expect(r.checks_failed).toHaveLength(failed);
    expect(r.checks_passed).toEqual(["ok"]);
  });

  it("no agent summary is a harness error; a harness error is a failed check of its own", () => {
    expect(evaluateRun(input({ agent: null })).outcome).toBe("harness_error");
    const r = evaluateRun(input({ harnessError: "disk gone" }));
    expect(r.status).toBe("errored");
    expect(r.checks_failed).toEqual(["Harness error: disk gone"]);
    expect(r.failures[0]).toMatchObject({ source: "harness", code: "harness_error" });
  });

  it("a failed validator check fails the run; a missing artifact is typed as such", () => {
    const r = evaluateRun(
      input({
        validation: {
          artifacts: [{ path: "out.txt", found: false, matches: [] }],
          scripts: [],
          passed: [],
          failed: ["Missing artifact: out.txt"],
        },
      }),
    );
    expect(r.passed).toBe(false);
    expect(r.status).toBe("failed");
    expect(r.failures[0]).toMatchObject({ source: "artifact", code: "artifact_missing" });
  });
});
