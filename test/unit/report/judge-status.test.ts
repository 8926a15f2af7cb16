/** Fail closed (docs/judge.md): a judge dimension is N/A on a run whose judge failed, and a gate or threshold on it fails with the cause. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { decideGates, parseGate, parseGates } from "../../../src/manifest/gates.js";
import {
  judgeDimensionValue,
  judgeStatusOf,
  judgeStatusSentence,
} from "../../../src/report/judge-status.js";
import { evaluateThresholds, parseThreshold } from "../../../src/report/thresholds.js";
import { makeJudgeBlock, makeReport } from "./helpers.js";

const T = "WITH_SKILL";

function judged(rep: number, score: number | null): RunReport {
  const base = makeReport({ treatment: T, rep });
  if (score !== null) return { ...base, judge: makeJudgeBlock({ task_completion: score }) };
  const cause = "no parseable verdict (also after one repair attempt)";
  return {
    ...base,
    judge: {
      ...makeJudgeBlock({}),
      status: "failed",
      reason: cause,
      dimensions: [
        {
          name: "task_completion",
          score: null,
          reason: cause,
          samples: [],
          spread: { min: 0, max: 0, stdev: 0 },
        },
      ],
    },
  };
}

describe("judgeDimensionValue", () => {
  it.each<[string, RunReport[], number | null, RegExp | null]>([
    ["every run scored: the mean", [judged(1, 0.9), judged(2, 0.5)], 0.7, null],
    [
      "one run failed: N/A with its cause, not the mean of the rest",
      [judged(1, 0.9), judged(2, null)],
      null,
      /N\/A on 1 of 2 run\(s\) of WITH_SKILL \([^:]*-r2: judge failed: no parseable verdict/,
    ],
    ["judge off", [makeReport({ treatment: T })], null, /not judged \(the judge was off\)/],
    [
      "a dimension the judge does not have",
      [{ ...makeReport({ treatment: T }), judge: makeJudgeBlock({ output_quality: 1 }) }],
      null,
      /no judge dimension task_completion \(judged: output_quality\)/,
    ],
    ["no runs", [makeReport({ treatment: "CONTROL" })], null, /no analysis-set runs of WITH_SKILL/],
  ])("%s", (_n, reports, value, why) => {
    const v = judgeDimensionValue(reports, T, "task_completion");
    if (value === null) expect(v.value).toBeNull();
    else expect(v.value).toBeCloseTo(value, 10);
    if (why) expect(v.why).toMatch(why);
  });
});

describe("the judge's status", () => {
  it("counts the judged runs and names the failed ones", () => {
    const s = judgeStatusOf([judged(1, 0.9), judged(2, null), makeReport({ treatment: T })]);
    expect(s?.runs_judged).toBe(2);
    expect(s?.failed.map((f) => f.reason)).toEqual([
      "no parseable verdict (also after one repair attempt)",
    ]);
    expect(judgeStatusSentence(s)).toMatch(/^LLM judge failed on 1 of 2 judged run\(s\)/);
  });
  it("says nothing without failures or without a judge", () => {
    expect(judgeStatusSentence(judgeStatusOf([judged(1, 0.9)]))).toBeNull();
    expect(judgeStatusOf([makeReport({ treatment: T })])).toBeNull();
  });
});

describe("gates and thresholds on a judge dimension fail closed", () => {
  const ok = [judged(1, 0.9), judged(2, 0.8)];
  const failed = [judged(1, 0.9), judged(2, null)];

  it("parses minJudge<Dimension> and [T:]judge.DIM", () => {
    expect(parseGate("minJudgeTaskCompletion", 0.5)).toEqual({
      key: "minJudgeTaskCompletion",
      kind: "judge_dimension",
      dimension: "task_completion",
      min: 0.5,
    });
    expect(parseThreshold("WITH_SKILL:judge.task_completion=0.5")).toMatchObject({
      treatment: T,
      metric: { kind: "judge_dimension", dimension: "task_completion" },
      min: 0.5,
    });
    expect(parseThreshold("judge.custom_0=0.5")).toMatchObject({
      treatment: null,
      metric: { kind: "judge_dimension", dimension: "custom_0" },
    });
  });

  it.each<[string, RunReport[], boolean, RegExp]>([
    ["every run scored", ok, true, /judge.task_completion = 0.850 ≥ 0.5/],
    ["a run whose judge failed", failed, false, /judge failed: no parseable verdict/],
  ])("gate: %s", (_n, reports, pass, detail) => {
    const r = decideGates(parseGates({ minJudgeTaskCompletion: 0.5 }).gates, {
      reports,
      candidate: T,
      baseline: null,
      comparison: null,
    });
    expect(r.ok).toBe(pass);
    expect(r.gates[0]?.detail).toMatch(detail);
  });

  it.each<[string, RunReport[], boolean, RegExp | null]>([
    ["every run scored", ok, true, null],
    ["a run whose judge failed", failed, false, /is not computable: .*judge failed/],
  ])("--fail-under: %s", (_n, reports, pass, failure) => {
    const r = evaluateThresholds([parseThreshold("judge.task_completion=0.5")], reports, {
      treatments: [T],
      candidate: T,
    });
    expect(r.ok).toBe(pass);
    if (failure) expect(r.failures[0]).toMatch(failure);
  });
});
