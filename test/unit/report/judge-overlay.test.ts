import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { judgeOverlay, renderJudgeOverlay } from "../../../src/report/comparison/judge-overlay.js";
import { makeJudgeBlock, makeReport } from "./helpers.js";

function judged(
  treatment: string,
  scores: Record<string, number>,
  completion: number | null,
): RunReport {
  const base = makeReport({ treatment, dims: completion === null ? false : { completion } });
  return { ...base, judge: makeJudgeBlock(scores) };
}

describe("LLM-judge overlay (rule vs judge)", () => {
  it.each([
    {
      name: "judge dimension set beside its rule dimension, gap = judge − rule",
      reports: [judged("CAND", { task_completion: 0.9 }, 0.5)],
      row: {
        dimension: "task_completion",
        rule_dimension: "completion",
        treatment: "CAND",
        rule: 0.5,
        judge: 0.9,
        runs_judged: 1,
      },
      cells: "| task_completion (rule: completion) | CAND | 0.50 | 0.90 | +0.40 | 1 |",
    },
    {
      name: "a judge dimension with no rule side shows — instead of crashing",
      reports: [judged("CAND", { output_quality: 0.7 }, 0.5)],
      row: {
        dimension: "output_quality",
        rule_dimension: null,
        treatment: "CAND",
        rule: null,
        judge: 0.7,
        runs_judged: 1,
      },
      cells: "| output_quality | CAND | — | 0.70 | — | 1 |",
    },
    {
      name: "a treatment with rule scores but no judged run shows — for the judge",
      reports: [
        judged("CAND", { task_completion: 1 }, 1),
        makeReport({ treatment: "CONTROL", dims: { completion: 0 } }),
      ],
      row: {
        dimension: "task_completion",
        rule_dimension: "completion",
        treatment: "CONTROL",
        rule: 0,
        judge: null,
        runs_judged: 0,
      },
      cells: "| task_completion (rule: completion) | CONTROL | 0.00 | — | — | 0 |",
    },
  ])("$name", ({ reports, row, cells }) => {
    const rows = judgeOverlay(reports, ["CONTROL", "CAND"]);
    expect(rows).toContainEqual({
      ...row,
      gap: row.rule !== null && row.judge !== null ? row.judge - row.rule : null,
    });
    expect(renderJudgeOverlay(rows)).toContain(cells);
  });

  it("renders nothing when no run was judged", () => {
    expect(judgeOverlay([makeReport({ treatment: "CAND" })], ["CAND"])).toEqual([]);
    expect(renderJudgeOverlay([])).toBeNull();
  });
});
