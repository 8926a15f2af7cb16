/**
 * Tokens by kind (input, output, cache read, cache write) per treatment and per task ×
 * treatment (issue #35 item 5, docs/cost.md "Cost in the answer"). The results table has only
 * each cell's total tokens and cost; a Skill that is read once and then served from the prompt
 * cache costs differently from one re-sent as input at every turn, and only the kinds show it.
 * Pure: summary.md's section and the HTML overview's lines are made from the same rows.
 */
import type { RunDigest } from "../core/digest.js";
import { groupCells, type Cell } from "../plan/group.js";
import { cell, int, table, Tally } from "./format.js";

export interface TokenKindRow {
  /** null: the treatment's row (every task) */
  task: string | null;
  treatment: string;
  runs: number;
  /** sums over the runs that reported the kind; null when none did */
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
}

/** Did the run report any of the four kinds? (A digest made before they were kept did not.) */
function hasKinds(r: RunDigest): boolean {
  const e = r.events_summary;
  return (
    e !== null &&
    (typeof e.input_tokens === "number" ||
      typeof e.output_tokens === "number" ||
      typeof e.cache_read_input_tokens === "number" ||
      typeof e.cache_creation_input_tokens === "number")
  );
}

/** The four kinds' sums over some runs (a row of the tables). */
class KindSums {
  private readonly input = new Tally();
  private readonly output = new Tally();
  private readonly read = new Tally();
  private readonly write = new Tally();
  private runs = 0;

  add(e: RunDigest["events_summary"]): void {
    this.runs++;
    this.input.add(e?.input_tokens);
    this.output.add(e?.output_tokens);
    this.read.add(e?.cache_read_input_tokens);
    this.write.add(e?.cache_creation_input_tokens);
  }

  row(task: string | null, treatment: string): TokenKindRow {
    return {
      task,
      treatment,
      runs: this.runs,
      input: this.input.total(),
      output: this.output.total(),
      cache_read: this.read.total(),
      cache_write: this.write.total(),
    };
  }
}

/**
 * The per-treatment rows (in `treatments`' order), then the per-task × treatment rows (in the
 * results table's order); none when no run reported a token kind, so experiments whose agents
 * report none keep their reports as they were.
 */
export function tokenKindRows(
  reports: RunDigest[],
  treatments: string[],
  /** groupCells(reports, treatments), when the caller has it already */
  grouped?: Cell[],
): TokenKindRow[] {
  if (!reports.some(hasKinds)) return [];
  const cells = grouped ?? groupCells(reports, treatments);
  // Each run's events_summary is read once, for its cell's sums and its treatment's (a packed
  // digest builds the object at every read); a treatment's sums add its cells' runs in cell
  // order, as summing the treatment's runs in that order did.
  const byTreatment = new Map(treatments.map((t) => [t, new KindSums()]));
  const cellRows = cells.map((c) => {
    const sums = new KindSums();
    const ofTreatment = byTreatment.get(c.treatment);
    for (const r of c.runs) {
      const e = r.events_summary;
      sums.add(e);
      ofTreatment?.add(e);
    }
    return sums.row(c.task, c.treatment);
  });
  const treatmentRows = treatments.map((t) => (byTreatment.get(t) ?? new KindSums()).row(null, t));
  return [...treatmentRows.filter((r) => r.runs > 0), ...cellRows];
}

const kindsText = (r: TokenKindRow): string =>
  `input ${int(r.input)} · output ${int(r.output)} · cache read ${int(r.cache_read)} · cache write ${int(r.cache_write)}`;

/** One line per row for the HTML overview: "CONTROL (4 runs): input … · output … · …". */
export function tokenKindLines(rows: readonly TokenKindRow[]): string[] {
  return rows.map(
    (r) =>
      `Tokens, ${r.task === null ? r.treatment : `${r.task} · ${r.treatment}`} (${r.runs} run${r.runs === 1 ? "" : "s"}): ${kindsText(r)}`,
  );
}

/** summary.md's `## Tokens by Kind` (two tables), or null when no run reported a kind. */
export function tokenKindsSection(rows: readonly TokenKindRow[]): string | null {
  if (rows.length === 0) return null;
  const kinds = (r: TokenKindRow): string[] => [
    int(r.input),
    int(r.output),
    int(r.cache_read),
    int(r.cache_write),
  ];
  const kindHeader = ["Input", "Output", "Cache read", "Cache write"];
  return [
    "## Tokens by Kind",
    "",
    "_Sums over every run (excluded ones too), as the agents reported them; — = no run of the row reported that kind. Cache write is tokens written to the prompt cache (billed apart from input, docs/cost.md)._",
    "",
    table(
      ["Treatment", "Runs", ...kindHeader],
      rows
        .filter((r) => r.task === null)
        .map((r) => [cell(r.treatment), String(r.runs), ...kinds(r)]),
    ),
    "",
    table(
      ["Task", "Treatment", "Runs", ...kindHeader],
      rows
        .filter((r) => r.task !== null)
        .map((r) => [cell(r.task ?? ""), cell(r.treatment), String(r.runs), ...kinds(r)]),
    ),
  ].join("\n");
}
