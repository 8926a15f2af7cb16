import type { RunDigest } from "../core/digest.js";

/**
 * What a set of runs was run with (agent version, model, task content, sandbox, profile), and
 * the differences between two sets: `run --baseline-from` checks a frozen baseline arm with it
 * (docs/statistics.md §11) and `compare DIR_A DIR_B` reports what drifted between two
 * experiments (docs/reports.md). Pure.
 */
export interface CurrentFingerprint {
  agentVersion: string | null;
  model: string | null;
  /** the task's content hash now */
  taskHash: (task: string) => string | undefined;
  /** the sandbox asked for the task (null: auto, not known before the run) */
  sandbox: (task: string) => string | null;
  /** the profile the baseline treatment would be scored with now */
  profile: (task: string) => string;
}

/**
 * Every difference between the frozen runs and this run, one line each (empty: they match).
 * `labels` names the two sides (`compare DIR_A DIR_B` says A and B). Pure.
 */
export function fingerprintDrift(
  frozen: RunDigest[],
  now: CurrentFingerprint,
  labels: { then: string; now: string } = { then: "frozen", now: "now" },
): string[] {
  const { then: was, now: is } = labels;
  const out = new Set<string>();
  for (const r of frozen) {
    if ((r.agent.version ?? null) !== now.agentVersion)
      out.add(
        `agent version: ${was} ${r.agent.version ?? "unknown"}, ${is} ${now.agentVersion ?? "unknown"}`,
      );
    if ((r.model ?? null) !== now.model)
      out.add(`model: ${was} ${r.model ?? "CLI default"}, ${is} ${now.model ?? "CLI default"}`);
    const h = now.taskHash(r.task);
    if (h !== undefined && h !== r.hashes.task)
      out.add(
        `task ${r.task}: content changed (${was} ${r.hashes.task.slice(0, 19)}, ${is} ${h.slice(0, 19)})`,
      );
    const sb = now.sandbox(r.task);
    if (sb !== null && r.sandbox && r.sandbox.kind !== sb)
      out.add(`task ${r.task}: sandbox ${was} ${r.sandbox.kind}, ${is} ${sb}`);
    const profile = r.rubric?.profile ?? r.events_summary?.profile ?? null;
    if (profile !== null && profile !== now.profile(r.task))
      out.add(`task ${r.task}: profile ${was} ${profile}, ${is} ${now.profile(r.task)}`);
  }
  return [...out];
}
