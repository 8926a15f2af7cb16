/**
 * Property test (issue 32, point 1): over many random comparisons (a seeded generator: tasks,
 * repetitions, pass probabilities, excluded runs, rubric scores, sometimes a sequential look), no
 * two printed lines of a verdict disagree:
 * - one interval: every place that prints Δ pass rate (headline, noise sentence, the verdict and
 *   paired tables, the lift's intent-to-treat row, the console block) prints the same text, and
 *   comparison.json's `paired.delta_pass_rate` holds the verdict's very numbers;
 * - band vs noise sentence: "distinguishable from noise" only when the band claims a difference
 *   from the interval, and never "not distinguishable" beside such a band;
 * - runs needed vs the tasks rule: "add tasks" only where no number of runs is quoted, a decided
 *   band quotes none, and "0 per treatment" is never printed;
 * - worst case vs analysis set: with no run excluded they are the same interval;
 * - rubric regressions (point 2): only where the dimension's interval lies below −tolerance; an
 *   unresolved dimension never moves the band and is named in its reason.
 */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import {
  buildComparison,
  renderComparisonMarkdown,
  verdictLines,
  type Comparison,
} from "../../../src/report/comparison/index.js";
import { deltaText } from "../../../src/report/comparison/band.js";
import { mulberry32 } from "../../../src/stats/prng.js";
import type { Sequential } from "../../../src/report/sequential/types.js";
import { makeMetadata, makeReport } from "./helpers.js";

const CASES = 240;

interface Generated {
  reports: RunReport[];
  sequential: Sequential | null;
}

function generate(seed: number): Generated {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const tasks = int(1, 7);
  const excludeP = rnd() < 0.5 ? 0 : rnd() * 0.3;
  const reports: RunReport[] = [];
  const shift = rnd() * 0.6 - 0.2;
  for (let t = 0; t < tasks; t++) {
    const base = rnd();
    for (const [treatment, p] of [
      ["CONTROL", base],
      ["CAND", Math.min(1, Math.max(0, base + shift + (rnd() - 0.5) * 0.4))],
    ] as const) {
      const n = int(1, 6);
      for (let rep = 1; rep <= n; rep++) {
        const passed = rnd() < p;
        const excluded = rnd() < excludeP;
        const score = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
        reports.push(
          makeReport({
            task: `t${t}`,
            treatment,
            rep,
            passed,
            quality: excluded ? "excluded" : "included",
            dims: {
              completion: passed ? 1 : 0,
              efficiency: score(rnd() * (treatment === "CAND" ? 1 - shift : 1)),
              artifact_presence: score(rnd() < 0.8 ? 1 : rnd()),
            },
          }),
        );
      }
    }
  }
  const sequential: Sequential | null =
    rnd() < 0.25
      ? {
          schema: "skillbench.sequential.v1",
          alpha: 0.05,
          spending: "obrien_fleming",
          margin: 0.05,
          max_count: 6,
          round: 2,
          looks: [
            {
              count: 2,
              fraction: 1 / 3,
              alpha_spent: 0.0007,
              alpha_look: 0.0007,
              band: null,
              delta: null,
              ci: null,
            },
          ],
          status: "running",
        }
      : null;
  return { reports, sequential };
}

/** Every "Δ pass rate <x> [<lo>, <hi>]" printed in a text. */
function printedDeltas(text: string): string[] {
  return [...text.matchAll(/Δ pass rate ([+-]\d\.\d\d \[[+-]\d\.\d\d, [+-]\d\.\d\d\])/g)].map(
    (m) => m[1] ?? "",
  );
}

/** The value cell of a markdown table row whose first cell is `label`. */
function rowValue(md: string, label: string): string | null {
  const line = md.split("\n").find((l) => l.startsWith(`| ${label} |`));
  return line ? (line.split(" | ")[1] ?? null) : null;
}

function check(c: Comparison): void {
  const v = c.verdict;
  const md = renderComparisonMarkdown(c);
  const consoleText = verdictLines(c).join("\n");
  const decision = deltaText(v.delta, v.ci);

  // One interval, named once.
  if (v.ci && c.paired.delta_pass_rate) {
    expect(c.paired.delta_pass_rate).toMatchObject({
      estimate: v.delta,
      low: v.ci.low,
      high: v.ci.high,
      level: v.ci.level,
      method: v.method,
    });
    expect(c.lift.itt).toEqual({ delta: v.delta, ci: v.ci });
  }
  if (v.band !== "inconclusive" || v.rule !== "no_common_task") {
    const verdictSection = md.slice(md.indexOf("## Verdict"));
    for (const d of [...printedDeltas(verdictSection), ...printedDeltas(consoleText)])
      expect(d).toBe(decision);
    expect(rowValue(md, "Δ pass rate, analysis set")).toBe(decision);
    expect(rowValue(md, "Δ pass rate (candidate − baseline)")).toBe(decision);
    expect(rowValue(md, "Lift, intent to treat")).toBe(decision);
    expect(consoleText).toContain(v.method.replace(/`/g, ""));
    expect(md).toContain(v.method);
  }

  // Band vs noise sentence.
  const claims = v.rule === "interval" && (v.band === "improved" || v.band === "regressed");
  expect(c.paired.distinguishable).toBe(claims);
  for (const text of [md, consoleText]) {
    if (claims) {
      expect(text).toContain("is distinguishable from noise");
      expect(text).not.toContain("not distinguishable from noise");
    } else expect(text).not.toContain("is distinguishable from noise");
  }

  // Runs needed vs the tasks rule.
  const rn = v.runs_needed;
  for (const text of [md, consoleText]) {
    expect(text).not.toMatch(/\b0 per treatment/);
    if (/add tasks/i.test(text)) expect(rn.status).toMatch(/^(more_tasks|no_runs)$/);
  }
  if (v.band === "improved" || v.band === "regressed") {
    expect(rn.status).toBe("decided");
    expect(rowValue(md, "More runs needed")).toBe("none (decided)");
  }
  if (rn.status === "more_runs") expect(rn.more_per_treatment).toBeGreaterThan(0);
  if (rn.status === "more_tasks") expect(rowValue(md, "More runs needed")).toBe("add tasks");

  // Rubric regressions: only where the dimension's own interval lies below −tolerance; an
  // unresolved one never moves the band, and the verdict names it.
  const tol = c.settings.regression_tolerance;
  for (const d of c.rubric.dimensions) {
    if (d.regression) expect(d.test?.ci?.high ?? 0).toBeLessThan(-tol);
    if (d.test?.status === "unresolved") {
      expect(v.regressions.map((r) => r.dimension)).not.toContain(d.name);
      if (v.rule === "interval") expect(v.reason).toContain(`${d.name} (Δ`);
    }
  }
  if (v.rule === "rubric" || v.rule === "rubric_mixed")
    expect(v.regressions.length).toBeGreaterThan(0);

  // Worst case vs analysis set.
  if (v.exclusion.candidate.excluded === 0 && v.exclusion.baseline.excluded === 0) {
    expect(v.worst_case.ci).toEqual(v.ci);
    expect(rowValue(md, "Δ pass rate, worst case")).toBe(decision);
  }
}

describe("a verdict never contradicts itself (random comparisons)", () => {
  it(`holds over ${CASES} seeded cases`, () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= CASES; seed++) {
      const g = generate(seed);
      const c = buildComparison({
        reports: g.reports,
        metadata: makeMetadata(["CONTROL", "CAND"]),
        sequential: g.sequential,
        ks: [1],
      });
      seen.add(`${c.verdict.band}/${c.verdict.rule}/${c.verdict.runs_needed.status}`);
      try {
        check(c);
      } catch (e) {
        throw new Error(`seed ${seed}: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    }
    // The generator reaches the interesting corners (not only one band).
    const bands = new Set([...seen].map((s) => s.split("/")[0]));
    expect(bands.size).toBeGreaterThanOrEqual(3);
    for (const status of ["more_runs", "more_tasks", "decided", "data_quality"])
      expect([...seen].some((s) => s.endsWith(`/${status}`))).toBe(true);
    expect([...seen].some((s) => s.includes("/exclusion_imbalance/"))).toBe(true);
  }, 120_000);
});
