import type { RunDigest } from "../core/digest.js";
import { isRecord } from "../core/json.js";
import { canonicalJson, sha256 } from "../util/hash.js";
import type { EndpointKind, RunFingerprint } from "./fingerprint-schema.js";

export type { EndpointKind, RunFingerprint } from "./fingerprint-schema.js";

/**
 * The fingerprints of runs (the type and its stored form: fingerprint-schema.ts): what changes a
 * run's result, compared the same way by `run --baseline-from`, `compare DIR_A DIR_B` and the
 * calibration lookups. Pure.
 */
/** The experiment-wide part of a fingerprint, recorded in metadata.json (`fingerprint`). */
export interface ExperimentFingerprint {
  endpoint: EndpointKind;
  endpoint_at: string | null;
  judge: string | null;
}

type Field = Exclude<keyof RunFingerprint, "task">;

/** The fields in the order their differences are listed; per task or for the whole arm. */
const FIELDS: readonly { key: Field; label: string; perTask: boolean }[] = [
  { key: "agent", label: "agent", perTask: false },
  { key: "agent_version", label: "agent version", perTask: false },
  { key: "model", label: "model", perTask: false },
  { key: "endpoint", label: "endpoint", perTask: false },
  { key: "endpoint_at", label: "endpoint", perTask: false },
  { key: "judge", label: "judge", perTask: false },
  { key: "skills", label: "skills", perTask: false },
  { key: "task_hash", label: "content", perTask: true },
  { key: "sandbox", label: "sandbox", perTask: true },
  { key: "profile", label: "profile", perTask: true },
  { key: "interaction", label: "interaction", perTask: true },
  { key: "interaction_settings", label: "interaction settings", perTask: true },
  { key: "timeout_sec", label: "timeout_sec", perTask: true },
];

const ENDPOINT_WORDS: Record<EndpointKind, string> = {
  scripted: "scripted model",
  live: "live endpoint",
};

/** How a field's value reads in a drift line. */
function shown(f: RunFingerprint, key: Field): string {
  const v = f[key];
  if (v === null) return "not recorded";
  if ((key === "endpoint" || key === "endpoint_at") && f.endpoint !== null) {
    const word = ENDPOINT_WORDS[f.endpoint];
    // A script is named by the start of its hash, as task contents are.
    const at = f.endpoint_at?.startsWith("sha256:") ? f.endpoint_at.slice(0, 19) : f.endpoint_at;
    return at === null ? word : `${word} ${at}`;
  }
  if (key === "task_hash" || key === "interaction_settings") return v.slice(0, 19);
  return v;
}

/**
 * Every difference between the fingerprints of pairs of runs (`then` one side, `now` the
 * other: frozen and planned, A and B, calibrated and compared), one line each, the same
 * difference once (empty: they match). A field differs only when both sides record it; the
 * script or host of the endpoint only when both have the same kind. Pure.
 */
export function fingerprintDrift(
  pairs: readonly { then: RunFingerprint; now: RunFingerprint }[],
  labels: { then: string; now: string } = { then: "frozen", now: "now" },
): string[] {
  const out = new Set<string>();
  for (const { then, now } of pairs)
    for (const { key, label, perTask } of FIELDS) {
      const a = then[key];
      const b = now[key];
      if (a === null || b === null || a === b) continue;
      if (key === "endpoint_at" && then.endpoint !== now.endpoint) continue;
      const where = perTask ? `task ${then.task}: ${label}` : label;
      const change =
        key === "task_hash"
          ? `task ${then.task}: content changed (${labels.then} ${shown(then, key)}, ${labels.now} ${shown(now, key)})`
          : `${where}: ${labels.then} ${shown(then, key)}, ${labels.now} ${shown(now, key)}`;
      out.add(change);
    }
  return [...out];
}

/** A stable key of a fingerprint (every field, null included): equal keys, equal settings. */
export function fingerprintKey(f: RunFingerprint): string {
  return `sha256:${sha256(canonicalJson(f))}`;
}

/** The interaction fields of a fingerprint from a mode and a turn limit. */
export function interactionText(mode: string, maxTurns: number): string {
  return mode === "none" ? "none" : `${mode}, ${maxTurns} turns max`;
}

/** Skills as a fingerprint field. */
export function skillsText(skills: readonly { name: string; hash: string }[]): string {
  const list = [...new Set(skills.map((s) => `${s.name}@${s.hash}`))].sort();
  return list.length === 0 ? "none" : list.join(", ");
}

/** A hash of the interaction settings beyond mode and turns (what the simulator is told). */
export function interactionSettingsHash(settings: Record<string, unknown>): string {
  return `sha256:${sha256(canonicalJson(settings))}`;
}

/**
 * True when the runs were played by the scripted model: metadata.json names a model script, or a
 * run's report has the server's request log (`model_api`). Pure.
 */
export function isScripted(reports: readonly RunDigest[], metadata: unknown): boolean {
  const script =
    typeof metadata === "object" && metadata !== null && "model_script" in metadata
      ? metadata.model_script
      : null;
  return (typeof script === "string" && script !== "") || reports.some((r) => r.model_api !== null);
}

/**
 * A stored experiment's recorded fingerprint, or, in folders written before it was recorded,
 * only whether its runs were scripted.
 */
export type StoredExperiment = ExperimentFingerprint | { scripted: boolean };

/** The experiment part of a stored folder's fingerprints from its metadata.json (as read) and runs. */
export function experimentFingerprintOf(
  metadata: unknown,
  reports: readonly RunDigest[],
): StoredExperiment {
  const f = isRecord(metadata) ? metadata.fingerprint : undefined;
  if (
    isRecord(f) &&
    (f.endpoint === "scripted" || f.endpoint === "live") &&
    (typeof f.endpoint_at === "string" || f.endpoint_at === null) &&
    (typeof f.judge === "string" || f.judge === null)
  )
    return { endpoint: f.endpoint, endpoint_at: f.endpoint_at, judge: f.judge };
  return { scripted: isScripted(reports, metadata) };
}

/** What a run's stored plan adds to its fingerprint (runs/<id>/plan.json; absent in old folders). */
export interface PlanFingerprintPart {
  interaction_settings: string;
  timeout_sec: string;
}

/**
 * The fingerprint of a stored run: its digest, the experiment's recorded settings (null in
 * folders written before they were; the endpoint's kind is then read from the runs: `scripted`
 * when the experiment names a model script or any run has the scripted server's log) and what
 * its plan adds. Pure.
 */
export function storedFingerprint(
  r: RunDigest,
  experiment: StoredExperiment | null,
  plan: PlanFingerprintPart | null = null,
): RunFingerprint {
  const exp = experiment !== null && "endpoint" in experiment ? experiment : null;
  const endpoint: EndpointKind | null =
    exp?.endpoint ??
    (experiment !== null && "scripted" in experiment
      ? experiment.scripted
        ? "scripted"
        : "live"
      : r.model_api !== null
        ? "scripted"
        : null);
  return {
    task: r.task,
    agent: r.agent.name,
    agent_version: r.agent.version ?? null,
    model: r.model ?? "CLI default",
    endpoint,
    endpoint_at: exp?.endpoint_at ?? null,
    task_hash: r.hashes.task,
    sandbox: r.sandbox?.kind ?? null,
    profile: r.rubric?.profile ?? r.events_summary?.profile ?? null,
    judge: exp?.judge ?? null,
    interaction: r.interaction
      ? interactionText(r.interaction.mode, r.interaction.max_turns)
      : null,
    interaction_settings: plan?.interaction_settings ?? null,
    timeout_sec: plan?.timeout_sec ?? null,
    skills: skillsText(r.skill_sources),
  };
}
