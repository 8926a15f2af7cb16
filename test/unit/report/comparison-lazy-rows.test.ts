import { describe, expect, it } from "vitest";
import { buildComparison, sourceEvidenceOf } from "../../../src/report/comparison/build.js";
import { comparisonJsonPieces } from "../../../src/report/comparison/json-pieces.js";
import {
  comparisonMarkdownPieces,
  renderComparisonMarkdown,
} from "../../../src/report/comparison/render.js";
import { makeMetadata, reps } from "./helpers.js";

describe("comparison rows made as they are written", () => {
  // Runs in no particular order, treatments in the experiment's order (not alphabetical).
  const reports = [
    ...reps("WITH_SKILL", 3, [1, 1, 1], { task: "task-b" }),
    ...reps("CONTROL", 4, [1, 0, 1, 1], { task: "task-a" }),
    ...reps("WITH_SKILL", 4, [1, 1, 1, 0], {
      task: "task-a",
      skills: [{ name: "s", hash: "sha256:abc" }],
    }),
    ...reps("CONTROL", 3, [0, 0, 1], { task: "task-b" }),
  ].reverse();
  const input = { reports, metadata: makeMetadata(["WITH_SKILL", "CONTROL"]) };
  const full = buildComparison(input);
  const bare = buildComparison({ ...input, sourceEvidence: false });
  const rows = sourceEvidenceOf(input);

  it("are buildComparison's rows, in its order", () => {
    expect(bare.source_evidence).toEqual([]);
    expect(rows.length).toBe(full.source_evidence.length);
    expect(rows.slice(0, rows.length)).toEqual(full.source_evidence);
    expect(rows.slice(3, 5)).toEqual(full.source_evidence.slice(3, 5));
    expect(rows.some((r) => r.run_id === "task-b-CONTROL-r2")).toBe(true);
    expect(rows.some((r) => r.run_id === "none")).toBe(false);
  });

  it("write the same comparison.json and comparison_report.md", () => {
    expect({ ...bare, source_evidence: full.source_evidence }).toEqual(full);
    expect([...comparisonJsonPieces(bare, 4, rows)].join("")).toBe(
      `${JSON.stringify(full, null, 2)}\n`,
    );
    expect([...comparisonMarkdownPieces(bare, null, rows)].join("")).toBe(
      renderComparisonMarkdown(full),
    );
  });
});
