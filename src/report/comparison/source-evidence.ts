import type { RunDigest } from "../../core/digest.js";
import type { SourceEvidenceRow } from "./types.js";

/** `name@<first 12 hex digits>` of a skill source's content hash. */
function skillSourceLabel(s: { name: string; hash: string }): string {
  return `${s.name}@${s.hash.replace(/^sha256:/, "").slice(0, 12)}`;
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
    skill_sources: r.skill_sources.map(skillSourceLabel),
    agent_version: r.agent.version,
  };
}
