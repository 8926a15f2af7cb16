import { describe, expect, it } from "vitest";
import { attributeFailures, ATTRIBUTION_REASONS as R } from "../../../src/analysis/attribution.js";

describe("attributeFailures", () => {
  it.each<[string, string, string[], string, string, string]>([
    [
      "rule 1, nothing invoked -> harness",
      "Required skill not invoked: hello",
      [],
      "comet",
      "harness",
      R.skill_never_invoked,
    ],
    [
      "rule 1, another skill invoked -> workflow",
      "required SKILL not invoked: hello",
      ["other"],
      "comet",
      "workflow",
      R.skill_contract,
    ],
    [
      "rule 1 loose form",
      "skill hello was not invoked",
      [],
      "generic",
      "harness",
      R.skill_never_invoked,
    ],
    [
      "rule 1 beats rule 2",
      "validator: skill not invoked",
      ["x"],
      "comet",
      "workflow",
      R.skill_contract,
    ],
    [
      "rule 2 validator",
      "Validator crashed: missing file",
      ["x"],
      "comet",
      "task",
      R.task_assumption,
    ],
    [
      "rule 2 artifact path",
      "Artifact path docs/out.md missing",
      ["x"],
      "comet",
      "task",
      R.task_assumption,
    ],
    [
      "rule 2 beats rule 3 (archive)",
      "spec not found in archive",
      ["x"],
      "comet",
      "task",
      R.task_assumption,
    ],
    [
      "rule 3 .comet.yaml",
      ".comet.yaml phase is wrong",
      ["x"],
      "comet",
      "workflow",
      R.workflow_state,
    ],
    ["rule 3 transition", "no TRANSITION to apply", ["x"], "comet", "workflow", R.workflow_state],
    [
      'rule 3 boundary: "xcometxyaml" is not ".comet.yaml" -> model',
      "xcometxyaml",
      ["x"],
      "comet",
      "model",
      R.model,
    ],
    [
      "rule 4 generic, nothing invoked",
      "tests failed",
      [],
      "generic",
      "harness",
      R.generic_not_run,
    ],
    [
      "rule 4 boundary: generic but a skill ran -> model",
      "tests failed",
      ["hello"],
      "generic",
      "model",
      R.model,
    ],
    [
      "rule 4 boundary: other profile, nothing invoked -> model",
      "tests failed",
      [],
      "comet",
      "model",
      R.model,
    ],
    [
      "rule 5 model",
      "Agent execution failed with exit code 1",
      ["hello"],
      "comet",
      "model",
      R.model,
    ],
  ])("%s", (_name, check, skills, profile, bucket, reason) => {
    expect(attributeFailures({ failed: [check], skills_invoked: skills, profile })).toEqual([
      { bucket, check, reason },
    ]);
  });

  it("returns one entry per failed check, in order", () => {
    const out = attributeFailures({
      failed: ["a validator broke", "tests failed"],
      skills_invoked: ["s"],
      profile: "x",
    });
    expect(out.map((a) => a.bucket)).toEqual(["task", "model"]);
  });

  it("no failed checks -> no attribution", () => {
    expect(attributeFailures({ failed: [], skills_invoked: [], profile: "generic" })).toEqual([]);
  });
});

describe("no-skill baselines (CONTROL)", () => {
  it.each([
    ["Required skill not invoked: greeter", "workflow"],
    ["hello_exact: wrong greeting", "model"],
    ["Artifact not found via validator", "task"],
  ] as const)("%s -> %s", (check, bucket) => {
    const [a] = attributeFailures({
      failed: [check],
      skills_invoked: [],
      profile: "generic",
      treatment_skills: [],
    });
    expect(a?.bucket).toBe(bucket);
  });
  it("keeps the harness bucket when the treatment did install a skill", () => {
    const [a] = attributeFailures({
      failed: ["x failed"],
      skills_invoked: [],
      profile: "generic",
      treatment_skills: ["greeter"],
    });
    expect(a?.bucket).toBe("harness");
  });
});
