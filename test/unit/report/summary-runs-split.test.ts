import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import {
  RUN_DETAILS_FILE,
  RUN_DETAILS_LIMIT,
  renderSummaryFiles,
  renderSummaryMarkdown,
  type SummaryInput,
} from "../../../src/report/summary-md.js";
import { reps } from "./helpers.js";

/** `total` runs over 5 tasks and two treatments, every third run failing. */
function runs(total: number): RunReport[] {
  const out: RunReport[] = [];
  for (let i = 0; i < total; i++) {
    const treatment = i % 2 === 0 ? "CONTROL" : "CAND";
    const task = `task-${i % 5}`;
    const [r] = reps(treatment, 1, i % 3 === 0 ? [] : [1], { task });
    out.push({ ...(r as RunReport), rep: Math.floor(i / 10) + 1, run_id: `run-${i}` });
  }
  return out;
}

function input(reports: RunReport[]): SummaryInput & { reports: RunReport[] } {
  return {
    experimentId: "exp-big",
    startedAt: "2026-11-30T00:00:00.000Z",
    completedAt: "2026-11-30T00:01:00.000Z",
    suite: "suite (sha256:abc)",
    agentVersion: "2.1.328",
    model: null,
    treatments: ["CONTROL", "CAND"],
    reports,
  };
}

const runSections = (md: string): number =>
  md.split("\n").filter((l) => l.startsWith("**Run ")).length;

describe("summary.md per-run details threshold", () => {
  it("is documented as 200 runs, written to runs.md", () => {
    expect(RUN_DETAILS_LIMIT).toBe(200);
    expect(RUN_DETAILS_FILE).toBe("runs.md");
  });

  it.each([1, 37, RUN_DETAILS_LIMIT])("%i runs: every run's section stays in summary.md", (n) => {
    const files = renderSummaryFiles(input(runs(n)));
    expect(files.runs).toBeNull();
    expect(runSections(files.summary)).toBe(n);
    expect(files.summary).not.toContain(RUN_DETAILS_FILE);
    expect(renderSummaryMarkdown(input(runs(n)))).toBe(files.summary);
  });

  it.each([RUN_DETAILS_LIMIT + 1, 1000])("%i runs: the sections move to runs.md", (n) => {
    const files = renderSummaryFiles(input(runs(n)));
    expect(files.runs).not.toBeNull();
    const detail = files.runs ?? "";
    expect(runSections(files.summary)).toBe(0);
    expect(runSections(detail)).toBe(n);
    expect(files.summary).toContain(`[${RUN_DETAILS_FILE}](${RUN_DETAILS_FILE})`);
    expect(detail).toContain("[summary.md](summary.md)");
    // The summary keeps its tables and one line per treatment.
    expect(files.summary).toContain(`- Total Runs: ${n}`);
    expect(files.summary).toContain("## Aggregated by Treatment");
    const control = input(runs(n)).reports.filter((r) => r.treatment === "CONTROL");
    const passed = control.filter((r) => r.passed).length;
    expect(files.summary).toContain(`- **CONTROL**: ${passed}/${control.length} runs passed`);
    // Every run id appears once in runs.md, in the treatment order of the summary.
    for (const r of input(runs(n)).reports) expect(detail).toContain(`run_id \`${r.run_id}\``);
    expect(detail.indexOf("### CONTROL")).toBeLessThan(detail.indexOf("### CAND"));
    // The summary stays small: its size does not grow with a section per run.
    expect(files.summary.length).toBeLessThan(detail.length / 5);
  });

  it("the text above the details is the same on both sides of the threshold", () => {
    const head = (md: string): string => md.slice(0, md.indexOf("## Treatment Details"));
    const below = renderSummaryFiles(input(runs(RUN_DETAILS_LIMIT))).summary;
    const above = renderSummaryFiles(input(runs(RUN_DETAILS_LIMIT + 1))).summary;
    // Same structure (title, tables, summary list); only the counts differ.
    const headings = (md: string): string[] =>
      head(md)
        .split("\n")
        .filter((l) => l.startsWith("#"));
    expect(headings(above)).toEqual(headings(below));
  });
});
