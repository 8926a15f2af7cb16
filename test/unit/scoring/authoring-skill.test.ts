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
  it("has the 11 dimensions and weights of docs/rubrics.md", () => {
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
        { lane: "skill-core" },
        { lane: "script-contract" },
        { lane: "reference" },
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
      workflow_route_conformance: [
        1 / 3,
        "route=[plan, build, publish] expected=[plan, publish, build] 1/3 passed",
      ],
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
      "checks.yaml missing",
      "legacy evals.yaml present",
      "workflow route mismatch: expected ['plan', 'publish', 'build'], got ['plan', 'build', 'publish']",
      "internal Node Skill missing: release-flow-publish",
      "authoring lanes missing: eval, skill-review",
      "authoring-lanes review did not pass",
      "skill-review.md does not report a passed review",
      "blocking findings present: 2",
    ]);
  });

  it.each<[string, (f: Record<string, string>) => void, InputOverrides, Partial<Expect>, string[]]>(
    [
      [
        "lightweight package without comet/: engine neutral, the eval.yaml route check passes; no expected artifacts -> N/A",
        (f) => {
          for (const k of Object.keys(f)) if (k.startsWith(`${PKG}/comet/`)) delete f[k];
        },
        { task: { expected_artifacts: [] } },
        {
          artifact_presence: [null, "no expected_artifacts configured"],
          engine_contract: [1, "Engine disabled for lightweight package"],
          workflow_route_conformance: [1, "route=[plan, build, publish] 3/3 passed"],
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
          "decision-point guidance missing",
          "workflow and resolved-skill references missing",
          "workflow guard or recovery guidance missing",
        ],
      ],
      [
        "node Skills named by generated_node_skills; broken protocol JSON",
        (f) => {
          f[`${PKG}/reference/workflow-protocol.json`] = "{nope";
        },
        { task: { generated_node_skills: ["release-flow-plan"] } },
        { workflow_route_conformance: [0, "workflow-protocol.json missing or invalid"] },
        ["workflow-protocol.json missing or invalid"],
      ],
      [
        "generated_node_skills are Skill names beside the package, each with a SKILL.md",
        () => undefined,
        { task: { generated_node_skills: ["release-flow-plan", "release-flow"] } },
        // both have a SKILL.md; eval.yaml names both (substrings, as the original checks) -> 3/3
        { workflow_route_conformance: [1, "route=[plan, build, publish] 3/3 passed"] },
        [],
      ],
      [
        "a generated_node_skills name without a SKILL.md is named in the failure",
        () => undefined,
        { task: { generated_node_skills: ["release-flow-plan", "release-flow-sign"] } },
        // node Skill missing; eval.yaml does not name release-flow-sign -> 1/3
        { workflow_route_conformance: [1 / 3, "route=[plan, build, publish] 1/3 passed"] },
        [
          "internal Node Skill missing: release-flow-sign",
          "comet/eval.yaml missing workflow-route-conformance route entries",
        ],
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

/**
 * Small packages built in memory. Each case gives the score the original harness's
 * authoring_rubric.py gives, worked out by hand from its rules (comment), and ours.
 * Package `skills/rel_flow`, workflow `rel_flow`, nodes draft, qa_check, ship.
 */
describe("authoring-skill: route, node Skills, lanes and review on small packages", () => {
  const P = "skills/rel_flow";
  const SKILL_MD =
    "## Workflow route\n\nDecision point: stop before ship.\n\n" +
    "See reference/workflow-protocol.json and reference/resolved-skills.json.\n\n" +
    "Progress lives in workflow-state.\n";
  const NEW_LANES = [
    "skill-core",
    "script",
    "reference",
    "pause-points",
    "workflow-entry",
    "skill-review",
  ];
  const OLD_LANES = [
    "skill-core",
    "script-contract",
    "reference",
    "pause-points",
    "eval",
    "skill-review",
  ];

  interface Pkg {
    protocol?: unknown;
    nodeSkills?: string[];
    lanes?: unknown;
    review?: unknown;
    reviewMd?: string | null;
    /** comet/ engine files; `eval` is the eval.yaml text. */
    comet?: { eval: string } | null;
  }

  function pkg(o: Pkg = {}): Record<string, string> {
    const f: Record<string, string> = {
      [`${P}/SKILL.md`]: SKILL_MD,
      [`${P}/reference/resolved-skills.json`]: JSON.stringify({ sourceSummaries: ["x"] }),
      [`${P}/reference/workflow-protocol.json`]: JSON.stringify(
        o.protocol ?? {
          name: "rel_flow",
          nodes: [{ id: "draft" }, { id: "qa_check" }, { id: "ship" }],
        },
      ),
      [`${P}/reference/authoring-lanes.json`]: JSON.stringify({
        lanes: o.lanes ?? NEW_LANES,
        review: o.review ?? { passed: true, blockingFindings: [] },
      }),
    };
    if (o.reviewMd !== null) f[`${P}/reference/skill-review.md`] = o.reviewMd ?? "Review passed.\n";
    for (const n of o.nodeSkills ?? ["rel_flow-draft", "rel_flow-qa_check", "rel_flow-ship"])
      f[`skills/${n}/SKILL.md`] = `# ${n}\n`;
    if (o.comet) {
      for (const y of ["skill.yaml", "guardrails.yaml", "checks.yaml"])
        f[`${P}/comet/${y}`] = "x: 1\n";
      f[`${P}/comet/eval.yaml`] = o.comet.eval;
    }
    return f;
  }

  const FULL_EVAL =
    "tasks:\n  - name: workflow-route-conformance\n    route: [draft, qa_check, ship]\n" +
    "    skills: [rel_flow-draft, rel_flow-qa_check, rel_flow-ship]\n";

  function score(files: Record<string, string>, task: InputOverrides["task"] = {}) {
    const ws = makeMemoryWorkspaceView(files);
    return scoreRubric(authoringSkillProfile, {
      ...rubricInput({
        evidence: { skills_invoked: ["skill-creator"] },
        baseline: { passed: ["package builds"] },
        task: {
          required_skills: ["skill-creator"],
          expected_artifacts: [],
          skill_package_path: P,
          ...task,
        },
      }),
      workspace: ws,
      fileExists: (p) => ws.exists(p),
    });
  }

  function dim(r: RubricResult, name: string): [number | null, string] {
    const d = r.dimensions.find((x) => x.name === name);
    return [
      d?.score === null || d === undefined ? null : Number(d.score.toFixed(4)),
      d?.reason ?? "",
    ];
  }

  const r4 = (x: number) => Number(x.toFixed(4));

  // [label, package, task, original route score (by hand), our reason, hard failures]
  it.each<[string, Pkg, InputOverrides["task"], number, string, string[]]>([
    [
      // slug keeps "_": rel_flow-qa_check found; lightweight: eval check passes -> 3/3
      "underscores: rel_flow + qa_check -> rel_flow-qa_check",
      {},
      {},
      1,
      "route=[draft, qa_check, ship] 3/3 passed",
      [],
    ],
    [
      // the original looks for rel_flow-qa_check; a dashed folder does not count -> 2/3
      "underscores: a node Skill written as rel-flow-qa-check is missing, and named",
      { nodeSkills: ["rel_flow-draft", "rel-flow-qa-check", "rel_flow-ship"] },
      {},
      2 / 3,
      "route=[draft, qa_check, ship] 2/3 passed",
      ["internal Node Skill missing: rel_flow-qa_check"],
    ],
    [
      // lightweight, one node Skill missing: [route ok, skills missing, eval passes] -> 2/3
      "lightweight package, one node Skill missing: three checks, the eval.yaml one passes",
      { nodeSkills: ["rel_flow-draft", "rel_flow-qa_check"] },
      {},
      2 / 3,
      "route=[draft, qa_check, ship] 2/3 passed",
      ["internal Node Skill missing: rel_flow-ship"],
    ],
    [
      // task order differs: [mismatch, skills ok, eval passes] -> 2/3
      "route differs from the task's route_conformance_expected_node_order",
      {},
      { route_conformance_expected_node_order: ["draft", "ship", "qa_check"] },
      2 / 3,
      "route=[draft, qa_check, ship] expected=[draft, ship, qa_check] 2/3 passed",
      [
        "workflow route mismatch: expected ['draft', 'ship', 'qa_check'], got ['draft', 'qa_check', 'ship']",
      ],
    ],
    [
      // full package: [mismatch, ship missing, eval lists all] -> 1/3
      "full package: order differs and a node Skill is missing",
      { comet: { eval: FULL_EVAL }, nodeSkills: ["rel_flow-draft", "rel_flow-qa_check"] },
      { route_conformance_expected_node_order: ["draft", "ship", "qa_check"] },
      1 / 3,
      "route=[draft, qa_check, ship] expected=[draft, ship, qa_check] 1/3 passed",
      [
        "workflow route mismatch: expected ['draft', 'ship', 'qa_check'], got ['draft', 'qa_check', 'ship']",
        "internal Node Skill missing: rel_flow-ship",
      ],
    ],
    [
      // eval.yaml names the ids but no node Skill: [ok, ok, eval fails] -> 2/3
      "comet/eval.yaml without the node Skill names",
      { comet: { eval: "workflow-route-conformance: [draft, qa_check, ship]\n" } },
      {},
      2 / 3,
      "route=[draft, qa_check, ship] 2/3 passed",
      ["comet/eval.yaml missing workflow-route-conformance route entries"],
    ],
    [
      // eval.yaml is checked against the EXPECTED ids: "publish" absent -> [mismatch, ok, fail] -> 1/3
      "comet/eval.yaml is checked against the expected order",
      { comet: { eval: FULL_EVAL } },
      { route_conformance_expected_node_order: ["draft", "qa_check", "ship", "publish"] },
      1 / 3,
      "route=[draft, qa_check, ship] expected=[draft, qa_check, ship, publish] 1/3 passed",
      [
        "workflow route mismatch: expected ['draft', 'qa_check', 'ship', 'publish'], got ['draft', 'qa_check', 'ship']",
        "comet/eval.yaml missing workflow-route-conformance route entries",
      ],
    ],
    [
      // generated_node_skills replaces the derived names: rel-ship missing -> 2/3
      "generated_node_skills: Skill names looked up beside the package",
      { nodeSkills: ["rel-draft"] },
      { generated_node_skills: ["rel-draft", "rel-ship"] },
      2 / 3,
      "route=[draft, qa_check, ship] 2/3 passed",
      ["internal Node Skill missing: rel-ship"],
    ],
    [
      // no name: "workflow"; Plan/QA Check slugged; disabled and id-less nodes skipped -> 3/3
      "protocol without a name: workflow-<node>; disabled and id-less nodes are not on the route",
      {
        protocol: {
          nodes: [
            { id: "Plan" },
            { id: "old", disabled: true },
            { label: "x" },
            { id: "QA Check" },
          ],
        },
        nodeSkills: ["workflow-plan", "workflow-qa-check"],
      },
      {},
      1,
      "route=[Plan, QA Check] 3/3 passed",
      [],
    ],
    [
      // no nodes and no expected order -> 0, "workflow route missing"
      "no nodes and no expected order",
      { protocol: { name: "rel_flow", nodes: [] } },
      {},
      0,
      "workflow route missing",
      ["workflow route missing"],
    ],
    [
      // no nodes but an expected order: [mismatch, no node Skills to check, eval passes] -> 2/3
      "no nodes but an expected order",
      { protocol: { name: "rel_flow" } },
      { route_conformance_expected_node_order: ["draft"] },
      2 / 3,
      "route=[] expected=[draft] 2/3 passed",
      ["workflow route mismatch: expected ['draft'], got []"],
    ],
  ])("route: %s", (_l, p, task, original, reason, hard) => {
    const r = score(pkg(p), task);
    expect(dim(r, "workflow_route_conformance")).toEqual([r4(original), reason]);
    expect(r.hard_failures).toEqual(hard);
  });

  it("the weighted score follows the route score (all else complete)", () => {
    const r = score(
      pkg({ comet: { eval: FULL_EVAL }, nodeSkills: ["rel_flow-draft", "rel_flow-qa_check"] }),
      {
        route_conformance_expected_node_order: ["draft", "ship", "qa_check"],
      },
    );
    // completion, skill_invocation 1; artifact_presence N/A (weight 1 out): 11.8 in all
    // route 1/3 -> (11.8 − 1.5·2/3) / 11.8
    expect(r.weighted_score).toBeCloseTo((11.8 - 1) / 11.8, 10);
  });

  // [label, lanes, review, original newest authoring_rubric.py score, ours, hard failures]
  it.each<[string, unknown, unknown, number, number, string[]]>([
    ['lanes as {"lane": id} objects', NEW_LANES.map((lane) => ({ lane })), undefined, 1, 1, []],
    ["lanes as plain strings", NEW_LANES, undefined, 1, 1, []],
    [
      // the original's newest set lacks script/workflow-entry here (0.50); its older set passes (1.00)
      "the older lane set (script-contract, eval): accepted (a documented deviation)",
      OLD_LANES.map((lane) => ({ lane })),
      undefined,
      0.5,
      1,
      [],
    ],
    [
      // two missing from each set; the newest set is named, sorted -> [missing, review ok] 1/2
      "two lanes missing: only those are named",
      [{ lane: "skill-core" }, { lane: "reference" }, "pause-points", { lane: "skill-review" }],
      undefined,
      0.5,
      0.5,
      ["authoring lanes missing: script, workflow-entry"],
    ],
    [
      // lanes complete, review.passed false -> 1/2; review_gate repeats the lanes review failure
      "review did not pass",
      NEW_LANES,
      { passed: false },
      0.5,
      0.5,
      ["authoring-lanes review did not pass"],
    ],
  ])("lanes: %s", (_l, lanes, review, _original, ours, hard) => {
    const r = score(pkg({ lanes, review }));
    expect(dim(r, "authoring_lanes")[0]).toBe(r4(ours));
    expect(r.hard_failures).toEqual(hard);
  });

  // [label, skill-review.md (null = absent), original review_gate score, hard failures]
  it.each<[string, string | null, number, string[]]>([
    // absent -> 0.00 at once (not 2/3)
    ["skill-review.md missing", null, 0, ["skill-review.md missing"]],
    ["Passed: yes", "# Review\n\nPassed: yes\n", 1, []],
    ["审查通过", "审查通过\n", 1, []],
    // [md fails, lanes ok, no blockers] -> 2/3
    [
      "no pass wording",
      "Changes requested.\n",
      2 / 3,
      ["skill-review.md does not report a passed review"],
    ],
  ])("review gate: %s", (_l, md, original, hard) => {
    const r = score(pkg({ reviewMd: md }));
    expect(dim(r, "review_gate")[0]).toBe(r4(original));
    expect(r.hard_failures).toEqual(hard);
  });
});
