import type { JudgeBlock } from "../../../src/core/judge.js";
import type { RunReport } from "../../../src/core/report.js";
import { describe, expect, it } from "vitest";
import { buildComparison } from "../../../src/report/comparison/index.js";
import { decideGates, parseGate, parseGates } from "../../../src/manifest/gates.js";
import { makeMetadata, makeReport, reps } from "../report/helpers.js";

describe("parseGate", () => {
  it.each([
    ["minPassRate", 0.8, { kind: "pass_rate", min: 0.8 }],
    ["min_pass_rate", 0.8, { kind: "pass_rate", min: 0.8 }],
    ["minWeightedScore", 0.5, { kind: "weighted_score", min: 0.5 }],
    ["min_checks_pass_rate", 0.9, { kind: "checks_pass_rate", min: 0.9 }],
    ["minPassAt1", 0.7, { kind: "pass_at_k", k: 1, min: 0.7 }],
    ["min_pass_hat_3", 0.5, { kind: "pass_hat_k", k: 3, min: 0.5 }],
    ["minSkillInvocation", 1, { kind: "dimension", dimension: "skill_invocation", min: 1 }],
    ["min_efficiency", 0.2, { kind: "dimension", dimension: "efficiency", min: 0.2 }],
    [
      "minJudgeTaskCompletion",
      0.6,
      { kind: "judge_dimension", dimension: "task_completion", min: 0.6 },
    ],
    ["min_judge_custom_0", 0.5, { kind: "judge_dimension", dimension: "custom_0", min: 0.5 }],
    ["noRegression", true, { kind: "no_regression" }],
    ["no_regression", true, { kind: "no_regression" }],
  ])("%s: %s", (key, value, want) => {
    expect(parseGate(key, value)).toEqual({ key, ...want });
  });

  it.each([
    ["maxCost", 1, /^unknown gate/],
    ["minPassRate", 1.5, /^expected a number from 0 to 1, got 1.5$/],
    ["minPassRate", true, /^expected a number from 0 to 1, got true$/],
    ["noRegression", 1, /^expected true or false$/],
    ["noRegression", false, /no gate; remove it/],
  ])("%s: %s is an error", (key, value, msg) => {
    expect(parseGate(key, value)).toMatch(msg);
  });
});

const T = "WITH_SKILL";
const spread = { min: 0, max: 0, stdev: 0 };
const judgeBlock: JudgeBlock = {
  status: "enabled_and_successful",
  reason: "",
  profile: "generic",
  prompt_kind: "generic",
  model: "m",
  transport: "http",
  agent: null,
  dimensions: [],
  lines: [],
  samples_requested: 1,
  samples_parsed: 1,
  calls: 1,
  repairs: 0,
  tokens: null,
  cost_usd: null,
  cached: false,
  prompt_hash: null,
  answer_chars: null,
};

describe("decideGates", () => {
  const reports = [
    ...reps("CONTROL", 3, [1]),
    ...reps(T, 3, [1, 2]),
    ...reps(T, 3, [1, 2, 3], { task: "task-b" }),
    ...reps("CONTROL", 3, [], { task: "task-b" }),
  ];
  const decide = (gates: Record<string, number | boolean>) =>
    decideGates(parseGates(gates).gates, {
      reports,
      candidate: T,
      baseline: null,
      comparison: null,
    });

  it.each([
    ["minPassRate", 0.8, true, 5 / 6],
    ["minPassRate", 0.9, false, 5 / 6],
    // makeReport: one passed check per run, one failed per failed run.
    ["minChecksPassRate", 0.85, true, 6 / 7],
    ["minPassAt3", 1, true, 1],
    ["minPassHat3", 0.5, true, 0.5],
    ["minPassHat3", 0.6, false, 0.5],
    ["minCompletion", 0.8, true, 5 / 6],
  ])("%s %s → %s", (key, min, ok, value) => {
    const r = decide({ [key]: min });
    expect(r.ok).toBe(ok);
    expect(r.gates[0]?.value).toBeCloseTo(value, 9);
  });

  it("a value that cannot be computed fails and says why", () => {
    const r = decide({ minPassHat5: 0.1, minSkillInvocation: 0.1 });
    expect(r.ok).toBe(false);
    expect(r.gates.map((g) => g.detail)).toEqual([
      "pass^5 is not computable: fewer than 5 runs of a task",
      "skill_invocation is not computable: no rubric dimension skill_invocation (the profile has: completion, efficiency)",
    ]);
  });

  it("a judge dimension: the mean judge score; a run without one makes it not computable", () => {
    const judged = (score: number | null, rep: number) => {
      const r = makeReport({ treatment: T, rep });
      return {
        ...r,
        judge:
          score === null
            ? null
            : {
                ...judgeBlock,
                dimensions: [
                  { name: "task_completion", score, reason: "", samples: [score], spread },
                ],
              },
      };
    };
    const gates = parseGates({ minJudgeTaskCompletion: 0.6 }).gates;
    const input = { candidate: T, baseline: null, comparison: null };
    const ok = decideGates(gates, { ...input, reports: [judged(1, 1), judged(0.5, 2)] });
    expect(ok.gates[0]).toMatchObject({ metric: "judge.task_completion", value: 0.75, ok: true });
    const failed = decideGates(gates, { ...input, reports: [judged(1, 1), judged(null, 2)] });
    expect(failed.gates[0]).toMatchObject({
      ok: false,
      value: null,
      detail: `judge.task_completion is not computable: judge.task_completion is N/A on 1 of 2 run(s) of ${T} (task-a-${T}-r2: not judged (the judge was off))`,
    });
  });

  it("noRegression without a frozen baseline fails, naming the fix", () => {
    const r = decide({ noRegression: true });
    expect(r.gates[0]).toMatchObject({
      ok: false,
      detail: "no frozen baseline in this eval: add evaluation.baselineTreatments",
    });
  });

  it("noRegression reads the comparison's verdict: a dimension regression fails it", () => {
    // a regression its interval resolves (3 runs of 0 against 3 of 1; docs/statistics.md §9)
    const rs = [
      ...reps("CONTROL", 3, [1, 2, 3]),
      ...reps(T, 3, [1, 2, 3], { dims: { completion: 1, efficiency: 0 } }),
      ...reps("BASE", 3, [1, 2, 3], { dims: { completion: 1, efficiency: 1 } }),
    ];
    const comparison = buildComparison({
      reports: rs,
      metadata: makeMetadata(["CONTROL", T, "BASE"]),
      candidate: T,
      baseline: "BASE",
    });
    const r = decideGates(parseGates({ noRegression: true }).gates, {
      reports: rs,
      candidate: T,
      baseline: "BASE",
      comparison,
    });
    expect(r.ok).toBe(false);
    expect(r.gates[0]?.detail).toBe("rubric regression on efficiency");
    const same = [
      ...rs.filter((x) => x.treatment !== T),
      ...reps(T, 3, [1, 2, 3], { dims: { completion: 1, efficiency: 1 } }),
    ];
    const ok = decideGates(parseGates({ noRegression: true }).gates, {
      reports: same,
      candidate: T,
      baseline: "BASE",
      comparison: buildComparison({
        reports: same,
        metadata: makeMetadata(["CONTROL", T, "BASE"]),
        candidate: T,
        baseline: "BASE",
      }),
    });
    expect(ok.ok).toBe(true);
  });

  it.each<[string, RunReport[], boolean, RegExp]>([
    [
      "a pass rate shown lower (band regressed) fails it",
      [
        ...reps(T, 10, [], { dims: false }),
        ...reps("BASE", 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { dims: false }),
      ],
      false,
      /^pass rate lower than the baseline \(band regressed: Δ -1\.000/,
    ],
    [
      "an exclusion imbalance (band inconclusive, the data cannot say) fails it",
      [
        ...reps(T, 5, [1, 2, 3, 4, 5], { dims: false }),
        ...Array.from({ length: 5 }, (_, i) =>
          makeReport({ treatment: T, rep: 6 + i, passed: false, quality: "excluded", dims: false }),
        ),
        ...reps("BASE", 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { dims: false }),
      ],
      false,
      /lost different shares of runs to exclusion/,
    ],
    [
      "equal pass rates, not yet resolved (band inconclusive by sample size) pass it",
      [...reps(T, 2, [1], { dims: false }), ...reps("BASE", 2, [1], { dims: false })],
      true,
      /^band inconclusive: no rubric dimension regresses/,
    ],
  ])("noRegression reads the band: %s", (_name, rs, ok, detail) => {
    const comparison = buildComparison({
      reports: rs,
      metadata: makeMetadata([T, "BASE"]),
      candidate: T,
      baseline: "BASE",
    });
    const r = decideGates(parseGates({ noRegression: true }).gates, {
      reports: rs,
      candidate: T,
      baseline: "BASE",
      comparison,
    });
    expect(r.ok).toBe(ok);
    expect(r.gates[0]?.detail).toMatch(detail);
  });

  it("excluded runs do not count", () => {
    const rs = [
      ...reps(T, 2, [1]),
      makeReport({ treatment: T, rep: 3, passed: false, quality: "excluded" }),
    ];
    const r = decideGates(parseGates({ minPassRate: 0.5 }).gates, {
      reports: rs,
      candidate: T,
      baseline: null,
      comparison: null,
    });
    expect(r.gates[0]?.value).toBe(0.5);
  });
});
