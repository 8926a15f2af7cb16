/** CI outputs beside JUnit: --fail-under thresholds and the GitHub step summary. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { appendStepSummary, renderStepSummary } from "../../../src/report/step-summary.js";
import {
  evaluateThresholds,
  parseThreshold,
  RESULT_LINE_PREFIX,
} from "../../../src/report/thresholds.js";
import { makeReport, reps } from "./helpers.js";

describe("parseThreshold", () => {
  it.each([
    ["pass@1=0.8", null, { kind: "pass_at_k", k: 1 }, 0.8],
    ["pass^3=0.5", null, { kind: "pass_hat_k", k: 3 }, 0.5],
    ["weighted_score=0.7", null, { kind: "weighted_score" }, 0.7],
    ["WITH_SKILL:pass_rate=1", "WITH_SKILL", { kind: "pass_rate" }, 1],
    ["*:pass@2=.25", "*", { kind: "pass_at_k", k: 2 }, 0.25],
    [
      "WITH_SKILL:judge.task_completion=0.7",
      "WITH_SKILL",
      { kind: "judge_dimension", dimension: "task_completion" },
      0.7,
    ],
  ])("%s", (spec, treatment, metric, min) =>
    expect(parseThreshold(spec)).toEqual({ spec, treatment, metric, min }),
  );

  it.each([
    "pass@1",
    "pass@1=1.5",
    "pass@0=0.5",
    "score=0.5",
    ":pass@1=0.5",
    "pass@1=abc",
    "pass@1=-0.1",
    "judge.=0.5",
    "judge.Task Completion=0.5",
  ])("rejects %s", (spec) => expect(() => parseThreshold(spec)).toThrow(InputError));
});

describe("evaluateThresholds", () => {
  // CONTROL passes 1/3 runs, WITH_SKILL 3/3 (one task each).
  const reports = [...reps("CONTROL", 3, [1]), ...reps("WITH_SKILL", 3, [1, 2, 3])];
  it.each([
    [["pass@1=0.8"], true, "WITH_SKILL"],
    [["CONTROL:pass@1=0.8"], false, "CONTROL"],
    [["CONTROL:pass@3=0.9"], true, "CONTROL"],
    [["CONTROL:pass^2=0.1"], false, "CONTROL"],
    [["pass_rate=1"], true, "WITH_SKILL"],
    [["weighted_score=0.99"], true, "WITH_SKILL"],
    [["pass@5=0.5"], false, "WITH_SKILL"], // not computable: only 3 runs per task
    [["NOPE:pass@1=0.1"], false, "NOPE"],
  ])("%j -> ok=%s", (specs, ok, treatment) => {
    const r = evaluateThresholds(specs.map(parseThreshold), reports);
    expect(r.ok).toBe(ok);
    expect(r.checks[0]?.treatment).toBe(treatment);
    expect(r.failures.length).toBe(ok ? 0 : 1);
  });

  it('"*" checks every treatment and the result line is one line of JSON', () => {
    const r = evaluateThresholds([parseThreshold("*:pass_rate=0.5")], reports);
    expect(r.checks.map((c) => [c.treatment, c.ok])).toEqual([
      ["CONTROL", false],
      ["WITH_SKILL", true],
    ]);
    expect(r.line.startsWith(RESULT_LINE_PREFIX)).toBe(true);
    expect(r.line).not.toContain("\n");
    const json: unknown = JSON.parse(r.line.slice(RESULT_LINE_PREFIX.length));
    expect(json).toMatchObject({ ok: false, runs: 6, passed: 4 });
  });

  it("excluded runs do not count", () => {
    const rs = [
      makeReport({ treatment: "A", rep: 1 }),
      makeReport({ treatment: "A", rep: 2, passed: false, quality: "excluded" }),
    ];
    expect(evaluateThresholds([parseThreshold("pass_rate=1")], rs).ok).toBe(true);
  });
});

describe("step summary", () => {
  const reports = [...reps("CONTROL", 2, [1]), ...reps("WITH_SKILL", 2, [1, 2])];
  const th = evaluateThresholds([parseThreshold("pass@1=0.9")], reports);
  const md = renderStepSummary({
    experimentId: "exp-1",
    treatments: ["CONTROL", "WITH_SKILL"],
    reports,
    thresholds: th,
    resultsLocation: "out/",
  });
  it("has the headline, thresholds, the treatment and pass@k tables and the failed runs", () => {
    expect(md).toContain("## skillbench: 3/4 runs passed (exp-1)");
    expect(md).toContain("Thresholds: all met");
    expect(md).toMatch(/\| CONTROL \| 1\/2 \| 50.0% \|/);
    expect(md).toContain("pass@k / pass^k");
    expect(md).toContain("task-a-CONTROL-r2");
  });
  it("appends only when GITHUB_STEP_SUMMARY is set", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillbench-step-"));
    try {
      const file = path.join(dir, "summary.md");
      expect(await appendStepSummary(md, {})).toBeNull();
      expect(await appendStepSummary(md, { GITHUB_STEP_SUMMARY: file })).toBe(file);
      await appendStepSummary("second", { GITHUB_STEP_SUMMARY: file });
      const text = readFileSync(file, "utf8");
      expect(text.startsWith("## skillbench")).toBe(true);
      expect(text.trimEnd().endsWith("second")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
