/**
 * The number formats the reports, the PR comment, the history, the cost estimate and the CLI
 * share, and the dry run's plain-text tables, in one place so that a figure reads the same
 * wherever it is printed. Pure.
 * (report/format.ts keeps its own `f2`, which prints "—" for a missing value in the experiment
 * reports' tables; the HTML client has its own in report/html/client/dom.ts: it is a browser
 * bundle.)
 */

/** A rate or a score with two decimals; "n/a" when there is none. */
export const f2 = (x: number | null | undefined): string =>
  x === null || x === undefined ? "n/a" : x.toFixed(2);

/** A difference with its sign and two decimals: +0.20, −0.05 (a true minus sign). */
export const signed = (x: number): string => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;

/** Dollars to four decimals: $0.0114 (a run or a generation costs cents). */
export const dollars = (x: number): string => `$${x.toFixed(4)}`;

/**
 * A plain-text table's lines: each column padded to its widest cell, two spaces between
 * columns, no trailing blanks (the dry run's matrix and its estimate).
 */
export function textTableLines(head: readonly string[], rows: readonly string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(w[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}
