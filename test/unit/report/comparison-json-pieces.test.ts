import { describe, expect, it } from "vitest";
import { buildComparison } from "../../../src/report/comparison/build.js";
import { comparisonJsonPieces } from "../../../src/report/comparison/json-pieces.js";
import { reps } from "./helpers.js";

describe("comparison.json in pieces", () => {
  const reports = [
    ...reps("CONTROL", 4, [1, 0, 1, 1], { task: "task-a" }),
    ...reps("WITH_SKILL", 4, [1, 1, 1, 0], {
      task: "task-a",
      skills: [{ name: "s", hash: "sha256:abc" }],
    }),
    ...reps("CONTROL", 3, [0, 0, 1], { task: "task-b" }),
    ...reps("WITH_SKILL", 3, [1, 1, 1], { task: "task-b" }),
  ];
  const c = buildComparison({ reports, metadata: null });

  it.each([1, 3, 1000])(
    "joined, are JSON.stringify(c, null, 2) and a newline (%i rows a piece)",
    (n) => {
      const pieces = [...comparisonJsonPieces(c, n)];
      expect(pieces.join("")).toBe(`${JSON.stringify(c, null, 2)}\n`);
      expect(c.source_evidence.length).toBe(reports.length);
      if (n === 1) expect(pieces.length).toBeGreaterThan(reports.length);
    },
  );

  it("an empty row list prints as []", () => {
    const empty = { ...c, source_evidence: [] };
    expect([...comparisonJsonPieces(empty)].join("")).toBe(`${JSON.stringify(empty, null, 2)}\n`);
  });
});
