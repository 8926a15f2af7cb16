import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { renderSummaryMarkdown } from "../../../src/report/summary-md.js";
import { makeJudgeBlock, makeReport, reps } from "./helpers.js";

function summary(reports: RunReport[]): string {
  return renderSummaryMarkdown({
    experimentId: "exp-1",
    startedAt: "2026-11-30T00:00:00.000Z",
    completedAt: "2026-11-30T00:01:00.000Z",
    suite: "suite (sha256:abc)",
    agentVersion: "2.1.328",
    model: null,
    treatments: ["CONTROL", "CAND"],
    reports,
  });
}

function row(md: string, task: string, treatment: string): string[] {
  const line = md.split("\n").find((l) => l.startsWith(`| ${task} | ${treatment} |`));
  if (!line) throw new Error(`no row for ${task} ${treatment}`);
  return line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());
}

function header(md: string): string[] {
  const line = md.split("\n").find((l) => l.startsWith("| Task | Treatment |"));
  if (!line) throw new Error("no header");
  return line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());
}

describe("summary.md", () => {
  const runs = [...reps("CONTROL", 3, [1]), ...reps("CAND", 3, [1, 2, 3])];

  it.each([
    ["with repetitions: the heading says so and Aggregated by Treatment appears", runs, true],
    [
      "one run per cell: plain Results, no aggregation",
      [makeReport({ treatment: "CONTROL" }), makeReport({ treatment: "CAND" })],
      false,
    ],
  ])("%s", (_name, reports, withReps) => {
    const md = summary(reports);
    expect(md.includes("## Results (with Repetitions)")).toBe(withReps);
    expect(md.includes("## Aggregated by Treatment")).toBe(withReps);
    expect(md).toContain("## pass@k / pass^k — capability vs reliability");
    expect(md).toContain("## Treatment Details");
  });

  it("counts real checks only: rubric lines are not checks", () => {
    const r: RunReport = {
      ...makeReport({ treatment: "CAND", passed: false, failed: ["a: wrong", "b: wrong"] }),
      rubric_lines: [
        "[RUBRIC] completion: 0.00 - 0/2 baseline checks passed",
        "[RUBRIC] weighted_score: 0.00",
      ],
    };
    const md = summary([r]);
    const cells = row(md, "task-a", "CAND");
    const h = header(md);
    const total = r.checks_passed.length + 2;
    expect(cells[h.indexOf("Checks")]).toBe(`${r.checks_passed.length}/${total}`);
    expect(cells[h.indexOf("Passed")]).toBe("0/1");
    expect(r.rubric_lines.length).toBeGreaterThan(0);
  });

  it("passes c/n per cell and pools c/n per treatment in the pass@k table", () => {
    const md = summary(runs);
    expect(row(md, "task-a", "CONTROL")[header(md).indexOf("Passed")]).toBe("1/3");
    expect(md).toMatch(/\| overall \| CONTROL \| 0\.33 \|.*\| 1\/3 \|/);
    expect(md).toMatch(/\| overall \| CAND \| 1\.00 \|.*\| 3\/3 \|/);
  });

  it("shows judge columns and lines only when a run was judged", () => {
    expect(header(summary(runs)).some((c) => c.startsWith("judge:"))).toBe(false);
    const judged: RunReport = {
      ...makeReport({ treatment: "CAND" }),
      judge: {
        ...makeJudgeBlock({ output_quality: 0.7 }),
        lines: [
          "[RUBRIC-JUDGE] output_quality: 0.70 - ok",
          "[RUBRIC-JUDGE] status: enabled_and_successful",
        ],
      },
    };
    const md = summary([makeReport({ treatment: "CONTROL" }), judged]);
    const h = header(md);
    expect(h).toContain("judge:output_quality");
    expect(row(md, "task-a", "CAND")[h.indexOf("judge:output_quality")]).toBe("0.70");
    expect(row(md, "task-a", "CONTROL")[h.indexOf("judge:output_quality")]).toBe("—");
    expect(md).toContain("  - [RUBRIC-JUDGE] status: enabled_and_successful");
  });
});
