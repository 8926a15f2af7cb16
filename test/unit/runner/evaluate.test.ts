/** The pure outcome rules of a run (src/runner/evaluate.ts): agent outcome → outcome, status, checks. */
import { describe, expect, it } from "vitest";
import { evaluateRun } from "../../../src/runner/evaluate.js";
import { evaluateInput as input } from "./evaluate-input.js";

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
