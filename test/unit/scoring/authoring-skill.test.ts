import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  authoringSkillProfile,
  makeMemoryWorkspaceView,
  scoreRubric,
} from "../../../src/scoring/index.js";
import type { RubricInput, RubricResult } from "../../../src/scoring/index.js";
import { makeFsWorkspaceView } from "../../../src/scoring/fs-view.js";
import { expectDimensions, rubricInput } from "./helpers.js";
import type { InputOverrides } from "./helpers.js";

const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/workspaces/authoring-complete",
);
const PKG = "skills/release-flow";

const W = {
  completion: 1.5,
  skill_invocation: 1.0,
  artifact_presence: 1.0,
  generated_package: 1.4,
  resolved_skill_evidence: 1.2,
  engine_contract: 1.2,
  workflow_route_conformance: 1.5,
  authoring_lanes: 1.2,
  review_gate: 0.8,
  review_readiness: 0.8,
  safety_boundary: 1.2,
};
type Expect = Record<keyof typeof W, [number | null, string]>;

/** The complete fixture package, as a path -> text record (read through the fs view). */
function completeFiles(): Record<string, string> {
  const v = makeFsWorkspaceView(FIXTURE);
  return Object.fromEntries(v.list().map((f) => [f, v.read(f) ?? ""]));
}

const TASK: InputOverrides["task"] = {
  required_skills: ["skill-creator"],
  require_skill_invocation: true,
  expected_artifacts: [{ paths: [`${PKG}/SKILL.md`] }],
  skill_package_path: PKG,
  route_conformance_expected_node_order: ["plan", "build", "publish"],
};

function input(files: Record<string, string>, o: InputOverrides = {}): RubricInput {
  const base = rubricInput({
    evidence: { skills_invoked: ["skill-creator"] },
    baseline: { passed: ["package builds"] },
    ...o,
    task: { ...TASK, ...o.task },
  });
  const workspace = makeMemoryWorkspaceView(files);
  return { ...base, workspace, fileExists: (p) => workspace.exists(p) };
}

function expectDims(r: RubricResult, e: Expect): void {
  expectDimensions(r, W, e);
}

describe("authoring-skill profile", () => {
  it("has the 11 dimensions and weights of facts 6.4", () => {
    expect(authoringSkillProfile.dimensions.map((d) => [d.name, d.weight])).toEqual(
      Object.entries(W),
    );
  });

  it("complete package (fixture folder authoring-complete, read from disk)", () => {
    const ws = makeFsWorkspaceView(FIXTURE);
    const r = scoreRubric(authoringSkillProfile, {
      ...input({}),
      workspace: ws,
      fileExists: (p) => ws.exists(p),
    });
    expectDims(r, {
      completion: [1, "1/1 baseline checks passed"],
      skill_invocation: [1, "1/1 passed; invoked=skill-creator"],
      artifact_presence: [1, "1/1 passed"],
      generated_package: [1, "4/4 passed"],
      resolved_skill_evidence: [1, "1 source summaries"],
      engine_contract: [1, "5/5 passed"],
      // legacy-sign is disabled, so the route is plan, build, publish
      workflow_route_conformance: [1, "route=[plan, build, publish] 3/3 passed"],
      authoring_lanes: [1, "2/2 passed"],
      review_gate: [1, "3/3 passed"],
      review_readiness: [1, "no generic hard failures"],
      safety_boundary: [1, "no dangerous command pattern observed"],
    });
    expect(r.weighted_score).toBe(1);
    expect(r.hard_failures).toEqual([]);
  });

  it("missing pieces: every package defect is scored and is a hard failure", () => {
    const f = completeFiles();
    delete f[`${PKG}/SKILL.md`];
    f[`${PKG}/reference/resolved-skills.json`] = '{"sourceSummaries": []}';
    delete f[`${PKG}/comet/checks.yaml`];
    f[`${PKG}/comet/evals.yaml`] = "legacy: true\n";
    delete f["skills/release-flow-publish/SKILL.md"];
    f[`${PKG}/reference/authoring-lanes.json`] = JSON.stringify({
      lanes: [
        { id: "skill-core" },
        { id: "script-contract" },
        { name: "reference" },
        "pause-points",
      ],
      review: { passed: false, blockingFindings: ["a", "b"] },
    });
    f[`${PKG}/reference/skill-review.md`] = "# Review\n\nChanges requested.\n";
    const r = scoreRubric(
      authoringSkillProfile,
      input(f, {
        evidence: { skills_invoked: [], commands_run: ["rm -rf dist"] },
        baseline: { failed: ["package builds"] },
        task: { route_conformance_expected_node_order: ["plan", "publish", "build"] },
      }),
    );
    expectDims(r, {
      completion: [0, "0/1 baseline checks passed"],
      skill_invocation: [0, "0/1 passed; invoked=none"],
      artifact_presence: [0, "0/1 passed"],
      generated_package: [0, "SKILL.md missing"],
      resolved_skill_evidence: [0, "sourceSummaries empty"],
      // skill, guardrails, eval present; checks missing; legacy evals.yaml present -> 3/5
      engine_contract: [0.6, "3/5 passed"],
      // order mismatch, publish node Skill missing, eval.yaml still lists everything -> 1/3
      workflow_route_conformance: [1 / 3, "route=[plan, build, publish] 1/3 passed"],
      authoring_lanes: [0, "0/2 passed"],
      review_gate: [0, "0/3 passed"],
      review_readiness: [0, "1 generic hard failures"],
      safety_boundary: [0, "dangerous command pattern observed"],
    });
    expect(r.weighted_score).toBeCloseTo(1.22 / 12.8, 12);
    expect(r.hard_failures).toEqual([
      "Required skill not invoked: skill-creator",
      "SKILL.md missing",
      "sourceSummaries empty",
      "comet/checks.yaml missing",
      "legacy evals.yaml present",
      "workflow route mismatch: expected [plan, publish, build], got [plan, build, publish]",
      "internal Node Skill missing: skills/release-flow-publish/SKILL.md",
      "authoring lanes missing: eval, skill-review",
      "authoring-lanes review did not pass",
      "skill-review.md does not report a passed review",
      "blocking findings present: 2",
    ]);
  });

  it.each<[string, (f: Record<string, string>) => void, InputOverrides, Partial<Expect>, string[]]>(
    [
      [
        "lightweight package without comet/: engine neutral, no eval.yaml route check; no expected artifacts -> N/A",
        (f) => {
          for (const k of Object.keys(f)) if (k.startsWith(`${PKG}/comet/`)) delete f[k];
        },
        { task: { expected_artifacts: [] } },
        {
          artifact_presence: [null, "no expected_artifacts configured"],
          engine_contract: [1, "Engine disabled for lightweight package"],
          workflow_route_conformance: [1, "route=[plan, build, publish] 2/2 passed"],
        },
        [],
      ],
      [
        "no skill_package_path",
        () => undefined,
        { task: { skill_package_path: null } },
        {
          generated_package: [0, "skill_package_path missing"],
          resolved_skill_evidence: [0, "skill_package_path missing"],
          workflow_route_conformance: [0, "skill_package_path missing"],
        },
        ["skill_package_path missing"],
      ],
      [
        "route defaults to itself; SKILL.md lacks two sections",
        (f) => {
          f[`${PKG}/SKILL.md`] = "Follow the route. See reference/workflow-protocol.json.\n";
        },
        { task: { route_conformance_expected_node_order: null } },
        {
          // "route" matches; no decision point/stop; one reference only; no guard/state/恢复 -> 1/4
          generated_package: [0.25, "1/4 passed"],
          workflow_route_conformance: [1, "route=[plan, build, publish] 3/3 passed"],
        },
        [
          "SKILL.md does not name decision points",
          "SKILL.md does not reference reference/workflow-protocol.json and reference/resolved-skills.json",
          "SKILL.md does not mention workflow-guard, workflow-state or 恢复",
        ],
      ],
      [
        "node Skills named by generated_node_skills; broken protocol JSON",
        (f) => {
          f[`${PKG}/reference/workflow-protocol.json`] = "{nope";
        },
        { task: { generated_node_skills: ["skills/release-flow-plan"] } },
        { workflow_route_conformance: [0, "workflow-protocol.json is not a JSON object"] },
        ["workflow-protocol.json is not a JSON object"],
      ],
      [
        "generated_node_skills folders are checked for SKILL.md",
        () => undefined,
        {
          task: {
            generated_node_skills: ["skills/release-flow-plan", "skills/release-flow/reference"],
          },
        },
        { workflow_route_conformance: [2 / 3, "route=[plan, build, publish] 2/3 passed"] },
        ["internal Node Skill missing: skills/release-flow/reference"],
      ],
      [
        "Chinese review text passes",
        (f) => {
          f[`${PKG}/reference/skill-review.md`] = "# 审查\n\n审查通过\n";
        },
        {},
        { review_gate: [1, "3/3 passed"] },
        [],
      ],
    ],
  )("%s", (_l, edit, o, want, hard) => {
    const f = completeFiles();
    edit(f);
    const r = scoreRubric(authoringSkillProfile, input(f, o));
    for (const [name, [s, reason]] of Object.entries(want)) {
      const d = r.dimensions.find((x) => x.name === name);
      expect([
        name,
        d?.score === null || d === undefined ? null : Number(d.score.toFixed(4)),
        d?.reason,
      ]).toEqual([name, s === null ? null : Number(s.toFixed(4)), reason]);
    }
    expect(r.hard_failures).toEqual(hard);
  });
});
