import type { ReadProblem } from "../store/read.js";

/**
 * The warning a report carries when stored runs could not be read (a report.json the schema
 * refuses, or unreadable): those runs are in no number of the report, and the reader must be
 * told so rather than see a smaller experiment (docs/reports.md). Null when every run was read.
 */
export function unreadableRunsNote(problems: readonly ReadProblem[]): string | null {
  if (problems.length === 0) return null;
  const lines = [
    `> ⚠️ **${problems.length} stored run report(s) could not be read and are left out of every number below.** Fix or remove them, then run \`skillbench report\` again:`,
  ];
  for (const p of problems.slice(0, 20)) lines.push(`> - \`${p.file}\`: ${oneLine(p.message)}`);
  if (problems.length > 20) lines.push(`> - … and ${problems.length - 20} more`);
  return lines.join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** `markdown` with `note` set after its first heading (as its first block). */
export function withNoteAfterTitle(markdown: string, note: string | null): string {
  if (note === null) return markdown;
  const end = markdown.indexOf("\n");
  if (!markdown.startsWith("# ") || end < 0) return `${note}\n\n${markdown}`;
  return `${markdown.slice(0, end)}\n\n${note}${markdown.slice(end)}`;
}
