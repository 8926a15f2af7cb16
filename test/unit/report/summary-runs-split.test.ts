import { describe, expect, it } from "vitest";
import type { RunDigest } from "../../../src/core/digest.js";
import type { RunReport } from "../../../src/core/report.js";
import {
  RUN_DETAILS_FILE,
  RUN_DETAILS_LIMIT,
  renderSummaryFiles,
  renderSummaryMarkdown,
  RunDetailsText,
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

function input(reports: RunReport[]): SummaryInput {
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

/** The pieces RunDetailsText writes for `s`, each treatment's runs handed to it by `feed`. */
function piecesOf(
  s: SummaryInput,
  feed: (details: RunDetailsText, runs: RunDigest[], out: (t: string) => void) => void,
): string[] {
  const details = new RunDetailsText(s);
  const pieces: string[] = [];
  const out = (t: string): void => void pieces.push(t);
  details.start(out);
  for (const t of details.treatments) {
    details.treatment(t, out);
    feed(
      details,
      s.reports.filter((r) => r.treatment === t),
      out,
    );
  }
  details.end(out);
  return pieces;
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

describe("runs.md written a piece at a time (RunDetailsText)", () => {
  /** The old whole-text rendering: the per-run sections joined, controls stripped, trimmed once at the end. */
  it("gives, piece by piece, the text of the whole rendering, trailing spaces and escapes included", () => {
    const base = runs(RUN_DETAILS_LIMIT + 7);
    // The run rendered last: the last of the last treatment.
    const lastTreatment = new RunDetailsText(input(base)).treatments.at(-1);
    const last = base.findLastIndex((r) => r.treatment === lastTreatment);
    const all = base.map((r, i) =>
      i === last
        ? { ...r, checks_failed: ["last check ends with spaces   ", "\u001b[31mred\u001b[0m  "] }
        : r,
    );
    const s = input(all);
    const whole = renderSummaryFiles(s).runs ?? "";
    const pieces = piecesOf(s, (details, runs, out) => {
      for (const r of runs) details.run(r, out);
    });
    expect(pieces.length).toBeGreaterThan(RUN_DETAILS_LIMIT);
    expect(pieces.join("")).toBe(whole);
    expect(whole.endsWith("red\n")).toBe(true);
    expect(whole).not.toContain("\u001b");
    expect(whole).toContain("last check ends with spaces   \n");
  });

  // runs() searches a batch for controls once; with one, each run is stripped on its own, so an
  // escape left open in one run does not swallow the next run's text.
  it.each([1, 3, 7, 1000])(
    "gives, a batch of %i runs at a time, the text of the whole rendering",
    (size) => {
      const base = runs(RUN_DETAILS_LIMIT + 7);
      const all = base.map((r, i) =>
        i === 20
          ? { ...r, checks_failed: ["open osc \u001b]8;;http://x"] }
          : i === 41
            ? { ...r, checks_passed: ["ends with spaces   "], rubric_lines: ["\u009b31mcsi"] }
            : i === 60
              ? { ...r, checks_failed: ["\u202eRTL\u0000", "  "] }
              : r,
      );
      const s = input(all);
      const whole = renderSummaryFiles(s).runs ?? "";
      const pieces = piecesOf(s, (details, runs, out) => {
        for (let i = 0; i < runs.length; i += size) details.runs(runs.slice(i, i + size), out);
        details.runs([], out);
      });
      expect(pieces.join("")).toBe(whole);
      expect(whole).toContain("open osc \n");
      expect(whole).toContain("ends with spaces   \n");
      expect(runSections(whole)).toBe(all.length);
    },
  );
});
