/** Comparisons by model (src/report/comparison/models.ts): split, refused pooling, gates. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { buildComparison, renderComparisonMarkdown } from "../../../src/report/comparison/index.js";
import { decideGates } from "../../../src/manifest/gates.js";
import { makeMetadata, makeReport } from "./helpers.js";

/** `n` runs of a treatment on a model for each of `tasks`; `pass` decides each run. */
function arm(
  model: string | null,
  treatment: string,
  tasks: string[],
  n: number,
  pass: (rep: number) => boolean,
): RunReport[] {
  return tasks.flatMap((task) =>
    Array.from({ length: n }, (_, i) => ({
      ...makeReport({ task, treatment, rep: i + 1, passed: pass(i + 1) }),
      run_id: `${task}-${treatment}~${model ?? "default"}-r${i + 1}`,
      model,
    })),
  );
}

const TASKS = ["t1", "t2", "t3", "t4", "t5", "t6"];
const meta = makeMetadata(["CONTROL", "WITH_SKILL"]);

describe("a two-model experiment", () => {
  // large: the Skill turns every failure into a pass; small: every pass into a failure.
  const reports = [
    ...arm("large", "CONTROL", TASKS, 2, () => false),
    ...arm("large", "WITH_SKILL", TASKS, 2, () => true),
    ...arm("small", "CONTROL", TASKS, 2, () => true),
    ...arm("small", "WITH_SKILL", TASKS, 2, () => false),
  ];
  const c = buildComparison({ reports, metadata: meta });

  it("compares the same pair on each model alone", () => {
    expect(c.models).toEqual([
      { model: "large", runs: 24, treatments: ["CONTROL", "WITH_SKILL"] },
      { model: "small", runs: 24, treatments: ["CONTROL", "WITH_SKILL"] },
    ]);
    const [large, small] = c.by_model ?? [];
    expect(large?.comparison?.verdict.band).toBe("improved");
    expect(small?.comparison?.verdict.band).toBe("regressed");
    expect(large?.comparison?.run_counts.map((r) => r.runs)).toEqual([12, 12]);
    expect(large?.comparison).not.toHaveProperty("by_model");
  });

  it("refuses to pool arms that mix models: inconclusive, with each model's verdict", () => {
    expect(c.mixed_model_arms?.map((m) => m.treatment)).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(c.verdict).toMatchObject({
      kind: "mixed_models",
      band: "inconclusive",
      rule: "mixed_models",
    });
    expect(c.verdict.reason).toMatch(/^mixed models: split per model\. /);
    expect(c.verdict.reason).toContain("large Δ +1.00");
    expect(c.verdict.reason).toContain("`WITH_SKILL` helps on large, hurts on small.");
    expect(c.paired.distinguishable).toBe(false);
    expect(c.verdict.runs_needed.status).toBe("nothing");
  });

  it("renders a By model table", () => {
    const md = renderComparisonMarkdown(c);
    expect(md).toContain("## By model");
    expect(md).toContain("`WITH_SKILL` helps on large, hurts on small.");
    expect(md).toMatch(
      /\| large \| 24 \| 12\/12 \(100%\) \| 0\/12 \(0%\) \| \+1\.00 .*\*\*improved\*\* \(helps\) \|/,
    );
    expect(md).toMatch(
      /\| small \| 24 \| 0\/12 \(0%\) \| 12\/12 \(100%\) \| -1\.00 .*\*\*regressed\*\* \(hurts\) \|/,
    );
  });

  it("holds the noRegression gate on every model", () => {
    const g = decideGates([{ key: "noRegression", kind: "no_regression" }], {
      candidate: "WITH_SKILL",
      baseline: "CONTROL",
      reports,
      comparison: c,
    }).gates[0];
    expect(g?.ok).toBe(false);
    expect(g?.detail).toMatch(/^small: /);
  });
});

describe("one model", () => {
  it("adds no model fields (comparison.json as before)", () => {
    const reports = [
      ...arm("large", "CONTROL", TASKS, 1, () => false),
      ...arm("large", "WITH_SKILL", TASKS, 1, () => true),
    ];
    const c = buildComparison({ reports, metadata: meta });
    expect(c).not.toHaveProperty("models");
    expect(c).not.toHaveProperty("by_model");
    expect(renderComparisonMarkdown(c)).not.toContain("## By model");
  });

  it("names a model that lacks an arm; arms on one model each stay pooled", () => {
    const reports = [
      ...arm("large", "CONTROL", TASKS, 1, () => false),
      ...arm("small", "WITH_SKILL", TASKS, 1, () => true),
    ];
    const c = buildComparison({ reports, metadata: meta });
    expect(c.mixed_model_arms).toEqual([]);
    expect(c.verdict.kind).not.toBe("mixed_models");
    expect(c.by_model?.map((m) => m.reason)).toEqual([
      "no run of `WITH_SKILL` on large",
      "no run of `CONTROL` on small",
    ]);
  });
});
