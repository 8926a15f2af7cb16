import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import type { RunReport } from "../../../src/core/report.js";
import {
  buildComparison,
  COMPARISON_SCHEMA,
  renderComparisonMarkdown,
  type ComparisonInput,
  type VerdictKind,
} from "../../../src/report/comparison/index.js";
import { resolveRoles } from "../../../src/plan/roles.js";
import { collapseItems } from "../../../src/report/comparison/attribution.js";
import { signTestMinTasks } from "../../../src/report/comparison/paired.js";
import { signed } from "../../../src/report/comparison/fmt.js";
import { makeMetadata, makeReport, reps } from "./helpers.js";

const build = (reports: RunReport[], extra: Partial<ComparisonInput> = {}) =>
  buildComparison({ reports, metadata: null, ...extra });

describe("resolveRoles", () => {
  it.each([
    {
      available: ["CONTROL", "A"],
      opts: {},
      want: { candidate: "A", baseline: "CONTROL", control: "CONTROL" },
    },
    {
      available: ["CONTROL", "A", "B"],
      opts: {},
      want: { candidate: "A", baseline: "B", control: "CONTROL" },
    },
    { available: ["A", "B"], opts: {}, want: { candidate: "A", baseline: "B", control: null } },
    {
      available: ["CONTROL", "A", "B"],
      opts: { candidate: "B" },
      want: { candidate: "B", baseline: "A", control: "CONTROL" },
    },
    {
      available: ["CONTROL", "A", "B"],
      opts: { baseline: "CONTROL" },
      want: { candidate: "A", baseline: "CONTROL", control: "CONTROL" },
    },
    {
      available: ["CONTROL", "A", "B"],
      opts: { baseline: "A" },
      want: { candidate: "B", baseline: "A", control: "CONTROL" },
    },
    {
      available: ["CONTROL", "A"],
      opts: { candidate: "CONTROL" },
      want: { candidate: "CONTROL", baseline: "A", control: "CONTROL" },
    },
    {
      available: ["A", "B", "C"],
      opts: { control: "C" },
      want: { candidate: "A", baseline: "B", control: "C" },
    },
  ])("$available with $opts", ({ available, opts, want }) => {
    expect(resolveRoles(available, opts)).toEqual(want);
  });

  it.each([
    {
      available: ["CONTROL", "A"],
      opts: { candidate: "NOPE" },
      msg: "--candidate NOPE: unknown treatment; available: CONTROL, A",
    },
    {
      available: ["CONTROL", "A"],
      opts: { baseline: "X" },
      msg: "--baseline X: unknown treatment; available: CONTROL, A",
    },
    {
      available: ["CONTROL", "A"],
      opts: { control: "Y" },
      msg: "--control Y: unknown treatment; available: CONTROL, A",
    },
    {
      available: ["CONTROL"],
      opts: {},
      msg: "only one treatment (CONTROL): a comparison needs two",
    },
    {
      available: ["CONTROL", "A"],
      opts: { candidate: "A", baseline: "A" },
      msg: "candidate and baseline are both A",
    },
  ])("rejects $opts over $available", ({ available, opts, msg }) => {
    expect(() => resolveRoles(available, opts)).toThrow(InputError);
    expect(() => resolveRoles(available, opts)).toThrow(msg);
  });

  it("defaults follow metadata.treatments order, not report order", () => {
    const reports = [...reps("A", 2, [1, 2]), ...reps("B", 2, [1]), ...reps("CONTROL", 2, [])];
    const c = buildComparison({ reports, metadata: makeMetadata(["CONTROL", "B", "A"]) });
    expect(c.treatments).toEqual(["CONTROL", "B", "A"]);
    expect(c.roles).toEqual({ candidate: "B", baseline: "A", control: "CONTROL" });
  });
});

const tagged = (treatment: string, runs: RunReport[]): RunReport[] =>
  runs.map((r) => ({ ...r, treatment, run_id: `${r.task}-${treatment}-r${r.rep}` }));

const tasks = (treatment: string, n: number, passes: number[], k: number): RunReport[] =>
  Array.from({ length: k }, (_, i) => reps(treatment, n, passes, { task: `task-${i + 1}` })).flat();

describe("verdict", () => {
  const cases: Array<{
    name: string;
    reports: RunReport[];
    kind: VerdictKind;
    band: string;
    text: string;
  }> = [
    {
      name: "candidate better on one task, 3 runs each: too few to rule anything out",
      reports: [...reps("CONTROL", 3, [1]), ...reps("CAND", 3, [1, 2, 3])],
      kind: "no_regression",
      band: "inconclusive",
      text: "⚠️ **Inconclusive**: Not resolved at this sample size: Δ pass rate +0.67 [-0.06, +1.00] reaches below −0.05 and above 0",
    },
    {
      name: "a dimension regresses (its interval below the tolerance) while the pass rate is equal",
      reports: [
        ...reps("CONTROL", 3, [1, 2, 3], { dims: { completion: 1, efficiency: 1 } }),
        ...reps("CAND", 3, [1, 2, 3], { dims: { completion: 1, efficiency: 0 } }),
      ],
      kind: "regression",
      band: "regressed",
      text: "❌ **Regressed**: `CAND` regresses on the rubric: efficiency (Δ -1.00) below `CONTROL`, each interval below the tolerance (Holm-corrected over the dimensions)",
    },
    {
      // issue 32 point 2: a rubric mean below the tolerance from 2 runs against 2 is noise
      name: "a dimension below the tolerance that its interval does not resolve does not move the band",
      reports: [
        ...reps("CONTROL", 2, [1, 2], { dims: { completion: 1, efficiency: 1 } }),
        ...reps("CAND", 2, [1, 2], { dims: { completion: 1, efficiency: 0.5 } }),
      ],
      kind: "overall_lower",
      band: "inconclusive",
      text: "Unresolved rubric dimensions (mean Δ below the tolerance, interval not; they do not move the band): efficiency (Δ -0.50 [-0.92, +0.33]).",
    },
    {
      name: "overall lower within tolerance",
      reports: [
        ...reps("CONTROL", 2, [1, 2], { dims: { completion: 1, efficiency: 1 }, weighted: 1 }),
        ...reps("CAND", 2, [1, 2], { dims: { completion: 1, efficiency: 0.97 }, weighted: 0.9 }),
      ],
      kind: "overall_lower",
      band: "inconclusive",
      text: "Not resolved at this sample size",
    },
    {
      name: "Δ of exactly −0.05 (as floats) is within tolerance",
      reports: [
        ...reps("CONTROL", 2, [1, 2], { dims: { efficiency: 0.9 }, weighted: 0.9 }),
        ...reps("CAND", 2, [1, 2], { dims: { efficiency: 0.85 }, weighted: 0.9 }),
      ],
      kind: "no_regression",
      band: "inconclusive",
      text: "Not resolved at this sample size",
    },
    {
      name: "candidate has no analysis-set run",
      reports: [...reps("CONTROL", 2, [1]), ...reps("CAND", 2, [], { quality: "excluded" })],
      kind: "insufficient_clean_data",
      band: "inconclusive",
      text: "⚠️ **Inconclusive**: No task has analysis-set runs under both `CAND` and `CONTROL`",
    },
    {
      name: "the baseline lost more runs to exclusion (imbalance guard)",
      reports: [
        ...reps("CONTROL", 1, [1]),
        ...tagged(
          "CONTROL",
          reps("X", 3, [], { quality: "excluded" }).map((r) => ({ ...r, rep: r.rep + 1 })),
        ),
        ...reps("CAND", 2, [1, 2]),
      ],
      kind: "inconclusive_data_quality",
      band: "inconclusive",
      text: "lost different shares of runs to exclusion (`CAND` 0/2, `CONTROL` 3/4; Fisher p = 0.400, gap 75%)",
    },
    {
      name: "half of each arm excluded: balanced, so the guard does not fire",
      reports: [
        ...reps("CONTROL", 1, [1]),
        makeReport({ treatment: "CONTROL", rep: 2, passed: false, quality: "excluded" }),
        ...reps("CAND", 1, [1]),
        makeReport({ treatment: "CAND", rep: 2, passed: false, quality: "excluded" }),
      ],
      kind: "no_regression",
      band: "inconclusive",
      text: "Not resolved at this sample size",
    },
    {
      name: "no rubric scores: the band still comes from the pass rate",
      reports: [
        ...reps("CONTROL", 2, [1], { dims: false }),
        ...reps("CAND", 2, [1, 2], { dims: false }),
      ],
      kind: "insufficient_data",
      band: "inconclusive",
      text: "Not resolved at this sample size",
    },
    {
      name: "ten tasks x 10 runs, every run passes in both arms",
      reports: [
        ...tasks("CONTROL", 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10),
        ...tasks("CAND", 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10),
      ],
      kind: "no_regression",
      band: "non_inferior",
      text: "☑️ **Non-inferior**: `CAND` is no worse than `CONTROL` by more than the margin: Δ pass rate +0.00 [-0.04, +0.04] stays above −0.05.",
    },
    {
      name: "six tasks, the candidate passes every run and the baseline one in three",
      reports: [...tasks("CONTROL", 3, [1], 6), ...tasks("CAND", 3, [1, 2, 3], 6)],
      kind: "no_regression",
      band: "improved",
      text: "✅ **Improved**: `CAND` passes more often than `CONTROL`: Δ pass rate +0.67",
    },
    {
      name: "six tasks, the other way round",
      reports: [...tasks("CONTROL", 3, [1, 2, 3], 6), ...tasks("CAND", 3, [1], 6)],
      kind: "regression",
      band: "regressed",
      text: "❌ **Regressed**: `CAND` passes less often than `CONTROL`: Δ pass rate -0.67",
    },
    {
      name: "an interval across both −margin and 0",
      reports: [
        ...reps("CONTROL", 2, [1, 2], { task: "t1" }),
        ...reps("CONTROL", 2, [1], { task: "t2" }),
        ...reps("CAND", 2, [1], { task: "t1" }),
        ...reps("CAND", 2, [1, 2], { task: "t2" }),
      ],
      kind: "no_regression",
      band: "inconclusive",
      text: "Not resolved at this sample size: Δ pass rate +0.00",
    },
  ];
  it.each(cases)("$name → $band ($kind)", ({ reports, kind, band, text }) => {
    const c = build(reports);
    expect(c.roles).toMatchObject({ candidate: "CAND", baseline: "CONTROL" });
    expect(c.verdict.kind).toBe(kind);
    expect(c.verdict.band).toBe(band);
    expect(c.verdict.headline).toContain(text);
    expect(c.verdict.margin).toBe(0.05);
    const md = renderComparisonMarkdown(c);
    expect(md).toContain(`## Verdict\n\n${c.verdict.headline}`);
    expect(md).not.toContain("is stable");
    expect(md).toMatch(
      /_Verdict uses analysis set: `CAND` included \d+\/\d+ raw run\(s\), flagged \d+, excluded \d+; `CONTROL` included/,
    );
  });

  it("the issue's case: one hanging candidate run excluded, equal raw pass rates → inconclusive, worst case 0", () => {
    const c = build([
      ...reps("CONTROL", 3, [1, 2]),
      ...reps("CAND", 2, [1, 2]),
      makeReport({ treatment: "CAND", rep: 3, passed: false, quality: "excluded" }),
    ]);
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.exclusion.imbalanced).toBe(true);
    expect(c.verdict.exclusion.fisher_p).toBeCloseTo(1);
    expect(c.verdict.exclusion.gap).toBeCloseTo(1 / 3);
    expect(c.verdict.delta).toBeCloseTo(1 - 2 / 3);
    expect(c.verdict.worst_case.delta).toBeCloseTo(0);
    expect(renderComparisonMarkdown(c)).toContain("| Δ pass rate, worst case | +0.00 [");
  });

  it("--margin widens what counts as non-inferior", () => {
    const reports = [
      ...reps("CONTROL", 2, [1, 2], { task: "t1" }),
      ...reps("CONTROL", 2, [1], { task: "t2" }),
      ...reps("CAND", 2, [1], { task: "t1" }),
      ...reps("CAND", 2, [1, 2], { task: "t2" }),
    ];
    const low = build(reports).verdict.ci?.low ?? 0;
    expect(build(reports, { margin: -low + 0.01 }).verdict.band).toBe("non_inferior");
  });

  it("marks regressing dimensions with ⚠️ in the rubric table and prints the footers", () => {
    const c = build([
      ...reps("CONTROL", 3, [1, 2, 3], { dims: { completion: 1, efficiency: 1 } }),
      ...reps("CAND", 3, [1, 2, 3], { dims: { completion: 1, efficiency: 0 } }),
    ]);
    const md = renderComparisonMarkdown(c);
    expect(md).toContain("## Rubric dimensions (mean±stdev, pass-rate across runs; 0.00–1.00)");
    expect(md).toContain(
      "| efficiency | 1.00±0.00 (100%) | 0.00±0.00 (0%) | -1.00 [-1.00, -0.11] ⚠️ |",
    );
    expect(md).toContain(
      "| completion | 1.00±0.00 (100%) | 1.00±0.00 (100%) | +0.00 [-0.56, +0.56] |",
    );
    expect(md).toContain("| **Overall** | 1.00±0.00 | 0.50±0.00 | -0.50 |");
    expect(md).toContain("_Distribution stats computed from ≥2 runs per treatment._");
  });

  it("uses the mean-only heading with one run per treatment", () => {
    const md = renderComparisonMarkdown(
      build([makeReport({ treatment: "CONTROL" }), makeReport({ treatment: "CAND" })]),
    );
    expect(md).toContain("## Rubric dimensions (mean, 0.00–1.00)");
    expect(md).toContain("| completion | 1.00 (100%) | 1.00 (100%) | +0.00 [-0.83, +0.83] |");
    expect(md).not.toContain("_Distribution stats computed");
  });
});

describe("failure attribution", () => {
  it.each([
    { texts: [], want: [] },
    { texts: ["a"], want: [{ text: "a", count: 1 }] },
    {
      texts: ["a", "b", "a", "a"],
      want: [
        { text: "a", count: 3 },
        { text: "b", count: 1 },
      ],
    },
    {
      texts: ["b", "a", "b"],
      want: [
        { text: "b", count: 2 },
        { text: "a", count: 1 },
      ],
    },
  ])("collapseItems($texts)", ({ texts, want }) => {
    expect(collapseItems(texts)).toEqual(want);
  });

  it("lists every bucket (model included), collapses repeats, ignores excluded runs, and catches unattributed checks", () => {
    const harness = {
      bucket: "harness" as const,
      check: "Required skill not invoked: s",
      reason: "target Skill was never invoked",
    };
    const reports = [
      makeReport({
        treatment: "CONTROL",
        rep: 1,
        passed: false,
        failed: [harness.check],
        attribution: [harness],
      }),
      makeReport({
        treatment: "CONTROL",
        rep: 2,
        passed: false,
        failed: [harness.check],
        attribution: [harness],
      }),
      makeReport({
        treatment: "CONTROL",
        rep: 3,
        passed: false,
        failed: ["boom"],
        attribution: [],
      }),
      makeReport({ treatment: "CONTROL", rep: 4, passed: false, quality: "excluded" }),
      makeReport({ treatment: "CAND", rep: 1, passed: false, failed: ["check_x: wrong output"] }),
      makeReport({ treatment: "CAND", rep: 2 }),
    ];
    const c = build(reports);
    expect(c.attribution).toEqual([
      {
        treatment: "CONTROL",
        failures: 3,
        buckets: [
          {
            bucket: "harness",
            count: 2,
            items: [
              {
                text: "Required skill not invoked: s -> [harness] target Skill was never invoked",
                count: 2,
              },
            ],
          },
          {
            bucket: "uncategorized",
            count: 1,
            items: [{ text: "boom -> [uncategorized] no attribution recorded", count: 1 }],
          },
        ],
      },
      {
        treatment: "CAND",
        failures: 1,
        buckets: [
          {
            bucket: "model",
            count: 1,
            items: [
              {
                text: "check_x: wrong output -> [model] task failed after observable workflow execution",
                count: 1,
              },
            ],
          },
        ],
      },
    ]);
    const md = renderComparisonMarkdown(c);
    expect(md).toContain(
      "### CONTROL (3 failure(s))\n\n- **harness** (2):\n  - x2 Required skill not invoked: s -> [harness] target Skill was never invoked",
    );
    expect(md).toContain(
      "- **model** (1):\n  - check_x: wrong output -> [model] task failed after observable workflow execution",
    );
  });

  it("says so when nothing failed", () => {
    const md = renderComparisonMarkdown(
      build([...reps("CONTROL", 2, [1, 2]), ...reps("CAND", 2, [1, 2])]),
    );
    expect(md).toContain("## Failure attribution");
    expect(md).toContain("_No check failures across treatments._");
  });
});

describe("missing data renders as —", () => {
  const reports = [
    makeReport({
      task: "a",
      treatment: "CONTROL",
      tokens: null,
      cost: null,
      turns: null,
      duration: null,
      dims: { completion: 1 },
    }),
    makeReport({
      task: "b",
      treatment: "CONTROL",
      tokens: null,
      cost: null,
      turns: null,
      duration: null,
      dims: { completion: 1 },
    }),
    makeReport({ task: "a", treatment: "CAND", dims: { completion: 1, safety_boundary: null } }),
  ];
  const c = build(reports);
  const md = renderComparisonMarkdown(c);

  it.each([
    { what: "task outcome with no run", row: "| b | 1/1 | — |" },
    { what: "spend with no telemetry", row: "| CONTROL | 2 | — | — | — | — |" },
    { what: "runtime with no telemetry", row: "| CONTROL | 2 | — | — | 4 | — | — | 2.00 |" },
    {
      what: "a dimension one treatment never had, Δ undefined",
      row: "| safety_boundary | — | N/A | — |",
    },
    {
      what: "a skill-less run",
      row: "| `a-CONTROL-r1` | included | valid_signal | generic | — | 2.1.328 |",
    },
  ])("$what", ({ row }) => {
    expect(md).toContain(row);
  });

  it("keeps nulls in the JSON", () => {
    expect(c.task_outcomes.find((t) => t.task === "b")?.cells).toEqual({
      CONTROL: { c: 1, n: 1, flip: false },
      CAND: null,
    });
    expect(c.spend[0]).toMatchObject({
      treatment: "CONTROL",
      tokens: null,
      cost_usd: null,
      avg_tokens: null,
    });
    expect(c.rubric.dimensions.find((d) => d.name === "safety_boundary")).toMatchObject({
      cells: { CONTROL: null, CAND: { n: 0, mean: null, stdev: null, pass_rate: null } },
      delta: null,
      regression: false,
    });
  });
});

describe("warning block", () => {
  const base = [...reps("CONTROL", 2, [1]), ...reps("CAND", 2, [1, 2])];
  it.each([
    { name: "all alike", reports: base, kinds: [] as string[], text: null },
    {
      name: "agent versions differ",
      reports: [
        ...base.slice(0, 3),
        makeReport({ treatment: "CAND", rep: 2, agentVersion: "2.2.0" }),
      ],
      kinds: ["agent_version"],
      text: "> - different claude-code versions: 2.1.328 (3 run(s): CONTROL, CAND); 2.2.0 (1 run(s): CAND)",
    },
    {
      name: "model ids differ (unset counts)",
      reports: [...base.slice(0, 3), makeReport({ treatment: "CAND", rep: 2, model: null })],
      kinds: ["model"],
      text: "> - different model ids: claude-test (3 run(s): CONTROL, CAND); (CLI default) (1 run(s): CAND)",
    },
    {
      name: "task content differs",
      reports: [
        ...base.slice(0, 3),
        makeReport({ treatment: "CAND", rep: 2, taskHash: `sha256:${"b".repeat(64)}` }),
      ],
      kinds: ["task_content"],
      text: "> - task task-a changed between runs: aaaaaaaaaaaa… (3 run(s): CONTROL, CAND); bbbbbbbbbbbb… (1 run(s): CAND)",
    },
    {
      name: "sandboxes or limits differ",
      reports: [
        ...base.slice(0, 3),
        {
          ...makeReport({ treatment: "CAND", rep: 2 }),
          sandbox: {
            kind: "docker" as const,
            why: "requested",
            image_id: null,
            image_tag: null,
            agent_version_inside: null,
            limits: { cpus: 2, memory: "512m", pids: null },
            network_policy: "host",
            protects: [],
            does_not_protect: [],
            oom_kills: 0,
          },
        },
      ],
      kinds: ["sandbox"],
      text: "> - different sandboxes or resource limits: (not recorded) (3 run(s): CONTROL, CAND); docker cpus=2 memory=512m pids=- (1 run(s): CAND)",
    },
  ])("$name", ({ reports, kinds, text }) => {
    const c = build(reports);
    expect(c.warnings.map((w) => w.kind)).toEqual(kinds);
    const md = renderComparisonMarkdown(c);
    if (text === null) expect(md).not.toContain("⚠️ **The compared runs are not like for like");
    else {
      expect(
        md.startsWith(
          "# skillbench Comparison Report\n\n> ⚠️ **The compared runs are not like for like:**\n",
        ),
      ).toBe(true);
      expect(md).toContain(text);
    }
  });
});

describe("paired comparison", () => {
  const tasks = ["t1", "t2", "t3", "t4", "t5", "t6"];
  it("six tasks all better: distinguishable", () => {
    const reports = tasks.flatMap((task) => [
      ...[1, 2, 3].map((rep) => makeReport({ task, treatment: "CONTROL", rep, passed: false })),
      ...[1, 2, 3].map((rep) => makeReport({ task, treatment: "CAND", rep, passed: true })),
    ]);
    const p = build(reports).paired;
    expect(p.tasks).toEqual(tasks);
    // the decision's interval: the hull of the bootstrap ([1, 1]) and Newcombe's score interval
    expect(p.delta_pass_rate).toMatchObject({ estimate: 1, high: 1, level: 0.95 });
    expect(p.delta_pass_rate?.low).toBeCloseTo(0.7513, 4);
    expect(p.sign_test).toMatchObject({ pos: 6, neg: 0, ties: 0 });
    expect(p.sign_test?.p).toBeCloseTo(2 / 64, 12);
    expect(p.mcnemar).toMatchObject({ pairs: 18, candidate_only: 18, baseline_only: 0 });
    expect(p.distinguishable).toBe(true);
    expect(p.reps_needed).toBe(2);
    expect(p.conclusion).toContain("is distinguishable from noise");
  });

  it("one task: not distinguishable, explains the sign-test floor and the runs needed", () => {
    const p = build([...reps("CONTROL", 5, [1, 2]), ...reps("CAND", 5, [1, 2, 3, 4])]).paired;
    expect(p.candidate_pass_rate).toBeCloseTo(0.8);
    expect(p.baseline_pass_rate).toBeCloseTo(0.4);
    expect(p.sign_test).toEqual({ pos: 1, neg: 0, ties: 0, p: 1 });
    expect(p.mcnemar).toMatchObject({
      pairs: 5,
      both_pass: 2,
      candidate_only: 2,
      baseline_only: 0,
      both_fail: 1,
      p: 0.5,
    });
    expect(p.flip_rate).toEqual({ CONTROL: 1, CAND: 1 });
    expect(p.distinguishable).toBe(false);
    expect(p.reps_needed).toBe(23);
    expect(p.conclusion).toContain("is not distinguishable from noise at this sample size");
    expect(p.conclusion).toContain("the per-task sign test gives p = 1.000");
    expect(p.conclusion).toContain(
      "About 10 more runs per task and treatment (10 more per treatment, 15 in all) would show improvement if the observed rates (0.80 vs 0.40) hold",
    );
  });

  it("no common task", () => {
    const p = build([
      makeReport({ task: "x", treatment: "CONTROL" }),
      makeReport({ task: "y", treatment: "CAND" }),
    ]).paired;
    expect(p).toMatchObject({
      tasks: [],
      delta_pass_rate: null,
      sign_test: null,
      mcnemar: null,
      reps_needed: null,
      distinguishable: false,
    });
    expect(
      renderComparisonMarkdown(
        build([
          makeReport({ task: "x", treatment: "CONTROL" }),
          makeReport({ task: "y", treatment: "CAND" }),
        ]),
      ),
    ).toContain("No task has analysis-set runs under both `CAND` and `CONTROL`");
  });

  it.each([
    { alpha: 0.05, want: 6 },
    { alpha: 0.1, want: 5 },
    { alpha: 0.01, want: 8 },
  ])("signTestMinTasks($alpha) = $want", ({ alpha, want }) => {
    expect(signTestMinTasks(alpha)).toBe(want);
  });
});

describe("the Comparison object", () => {
  const reports = [
    ...reps("CONTROL", 3, [1]),
    makeReport({ treatment: "CONTROL", rep: 4, passed: false, quality: "excluded" }),
    ...reps("CAND", 3, [1, 2], { skills: [{ name: "sk", hash: `sha256:${"c".repeat(64)}` }] }),
    makeReport({
      treatment: "CAND",
      rep: 4,
      passed: false,
      quality: "flagged",
      reasonCode: "harness_trigger_suspect",
    }),
  ];
  const c = buildComparison({
    reports,
    metadata: makeMetadata(["CONTROL", "CAND"]),
    ks: [1, 2],
    seed: 7,
  });

  it("is plain JSON with its schema tag", () => {
    expect(c.schema).toBe(COMPARISON_SCHEMA);
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it("is deterministic for a seed", () => {
    expect(
      buildComparison({
        reports,
        metadata: makeMetadata(["CONTROL", "CAND"]),
        ks: [1, 2],
        seed: 7,
      }),
    ).toEqual(c);
  });

  it("counts raw, analysis, flagged and excluded runs", () => {
    expect(c.data_quality).toEqual([
      {
        treatment: "CONTROL",
        raw: 4,
        analysis: 3,
        included: 3,
        flagged: 0,
        excluded: 1,
        excluded_share: 0.25,
      },
      {
        treatment: "CAND",
        raw: 4,
        analysis: 4,
        included: 3,
        flagged: 1,
        excluded: 0,
        excluded_share: 0,
      },
    ]);
    expect(c.run_counts.map((r) => [r.treatment, r.runs, r.passed])).toEqual([
      ["CONTROL", 3, 1],
      ["CAND", 4, 2],
    ]);
    expect(c.excluded_runs.map((r) => r.run_id)).toEqual(["task-a-CONTROL-r4"]);
    expect(c.excluded_runs[0]?.report).toBe("runs/task-a-CONTROL-r4/report.json");
    expect(c.flagged_runs.map((r) => [r.run_id, r.reason_code])).toEqual([
      ["task-a-CAND-r4", "harness_trigger_suspect"],
    ]);
    expect(c.sensitivity[0]).toEqual({
      treatment: "CONTROL",
      raw: { c: 1, n: 4, rate: 0.25 },
      analysis: { c: 1, n: 3, rate: 1 / 3 },
      delta: 1 / 3 - 0.25,
    });
  });

  it("pass@k rows carry bootstrap intervals around their estimates", () => {
    expect(c.pass_k.ks).toEqual([1, 2]);
    for (const b of c.pass_k.bootstrap) {
      const row = c.pass_k.rows.find((r) => r.metric === b.metric && r.treatment === b.treatment);
      for (const k of c.pass_k.ks) {
        const iv = b.pass_at_k[k];
        expect(iv?.estimate).toBeCloseTo(row?.pass_at_k[k] ?? NaN);
        expect(iv!.low).toBeLessThanOrEqual(iv!.estimate);
        expect(iv!.high).toBeGreaterThanOrEqual(iv!.estimate);
        expect(b.pass_hat_k_unbiased[k]?.estimate).toBeCloseTo(row?.pass_hat_k_unbiased[k] ?? NaN);
      }
    }
  });

  it("source evidence covers every raw run, with skill hashes cut to 12 hex digits", () => {
    expect(c.source_evidence).toHaveLength(8);
    expect(c.source_evidence.find((s) => s.run_id === "task-a-CAND-r1")?.skill_sources).toEqual([
      "sk@cccccccccccc",
    ]);
  });

  it("renders the sections in order", () => {
    const md = renderComparisonMarkdown(c);
    const order = [
      "# skillbench Comparison Report",
      "- Experiment: `exp-1`",
      "- Candidate: `CAND`",
      "- Baseline: `CONTROL`",
      "- Control: `CONTROL`",
      "## Metric guide",
      "## Data quality summary",
      "## Run counts",
      "## pass@k / pass^k — capability vs reliability",
      "## Task outcomes",
      "## Spend summary",
      "## Runtime summary",
      "## Source evidence",
      "## Rubric dimensions",
      "### Dimension guide",
      "### Dimension weights",
      "## Excluded runs",
      "## Flagged runs",
      "## Raw vs analysis sensitivity",
      "## Failure attribution",
      "## Verdict",
      "## Paired comparison (candidate vs baseline)",
    ];
    const at = order.map((h) => md.indexOf(h));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toContain("| task-a | 1/3 (flip) | 2/4 (flip) |");
    expect(md).toContain("| CONTROL | 4 | 3 | 0 | 1 |");
  });

  it.each([
    { x: 0.2, want: "+0.20" },
    { x: -0.2, want: "-0.20" },
    { x: -0.001, want: "+0.00" },
    { x: 0, want: "+0.00" },
    { x: null, want: "—" },
  ])("signed($x) = $want", ({ x, want }) => {
    expect(signed(x)).toBe(want);
  });
});
