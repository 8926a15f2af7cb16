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
