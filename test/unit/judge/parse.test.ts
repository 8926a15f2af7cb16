import { describe, expect, it } from "vitest";
import {
  judgeLine,
  judgeStatusLine,
  parseJudgeAnswer,
  verdictLines,
} from "../../../src/judge/parse.js";

const DIMS = ["task_completion", "output_quality", "instruction_adherence", "custom_0"];

describe("parseJudgeAnswer", () => {
  it.each<[string, string, "json" | "lines", Array<[string, number, string]>]>([
    [
      "fenced json block",
      'Here:\n```json\n{"scores": {"task_completion": {"score": 0.8, "reason": "done"}, "output_quality": {"score": 0.5, "reason": "ok"}}}\n```',
      "json",
      [
        ["task_completion", 0.8, "done"],
        ["output_quality", 0.5, "ok"],
      ],
    ],
    [
      "bare json object, scores clamped, string score",
      '{"scores": {"task_completion": {"score": 1.7, "reason": "x"}, "custom_0": {"score": "-0.2", "reason": "y"}}}',
      "json",
      [
        ["task_completion", 1, "x"],
        ["custom_0", 0, "y"],
      ],
    ],
    [
      "json with unknown dims only falls back to lines",
      '```json\n{"scores": {"vibes": {"score": 1, "reason": "z"}}}\n```\n[RUBRIC-JUDGE] output_quality: 0.4 - thin',
      "lines",
      [["output_quality", 0.4, "thin"]],
    ],
    [
      "lines, unknown dims dropped, clamped, order by dims",
      "[RUBRIC-JUDGE] instruction_adherence: 1.5 - all good\n[RUBRIC-JUDGE] bogus: 0.5 - no\n[RUBRIC-JUDGE] task_completion: 0.90 - greeting.txt exists",
      "lines",
      [
        ["task_completion", 0.9, "greeting.txt exists"],
        ["instruction_adherence", 1, "all good"],
      ],
    ],
    [
      "first line of a dimension wins; a bad number is skipped",
      "[RUBRIC-JUDGE] task_completion: 1.2.3 - bad\n[RUBRIC-JUDGE] task_completion: 0.3 - first good\n[RUBRIC-JUDGE] task_completion: 0.9 - later",
      "lines",
      [["task_completion", 0.3, "first good"]],
    ],
    [
      "broken json, then lines",
      '```json\n{"scores": {"task_completion": \n```\n[RUBRIC-JUDGE] custom_0: 0.25 - partly',
      "lines",
      [["custom_0", 0.25, "partly"]],
    ],
  ])("%s", (_n, text, via, expected) => {
    const r = parseJudgeAnswer(text, DIMS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.via).toBe(via);
    expect(r.scores.map((s) => [s.name, s.score, s.reason])).toEqual(expected);
    expect(r.missing).toEqual(DIMS.filter((d) => !expected.some(([n]) => n === d)));
  });

  it.each([
    ["empty", ""],
    ["prose", "I think the agent did fine overall."],
    ["unknown dims only", "[RUBRIC-JUDGE] vibes: 0.5 - meh"],
    ["json without scores", '{"verdict": "good"}'],
  ])("garbage: %s", (_n, text) => {
    const r = parseJudgeAnswer(text, DIMS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no parseable verdict/);
  });
});

describe("lines", () => {
  it.each<[string, number, string, string]>([
    ["task_completion", 0.9, "fine", "[RUBRIC-JUDGE] task_completion: 0.90 - fine"],
    ["custom_1", 1, "multi\nline  reason", "[RUBRIC-JUDGE] custom_1: 1.00 - multi line reason"],
    ["output_quality", 0, "", "[RUBRIC-JUDGE] output_quality: 0.00 - no reason given"],
  ])("judgeLine(%s, %d)", (name, score, reason, line) => {
    expect(judgeLine(name, score, reason)).toBe(line);
  });
  it("status lines", () => {
    expect(judgeStatusLine("enabled_and_successful")).toBe(
      "[RUBRIC-JUDGE] status: enabled_and_successful",
    );
    expect(judgeStatusLine("failed", "HTTP 500 boom")).toBe(
      "[RUBRIC-JUDGE] status: failed - HTTP 500 boom",
    );
    expect(verdictLines([{ name: "main_flow", score: 0.5, reason: "r" }])).toEqual([
      "[RUBRIC-JUDGE] main_flow: 0.50 - r",
      "[RUBRIC-JUDGE] status: enabled_and_successful",
    ]);
  });
});
