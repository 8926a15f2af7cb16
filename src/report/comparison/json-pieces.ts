import type { SourceEvidenceSource } from "./source-evidence.js";
import type { Comparison } from "./types.js";

/** Stands in for the per-run rows while the rest of comparison.json is printed. */
const ROWS_MARK = "\u0000source_evidence\u0000";

/** Around the rows of a non-empty `[rows]` pretty-printed with an indent of 2. */
const NESTED_OPEN = "[\n  [\n";
const NESTED_CLOSE = "\n  ]\n]";

/**
 * comparison.json (`JSON.stringify(c, null, 2)` and a newline) as pieces: the per-run
 * `source_evidence` rows, the one part that grows with the runs, a chunk of rows at a time,
 * so that the whole text of a 100,000-run comparison is never one string. Pure; the pieces
 * joined are exactly that text (with `rows` for `c.source_evidence`, when given).
 */
export function* comparisonJsonPieces(
  c: Comparison,
  rowsPerPiece = 100,
  rows: SourceEvidenceSource = c.source_evidence,
): Generator<string> {
  const text = JSON.stringify({ ...c, source_evidence: ROWS_MARK }, null, 2);
  const mark = JSON.stringify(ROWS_MARK);
  const at = text.indexOf(mark);
  if (at < 0) {
    yield `${JSON.stringify(c, null, 2)}\n`;
    return;
  }
  yield text.slice(0, at);
  if (rows.length === 0) yield "[]";
  else {
    // The rows sit at depth 2 of the pretty-printed object: 4 spaces before each of their lines.
    // JSON.stringify indents them so inside an array in an array, and puts ",\n" between them:
    // a chunk is one stringify, cut out of the two arrays' brackets (not a stringify and a
    // replacement of every newline a row).
    for (let i = 0; i < rows.length; i += rowsPerPiece) {
      const nested = JSON.stringify([rows.slice(i, i + rowsPerPiece)], null, 2);
      const chunk = nested.slice(NESTED_OPEN.length, nested.length - NESTED_CLOSE.length);
      yield `${i === 0 ? "[\n" : ",\n"}${chunk}`;
    }
    yield "\n  ]";
  }
  yield `${text.slice(at + mark.length)}\n`;
}
