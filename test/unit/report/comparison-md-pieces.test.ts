import { describe, expect, it } from "vitest";
import { buildComparison } from "../../../src/report/comparison/build.js";
import {
  comparisonMarkdownPieces,
  renderComparisonMarkdown,
} from "../../../src/report/comparison/render.js";
import { withNoteAfterTitle } from "../../../src/report/unreadable.js";
import type { Comparison } from "../../../src/report/comparison/types.js";
import { reps } from "./helpers.js";

describe("comparison_report.md in pieces", () => {
  const reports = [
    ...reps("CONTROL", 4, [1, 0, 1, 1], { task: "task-a" }),
    ...reps("WITH_SKILL", 4, [1, 1, 1, 0], { task: "task-a" }),
  ];
  const base = buildComparison({ reports, metadata: null });
  const template = base.source_evidence[0];
  if (!template) throw new Error("no source evidence rows");
  /** The comparison with `n` source-evidence rows r1..rn. */
  const withRows = (n: number, edit: (i: number) => Partial<typeof template> = () => ({})) => {
    const rows = Array.from({ length: n }, (_, k) => ({
      ...template,
      run_id: `r${k + 1}`,
      ...edit(k + 1),
    }));
    return { ...base, source_evidence: rows } satisfies Comparison;
  };

  it("writes the per-run table 250 rows a piece, in order, the note after the title", () => {
    const c = withRows(2500);
    const note = "> **2 run reports could not be read**";
    const pieces = [...comparisonMarkdownPieces(c, note)];
    expect(pieces.length).toBe(12); // head, ten pieces of rows, tail
    const text = pieces.join("");
    expect(text).toBe(withNoteAfterTitle(renderComparisonMarkdown(c), note));
    expect(text.split("\n")[2]).toBe(note);
    const runs = text.split("\n").filter((l) => l.startsWith("| `r"));
    expect(runs.map((l) => /`(r\d+)`/.exec(l)?.[1])).toEqual(
      Array.from({ length: 2500 }, (_, k) => `r${k + 1}`),
    );
    expect(text.endsWith("\n") && !text.endsWith("\n\n")).toBe(true);
  });

  it("strips an escape sequence that runs across pieces as the whole text would", () => {
    // An OSC sequence opened in run 3's agent version and closed by a BEL in run 1200's: the
    // whole text loses everything between them, though it spans two pieces of rows.
    const c = withRows(1500, (i) =>
      i === 3 ? { agent_version: "2.0\u001b]8;;x" } : i === 1200 ? { agent_version: "\u0007" } : {},
    );
    const text = [...comparisonMarkdownPieces(c, null)].join("");
    expect(text).toContain("`r2`");
    expect(text).toContain("`r3`");
    expect(text).not.toContain("`r500`");
    expect(text).not.toContain("`r1100`");
    expect(text).toContain("`r1201`");
    expect(text.includes("\u0007") || text.includes("\u001b")).toBe(false);
  });
});
