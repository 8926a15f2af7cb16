import { describe, expect, it } from "vitest";
import {
  buildPairwisePrompt,
  parsePairwiseAnswer,
  TIES_RULE,
} from "../../../src/judge/pairwise-prompt.js";

describe("parsePairwiseAnswer", () => {
  it.each([
    ['```json\n{"preferred": "A", "reason": "r"}\n```', { ok: true, preferred: "A", reason: "r" }],
    ['{"preferred": "b"}', { ok: true, preferred: "B", reason: "" }],
    ['```json\n{"preferred": "tie", "reason": "equal"}\n```', { ok: true, preferred: "tie" }],
    ["[PAIRWISE] preferred: tie - both fine", { ok: true, preferred: "tie", reason: "both fine" }],
    ['{"preferred": "C"}', { ok: false }],
    ["garbage", { ok: false }],
  ])("%s", (text, want) => {
    expect(parsePairwiseAnswer(text)).toMatchObject(want);
  });
});

describe("buildPairwisePrompt", () => {
  it("states that ties are ties and shows both sides with their answers", () => {
    const p = buildPairwisePrompt({
      instruction: "Write a note",
      rubricCriteria: ["polite"],
      a: { workspaceDump: "A-FILES", finalAnswer: "A-ANSWER" },
      b: { workspaceDump: "B-FILES", finalAnswer: null },
    });
    expect(p).toContain(TIES_RULE);
    expect(p.indexOf("A-FILES")).toBeLessThan(p.indexOf("B-FILES"));
    expect(p).toContain("A-ANSWER");
    expect(p).toContain("=== Output B: final answer ===\n(none)");
    expect(p).toContain("- polite");
  });
});
