import type { RunDigest } from "../core/digest.js";

/**
 * The runs `--reuse` took from earlier results folders (report.json `reused_from`, docs/reuse.md),
 * counted per folder in the order first met; empty when none was reused, so reports of
 * experiments without `--reuse` stay as they were. Pure.
 */
export function reusedSources(reports: readonly RunDigest[]): { dir: string; runs: number }[] {
  const by = new Map<string, number>();
  for (const r of reports)
    if (r.reused_from !== undefined) by.set(r.reused_from, (by.get(r.reused_from) ?? 0) + 1);
  return [...by].map(([dir, runs]) => ({ dir, runs }));
}

/** `N runs reused from DIR`, one line per folder. */
function reusedLines(sources: readonly { dir: string; runs: number }[]): string[] {
  return sources.map((s) => `${s.runs} run${s.runs === 1 ? "" : "s"} reused from ${s.dir}`);
}

/** The reports' markdown note: a quote block, or nothing. */
export function reusedNote(sources: readonly { dir: string; runs: number }[]): string[] {
  if (sources.length === 0) return [];
  return [
    `> ♻️ **Reused runs** (\`--reuse\`: equal content key, not run again; docs/reuse.md): ${reusedLines(sources).join("; ")}.`,
    "",
  ];
}

/** The comparison's `reused` field: present only when runs were reused. */
export function reusedField(reports: readonly RunDigest[]): {
  reused?: { dir: string; runs: number }[];
} {
  const sources = reusedSources(reports);
  return sources.length === 0 ? {} : { reused: sources };
}

/** The HTML overview's `experiment.reused` lines: present only when runs were reused. */
export function reusedExperimentField(reports: Iterable<RunDigest>): { reused?: string[] } {
  const sources = reusedSources([...reports]);
  return sources.length === 0 ? {} : { reused: reusedLines(sources) };
}
