import type { RunDigest } from "../../core/digest.js";
import type { SourceEvidenceRow } from "./types.js";

/** `name@<first 12 hex digits>` of a skill source's content hash. */
function skillSourceLabel(s: { name: string; hash: string }): string {
  return `${s.name}@${s.hash.replace(/^sha256:/, "").slice(0, 12)}`;
}

/**
 * The labels of a run's skill sources. Runs read from the run index share one skill_sources
 * list per distinct value, and so share its labels: a list of labels per run would be one of
 * the comparison's costs that grow with the runs.
 */
const labelsOf = new WeakMap<RunDigest["skill_sources"], string[]>();
function skillSourceLabels(sources: RunDigest["skill_sources"]): string[] {
  let labels = labelsOf.get(sources);
  if (!labels) labelsOf.set(sources, (labels = sources.map(skillSourceLabel)));
  return labels;
}

export function sourceEvidenceRow(r: RunDigest): SourceEvidenceRow {
  return {
    run_id: r.run_id,
    task: r.task,
    treatment: r.treatment,
    rep: r.rep,
    quality: r.sample_quality.status,
    reason_code: r.sample_quality.reason_code,
    profile: r.rubric?.profile ?? r.events_summary?.profile ?? null,
    skill_sources: skillSourceLabels(r.skill_sources),
    agent_version: r.agent.version,
  };
}

/**
 * What comparison.json and comparison_report.md read of the per-run source-evidence rows: an
 * array of them (Comparison.source_evidence), or SourceEvidenceRows.
 */
export interface SourceEvidenceSource {
  readonly length: number;
  slice(start: number, end: number): SourceEvidenceRow[];
  some(test: (row: SourceEvidenceRow) => boolean): boolean;
}

/**
 * The source-evidence rows of `reports`, made a slice at a time as they are read: the files
 * are written a piece at a time, so a comparison being written never holds a row per run
 * (as many as the digests themselves cost).
 */
export class SourceEvidenceRows implements SourceEvidenceSource {
  constructor(private readonly reports: readonly RunDigest[]) {}

  get length(): number {
    return this.reports.length;
  }

  slice(start: number, end: number): SourceEvidenceRow[] {
    return this.reports.slice(start, end).map(sourceEvidenceRow);
  }

  some(test: (row: SourceEvidenceRow) => boolean): boolean {
    return this.reports.some((r) => test(sourceEvidenceRow(r)));
  }
}
