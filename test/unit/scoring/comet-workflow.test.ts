import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  checksForRun,
  formatRubricLine,
  genericProfile,
  scoreRubric,
} from "../../../src/scoring/index.js";
import type { RubricInput, RubricResult } from "../../../src/scoring/index.js";
import { cometWorkflowProfile } from "../../../src/scoring/profiles/comet-workflow/index.js";
import { makeFsWorkspaceView } from "../../../src/scoring/fs-view.js";
import { canonicalJson, sha256 } from "../../../src/util/hash.js";
import { expectDimensions, rubricInput, toolCalls } from "./helpers.js";
import type { InputOverrides } from "./helpers.js";

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/workspaces",
);

const W = {
  main_flow: 1.5,
  gate_guard: 1.5,
  skill_invocation: 1.0,
  spec_drift: 1.0,
  business_completion: 2.0,
  workflow_completion: 1.0,
  efficiency: 0.8,
  decision_point_compliance: 1.0,
  artifact_quality: 1.2,
  recovery_resilience: 1.0,
};

type Expect = Record<keyof typeof W, [number | null, string]>;

function score(input: RubricInput): RubricResult {
  return scoreRubric(cometWorkflowProfile, input);
}

function expectDims(r: RubricResult, e: Expect): void {
  expectDimensions(r, W, e);
}

describe("comet-workflow profile", () => {
  it("has the 10 dimensions and weights of docs/rubrics.md, in display order", () => {
    expect(cometWorkflowProfile.dimensions.map((d) => [d.name, d.weight])).toEqual(
      Object.entries(W),
    );
  });
});

describe("full Classic workflow (fixture folder comet-full-workflow, archived change)", () => {
  const input: RubricInput = {
    ...rubricInput({
      evidence: {
        skills_invoked: [
          "comet",
          "comet-open",
          "openspec-propose",
          "brainstorming",
          "comet-design",
          "writing-plans",
          "comet-build",
          "comet-verify",
          "comet-archive",
        ],
        commands_run: [
          "comet guard check add-median",
          "comet transition add-median design --apply",
          "comet transition add-median open-complete",
          "python -m pytest -q",
          "openspec archive add-median",
        ],
        files_created: [
          "openspec/changes/add-median/specs/stats/spec.md",
          "stats.py",
          "test_median.py",
        ],
        num_turns: 20,
        duration_ms: 100_000,
        tool_calls: toolCalls(5),
      },
      baseline: {
        passed: ["openspec_artifacts: proposal+tasks", "comet_state: archived", "tests pass"],
        failed: ["workflow_phases: 3 phases"],
      },
      interaction: {
        mode: "auto_user",
        actual_turns: 3,
        simulated_replies: 1,
        deterministic_replies: 0,
      },
    }),
    workspace: makeFsWorkspaceView(path.join(FIXTURES, "comet-full-workflow")),
    treatment: "WITH_SKILL",
  };
  delete input.fileExists;

  it("scores every dimension", () => {
    const r = score(input);
    expectDims(r, {
      // open (archive/proposal.md), design (design.md), build (plan.md, .comet/), verify (verification.md), archive/ -> 5/5
      main_flow: [1, "workflow=full 5/5 phases (open, design, build, verify, archive)"],
      // guard: "comet guard"; transition: "transition add-median design" and "... open-complete" (prefix "open"); --apply once
      gate_guard: [1, "guard=1 transition=2 apply=1"],
      skill_invocation: [
        1,
        "entry=comet comet_stage=comet-open,comet-design,comet-build,comet-verify,comet-archive openspec=openspec-propose superpowers=brainstorming,writing-plans order=entry-before-stage",
      ],
      // a delta spec was created under openspec/changes/.../specs/ and `openspec archive` ran
      spec_drift: [1, "spec_written=True spec_synced=True"],
      // business: "tests pass" 1/1; workflow: openspec_artifacts + comet_state passed, workflow_phases failed
      business_completion: [1, "1/1 baseline checks passed"],
      workflow_completion: [2 / 3, "2/3 baseline checks passed"],
      efficiency: [1, "turns=20 tools=5 dur=100s"],
      // 1 mutation (open-complete); 1 simulated reply -> ratio 1.00
      decision_point_compliance: [
        1,
        "workflow=full 1 asks (0 tool, 1 replies) for 1 mutations (ratio=1.00)",
      ],
      // 11 lines; tradeoff+alternative+risk; 4 boxes >= 3; test_median.py asserts
      artifact_quality: [
        1,
        "workflow=full proposal=ok; design=deep; tasks=4 boxes; tests=w/ assert",
      ],
      // checkpoint.json complete, trajectory-1.jsonl, context.md, pending-actions.json is [], phase: archived
      recovery_resilience: [1, "checkpoint=ok trajectory=ok context=ok pending=0 state=phase"],
    });
    // (12 - 1/3) / 12
    expect(r.weighted_score).toBeCloseTo(35 / 36, 12);
    expect(r.hard_failures).toEqual([]);
  });
});

const HOTFIX_WS: Record<string, string> = {
  "openspec/changes/fix-crash/proposal.md": "# Fix crash\n\nNull check.\n",
  "openspec/changes/fix-crash/tasks.md": "- [x] add the null check\n",
  "openspec/changes/fix-crash/.comet.yaml": "workflow: hotfix\nphase: build\n",
  "openspec/changes/fix-crash/.comet/state-events.jsonl": '{"workflow": "hotfix"}\n',
  "openspec/changes/fix-crash/.comet/pending-review.json": '{"a": 1}\n',
  "app.py": "print(1)\n",
};

describe("hotfix workflow (in memory, active change)", () => {
  const o: InputOverrides = {
    ws: HOTFIX_WS,
    evidence: {
      skills_invoked: ["comet", "comet-hotfix"],
      commands_run: ["comet transition fix-crash verify-fail", "pytest"],
    },
    baseline: { passed: ["tests pass"], failed: ["regression test: missing"] },
  };

  it("scores every dimension, with the N/A and neutral cases", () => {
    const r = score(rubricInput(o));
    expectDims(r, {
      main_flow: [0.5, "workflow=hotfix 2/4 phases (open, build)"],
      gate_guard: [1 / 3, "guard=0 transition=1 apply=0"],
      skill_invocation: [
        0.6,
        "entry=comet comet_stage=comet-hotfix openspec=none superpowers=none order=entry-before-stage",
      ],
      // no delta spec written: a neutral pass
      spec_drift: [1, "no delta spec needed (n/a)"],
      business_completion: [0.5, "1/2 baseline checks passed"],
      workflow_completion: [null, "workflow validators not available"],
      efficiency: [1, "turns=0 tools=0 dur=0s"],
      // verify-fail is a preset decision mutation; single-turn, no ask tool -> 0 asks
      decision_point_compliance: [
        0,
        "workflow=hotfix 0 asks (0 tool, 0 replies) for 1 mutations (ratio=0.00)",
      ],
      // proposal has 3 newlines (thin); 1 box >= 1; hotfix requires a test_*.py with assert: none
      artifact_quality: [1 / 3, "workflow=hotfix proposal=thin; tasks=1 boxes; tests=none"],
      // state-events.jsonl stands in for the checkpoint; no trajectory; a non-empty pending file; phase: build
      recovery_resilience: [0.5, "checkpoint=state trajectory=missing pending=1 state=phase"],
    });
    // (0.75 + 0.5 + 0.6 + 1 + 1 + 0.8 + 0 + 0.4 + 0.5) / 11
    expect(r.weighted_score).toBeCloseTo(5.55 / 11, 12);
    expect(r.hard_failures).toEqual([
      "Required OpenSpec dependency skill not invoked",
      "Required Superpowers dependency skill not invoked",
    ]);
  });

  it("tweak is named by the comet-tweak skill; presets without tests skip the tests check", () => {
    const r = score(
      rubricInput({
        ...o,
        evidence: { skills_invoked: ["comet", "comet-tweak"], commands_run: ["ls"] },
      }),
    );
    const aq = r.dimensions.find((d) => d.name === "artifact_quality");
    // proposal thin, tasks 1 box: 1/2
    expect(aq && formatRubricLine(aq)).toBe(
      "[RUBRIC] artifact_quality: 0.50 - workflow=tweak proposal=thin; tasks=1 boxes",
    );
  });
});

describe("CONTROL (business-only baseline)", () => {
  const baseline = {
    passed: ["tests pass", "openspec_artifacts: ok"],
    failed: ["comet_state: missing"],
  };

  it("scores only business_completion and efficiency; no hard failures", () => {
    const r = score(rubricInput({ ws: HOTFIX_WS, treatment: "CONTROL", baseline }));
    const na = "CONTROL business-only baseline";
    expectDims(r, {
      main_flow: [null, na],
      gate_guard: [null, na],
      skill_invocation: [null, na],
      spec_drift: [null, na],
      // the split keeps only "tests pass" as a business check
      business_completion: [1, "1/1 baseline checks passed"],
      workflow_completion: [null, na],
      efficiency: [1, "turns=0 tools=0 dur=0s"],
      decision_point_compliance: [null, na],
      artifact_quality: [null, na],
      recovery_resilience: [null, na],
    });
    expect(r.weighted_score).toBe(1);
    expect(r.hard_failures).toEqual([]);
  });

  it.each<[string, string, { passed: string[]; failed: string[]; dropped: string[] }]>([
    [
      "comet-workflow drops CONTROL workflow checks",
      "CONTROL",
      {
        passed: ["tests pass"],
        failed: [],
        dropped: ["openspec_artifacts: ok", "comet_state: missing"],
      },
    ],
    ["other treatments keep them", "WITH_SKILL", { ...baseline, dropped: [] }],
  ])("checksForRun: %s", (_l, treatment, want) => {
    expect(checksForRun(cometWorkflowProfile, treatment, baseline)).toEqual(want);
  });

  it("checksForRun: the generic profile keeps CONTROL checks", () => {
    expect(checksForRun(genericProfile, "CONTROL", baseline)).toEqual({ ...baseline, dropped: [] });
  });
});

describe("Native path", () => {
  const dir = "docs/comet/changes/add-x";
  const state = (s: string): Record<string, string> => ({
    [`${dir}/comet-state.yaml`]: s,
    [`${dir}/brief.md`]: "# Brief\n",
    [`${dir}/specs/api/spec.md`]: "# API\n",
  });
  const good =
    "schema: comet.native.v4\nphase: verify\nloop:\n  iteration: 2\nhistory:\n  - a\n  - b\n";

  it("scores every dimension of a verified Native change", () => {
    const r = score(
      rubricInput({
        ws: state(good),
        evidence: {
          skills_invoked: ["comet-native"],
          commands_run: ["comet native status", "comet-native advance --checkpoint"],
        },
        baseline: {
          passed: ["app works", "native_state: ok"],
          failed: ["native_trajectory: missing"],
        },
      }),
    );
    expectDims(r, {
      main_flow: [1, "Native phase=verify"],
      // both commands are Native; one carries the legacy "checkpoint" token
      gate_guard: [0.5, "native_commands=2 legacy_tokens=1"],
      skill_invocation: [1, "Native skill invocation is checked by hard failures"],
      spec_drift: [1, "Native formal spec is portable"],
      business_completion: [1, "1/1 baseline checks passed"],
      workflow_completion: [0.5, "1/2 baseline checks passed"],
      efficiency: [1, "turns=0 tools=0 dur=0s"],
      decision_point_compliance: [1, "Native decisions are checked by Runtime"],
      artifact_quality: [1, `Native ${dir}: all artifacts present`],
      recovery_resilience: [1, "Native 3/3 recovery checks"],
    });
    expect(r.weighted_score).toBeCloseTo(10.75 / 12, 12);
    expect(r.hard_failures).toEqual([]);
  });

  it.each<
    [string, InputOverrides, [[number, string], [number, string], [number, string]], string[]]
  >([
    [
      "archived phase without verification.md; required but not invoked",
      {
        ws: state("schema: comet.native.v4\nphase: archive\nloop:\n  iteration: x\nhistory: []\n"),
        task: { required_skills: ["comet-native"] },
      },
      [
        [1, "Native phase=archive"],
        // comet-state, brief, specs present; verification.md missing -> 3/4
        [0.75, `Native ${dir}: missing verification.md`],
        // iteration is not an integer -> 2/3
        [2 / 3, "Native 2/3 recovery checks"],
      ],
      ["Required skill not invoked: comet-native"],
    ],
    [
      "invalid phase",
      {
        ws: state("schema: comet.native.v4\nphase: open\n"),
        evidence: { skills_invoked: ["comet-native"] },
      },
      [
        [0, "invalid Native phase"],
        [1, `Native ${dir}: all artifacts present`],
        // no loop, no history -> 1/3
        [1 / 3, "Native 1/3 recovery checks"],
      ],
      [],
    ],
    [
      "old schema",
      {
        ws: state("schema: comet.native.v3\nphase: build\n"),
        evidence: { skills_invoked: ["comet-native"] },
      },
      [
        [0, "no beta17 portable state"],
        [1, `Native ${dir}: all artifacts present`],
        [0, "Native 0/3 recovery checks"],
      ],
      [],
    ],
    [
      "config default_workflow: native, no state file",
      { ws: { ".comet/config.yaml": "default_workflow: native\n" } },
      [
        [0, "no beta17 portable state"],
        [0, "no Native change directory"],
        [0, "no Native change directory"],
      ],
      ["Required skill not invoked: comet-native"],
    ],
  ])("%s", (_l, o, [mf, aq, rr], hard) => {
    const r = score(rubricInput(o));
    const get = (n: string): [number | null, string] => {
      const d = r.dimensions.find((x) => x.name === n);
      return [
        d?.score === null || d === undefined ? null : Number(d.score.toFixed(4)),
        d?.reason ?? "",
      ];
    };
    expect([get("main_flow"), get("artifact_quality"), get("recovery_resilience")]).toEqual(
      [mf, aq, rr].map(([s, reason]) => [Number(s.toFixed(4)), reason]),
    );
    expect(r.hard_failures).toEqual(hard);
  });
});

describe("no change directory", () => {
  it("scores 0.0 where there is nothing to look at", () => {
    const r = score(
      rubricInput({ ws: { "stats.py": "x = 1\n" }, evidence: { skills_invoked: ["comet"] } }),
    );
    expectDims(r, {
      main_flow: [0, "workflow=full 0/5 phases (none)"],
      gate_guard: [0, "no commands captured"],
      skill_invocation: [
        0.2,
        "entry=comet comet_stage=none openspec=none superpowers=none order=missing",
      ],
      spec_drift: [1, "no delta spec needed (n/a)"],
      business_completion: [0, "no business checks ran"],
      workflow_completion: [null, "workflow validators not available"],
      efficiency: [1, "turns=0 tools=0 dur=0s"],
      decision_point_compliance: [0, "no commands captured"],
      artifact_quality: [0, "no openspec change directory"],
      recovery_resilience: [0, "no comet change directory"],
    });
    expect(r.weighted_score).toBeCloseTo(2 / 11, 12);
    expect(r.hard_failures).toEqual([
      "Required nested Comet stage skill not invoked",
      "Required OpenSpec dependency skill not invoked",
      "Required Superpowers dependency skill not invoked",
    ]);
  });

  it("no skills at all: skill_invocation 0.0 and the single entry-skill hard failure", () => {
    const r = score(rubricInput({ ws: {} }));
    expect(r.dimensions.find((d) => d.name === "skill_invocation")?.reason).toBe(
      "no skills invoked",
    );
    expect(r.hard_failures).toEqual(["Required skill not invoked: comet"]);
  });

  it("docs layout: a change under docs/openspec/changes is found", () => {
    const r = score(
      rubricInput({
        ws: {
          "docs/openspec/changes/x/proposal.md": "p\n",
          "docs/openspec/changes/x/tasks.md": "- [ ] a\n",
        },
        evidence: { skills_invoked: ["comet"] },
      }),
    );
    expect(r.dimensions.find((d) => d.name === "main_flow")?.reason).toBe(
      "workflow=full 1/5 phases (open)",
    );
  });
});

describe("SDK checkpoint mode", () => {
  const change = "openspec/changes/2026-add-cache-r42";
  const proposal = { title: "build mode" };
  function run(over: Record<string, unknown> = {}): Record<string, unknown> {
    const steps = [
      "full.open.revalidate",
      "full.build.check",
      "full.verify.check",
      "full.archive.preflight",
    ];
    const actions: Record<string, unknown>[] = steps.map((s, i) => ({
      id: `a${i + 1}`,
      stepId: s,
      status: "succeeded",
    }));
    actions.push({
      id: "a5",
      stepId: "full.archive.execute",
      status: "succeeded",
      output: { archiveDirectory: change },
    });
    return {
      protocolVersion: 1,
      schemaVersion: 1,
      runId: "r42",
      status: "completed",
      workflow: { id: "comet-classic-full" },
      actions,
      waits: [
        {
          id: "w1",
          status: "resolved",
          choices: ["tdd", "direct"],
          proposal,
          decision: {
            id: "d1",
            choice: "tdd",
            proposalHash: `sha256:${sha256(canonicalJson(proposal))}`,
          },
        },
        { id: "w2", status: "cancelled", choices: [], proposal: {} },
      ],
      history: actions.map((a) => ({ actionId: a.id, outcome: { status: a.status } })),
      context: { summary: "cache ttl" },
      ...over,
    };
  }
  function yaml(r: Record<string, unknown>, hash = sha256(canonicalJson(r))): string {
    return `# comet-execution: managed-run\nworkflow: full\nphase: archive\nrun_checkpoint: ${JSON.stringify({ schema: "comet.workflow-run-checkpoint.v1", hash, run: r })}\n`;
  }
  function ws(cometYaml: string): Record<string, string> {
    return {
      [`${change}/.comet.yaml`]: cometYaml,
      [`${change}/proposal.md`]: "line\n".repeat(11),
      [`${change}/design.md`]: "We consider two options.\n",
      [`${change}/tasks.md`]: "- [x] a\n- [x] b\n- [x] c\n",
      [`${change}/verification.md`]: "ok\n",
      [`${change}/.comet/trajectory.jsonl`]: "{}\n",
      [`${change}/specs/cache/spec.md`]:
        "## ADDED Requirements\n### Requirement: Cache TTL\nThe cache SHALL expire entries after the TTL.\n\n## REMOVED Requirements\n### Requirement: Unbounded cache\nOld.\n",
      "openspec/specs/cache/spec.md":
        "# Cache\n### Requirement: Cache TTL\nThe cache SHALL   expire entries\nafter the TTL.\n",
    };
  }
  const base: InputOverrides = {
    evidence: {
      skills_invoked: ["comet", "comet-build", "openspec-apply", "test-driven-development"],
      commands_run: ["comet guard --run r42", "comet run apply --apply"],
    },
    baseline: { passed: ["cache ttl works"] },
    interaction: { mode: "auto_user", actual_turns: 2, simulated_replies: 1 },
  };

  it("valid checkpoint: SDK checks for gate_guard, spec_drift, decisions and recovery", () => {
    const r = score(rubricInput({ ...base, ws: ws(yaml(run())) }));
    expectDims(r, {
      main_flow: [0.8, "workflow=full 4/5 phases (open, design, build, verify)"],
      gate_guard: [1, "SDK guard=1 accepted_checks=4/4 apply=1"],
      skill_invocation: [
        1,
        "entry=comet comet_stage=comet-build openspec=openspec-apply superpowers=test-driven-development order=entry-before-stage",
      ],
      // archive.execute succeeded for this change; ADDED block present (whitespace-normalised), REMOVED heading absent
      spec_drift: [1, "SDK spec_written=True spec_synced=True"],
      business_completion: [1, "1/1 baseline checks passed"],
      workflow_completion: [null, "workflow validators not available"],
      efficiency: [1, "turns=0 tools=0 dur=0s"],
      // w2 is cancelled; w1 resolved with a listed choice and the proposal's digest; 1 simulated reply >= 1 wait
      decision_point_compliance: [1, "SDK waits=1 resolved=1 asks=1"],
      // "consider" + "option" -> deep; no test_*.py in a full workflow
      artifact_quality: [0.75, "workflow=full proposal=ok; design=deep; tasks=3 boxes; tests=none"],
      recovery_resilience: [1, "SDK 5/5 recovery checks"],
    });
    expect(r.weighted_score).toBeCloseTo(10.4 / 11, 12);
  });

  it.each<[string, Record<string, string>, string[], string]>([
    [
      "hash does not match the run",
      ws(yaml(run(), "deadbeef")),
      [],
      "invalid or changed SDK checkpoint",
    ],
    [
      "runId does not match the folder",
      ws(yaml(run({ runId: "r43" }))),
      [],
      "invalid or changed SDK checkpoint",
    ],
    [
      "wrong workflow id",
      ws(yaml(run({ workflow: { id: "comet-classic-hotfix" } }))),
      [],
      "invalid or changed SDK checkpoint",
    ],
    [
      "protocolVersion 2",
      ws(yaml(run({ protocolVersion: 2 }))),
      [],
      "invalid or changed SDK checkpoint",
    ],
    [
      "unparseable YAML after the header",
      ws("# comet-execution: managed-run\nrun_checkpoint: [unclosed\n"),
      [],
      "unreadable SDK checkpoint",
    ],
    [
      "state file is a symlink",
      ws(yaml(run())),
      [`${change}/.comet.yaml`],
      "SDK state is a symlink",
    ],
  ])("invalid checkpoint (%s): the SDK dimensions score 0.00", (_l, files, symlinks, reason) => {
    const r = score(rubricInput({ ...base, ws: files, symlinks }));
    const lines = r.dimensions
      .filter((d) =>
        ["gate_guard", "spec_drift", "decision_point_compliance", "recovery_resilience"].includes(
          d.name,
        ),
      )
      .map(formatRubricLine);
    expect(lines).toEqual([
      `[RUBRIC] gate_guard: 0.00 - ${reason}`,
      `[RUBRIC] spec_drift: 0.00 - ${reason}`,
      `[RUBRIC] decision_point_compliance: 0.00 - ${reason}`,
      `[RUBRIC] recovery_resilience: 0.00 - ${reason}`,
    ]);
    // main_flow does not depend on the checkpoint
    expect(r.dimensions[0]?.score).toBeCloseTo(0.8, 12);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      "a choice outside the choices",
      {
        waits: [
          {
            id: "w1",
            status: "resolved",
            choices: ["tdd"],
            proposal,
            decision: { id: "d1", choice: "yolo", proposalHash: sha256(canonicalJson(proposal)) },
          },
        ],
      },
      "[RUBRIC] decision_point_compliance: 0.00 - SDK waits=1 resolved=0 asks=1",
      "[RUBRIC] recovery_resilience: 1.00 - SDK 5/5 recovery checks",
    ],
    [
      "more waits than replies, one pending; run not completed",
      {
        status: "running",
        waits: [
          {
            id: "w1",
            status: "resolved",
            choices: ["a"],
            proposal,
            decision: { id: "d1", choice: "a", proposalHash: sha256(canonicalJson(proposal)) },
          },
          { id: "w2", status: "pending", choices: ["a"], proposal },
        ],
      },
      "[RUBRIC] decision_point_compliance: 0.00 - SDK waits=2 resolved=1 asks=1",
      // history matches; a pending wait; not completed; context present -> 3/5
      "[RUBRIC] recovery_resilience: 0.60 - SDK 3/5 recovery checks",
    ],
  ])("valid checkpoint, %s", (_l, over, decision, recovery) => {
    const r = score(rubricInput({ ...base, ws: ws(yaml(run(over))) }));
    const line = (n: string): string => {
      const d = r.dimensions.find((x) => x.name === n);
      return d ? formatRubricLine(d) : "";
    };
    expect([line("decision_point_compliance"), line("recovery_resilience")]).toEqual([
      decision,
      recovery,
    ]);
  });

  it("spec not synced when the canonical spec lacks the ADDED requirement", () => {
    const files = ws(yaml(run()));
    files["openspec/specs/cache/spec.md"] = "# Cache\n### Requirement: Unbounded cache\nOld.\n";
    const r = score(rubricInput({ ...base, ws: files }));
    const d = r.dimensions.find((x) => x.name === "spec_drift");
    expect(d && formatRubricLine(d)).toBe(
      "[RUBRIC] spec_drift: 0.50 - SDK spec_written=True spec_synced=False",
    );
  });
});
