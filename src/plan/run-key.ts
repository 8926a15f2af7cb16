/**
 * The content key of a run (docs/reuse.md): what a run was run with, part by part, hashed into
 * one key. A finished run stores it in its report.json (`run_key`, core/run-key.ts); `--reuse
 * DIR` takes a stored run instead of running it again only when its key equals the planned
 * run's, and lists the parts that differ when it does not. The parts a run's plan shares with
 * the fingerprints of `--baseline-from`, `compare` and the calibration lookups come from the same
 * `plannedFingerprint`. Pure.
 */
import { agentDriver, reportAgentName } from "../agents/index.js";
import type { RunKeyParts, RunKeyRecord } from "../core/run-key.js";
import type { TreatmentSpec } from "../suite/index.js";
import { canonicalJson, sha256 } from "../util/hash.js";
import {
  interactionSettingsHash,
  interactionText,
  skillsText,
  type ExperimentFingerprint,
  type PlanFingerprintPart,
  type RunFingerprint,
} from "./fingerprint.js";
import type { RunPlan } from "./run-plan.js";

/** The format of `RunKeyParts`: bump when a part is added, removed or computed otherwise. */
export const RUN_KEY_VERSION = 1;

/**
 * The harness's scoring version: bump it whenever a change to skillbench can change a finished
 * run's recorded result from the same evidence (a built-in rubric profile's dimensions, checks
 * or weights, `evaluateRun`'s status and outcome rules, sample quality and attribution rules,
 * the validators' reinterpretation, the evidence decoders). Runs scored under another version
 * are not reused (`--reuse`): they are run again, or rescored (`skillbench rescore` records the
 * version it scored under).
 */
export const SCORING_VERSION = 1;

/** What a run's plan adds to its fingerprint: the interaction settings beyond mode and turns, its timeout. */
export function planFingerprintPart(plan: RunPlan): PlanFingerprintPart {
  const i = plan.interaction;
  return {
    interaction_settings: interactionSettingsHash({
      simulator_prompt: i.simulator_prompt,
      decision_patterns: i.decision_patterns,
      decision_reply: i.decision_reply,
      decision_replies: i.decision_replies,
      continue_prompt: i.continue_prompt,
      fresh_resume_marker: i.fresh_resume_marker,
      simulator_model: i.simulator_model,
    }),
    timeout_sec: String(plan.timeout_sec),
  };
}

/** The fingerprint of a run as planned now, with the experiment's endpoint and judge. */
export function plannedFingerprint(
  plan: RunPlan,
  taskHash: string | null,
  experiment: ExperimentFingerprint,
): RunFingerprint {
  const driver = agentDriver(plan.agent.name);
  return {
    task: plan.task,
    agent: driver ? reportAgentName(driver.name) : plan.agent.name,
    agent_version: plan.agent.version,
    model: plan.model ?? "CLI default",
    endpoint: experiment.endpoint,
    endpoint_at: experiment.endpoint_at,
    task_hash: taskHash,
    sandbox: plan.sandbox.kind,
    profile: plan.profile,
    judge: experiment.judge,
    interaction: interactionText(plan.interaction.mode, plan.interaction.max_turns),
    ...planFingerprintPart(plan),
    skills: skillsText(plan.treatment_files.skills),
  };
}

/**
 * A treatment's content hash: every setting of its spec and its Skills' content hashes (a path
 * Skill's bytes; an inline Skill's text), but not where its file or Skill folders are, so a
 * suite compiled into another folder (`eval`) keeps its keys.
 */
export function treatmentContentHash(t: TreatmentSpec): string {
  const { file: _file, skills, ...settings } = t;
  return `sha256:${sha256(
    canonicalJson({
      ...settings,
      skills: skills.map((s) => ({ name: s.name, source_type: s.source_type, hash: s.hash })),
    }),
  )}`;
}

/** A hash of the declared environment a run gets (values hashed, never stored). */
export function environmentHash(env: {
  declared: Record<string, string>;
  passNames: readonly string[];
  validation: unknown;
}): string {
  return `sha256:${sha256(
    canonicalJson({
      declared: env.declared,
      pass: [...new Set(env.passNames)].sort(),
      validation: env.validation ?? null,
    }),
  )}`;
}

/** What every run of an experiment shares in its key. */
export interface ExperimentKeyParts extends ExperimentFingerprint {
  judge: string;
  /** environmentHash of the experiment */
  environment: string;
  /** the suite profiles' file hashes by name (built-ins are absent) */
  profileHashes: Readonly<Record<string, string>>;
}

/**
 * The key parts of a planned run: its plan, its task's and treatment's content hashes, the
 * experiment's shared parts, and the docker image id (null for the other sandboxes, or while
 * the image is not built: no stored run has a null image under docker, so none is taken).
 */
export function plannedKeyParts(
  plan: RunPlan,
  hashes: { task: string; treatment: string },
  experiment: ExperimentKeyParts,
  image: string | null,
): RunKeyParts {
  const f = plannedFingerprint(plan, hashes.task, experiment);
  return {
    version: RUN_KEY_VERSION,
    scoring_version: SCORING_VERSION,
    task: plan.task,
    task_hash: hashes.task,
    treatment: plan.treatment,
    treatment_hash: hashes.treatment,
    rep: plan.rep,
    agent: f.agent ?? plan.agent.name,
    agent_version: f.agent_version,
    model: f.model ?? "CLI default",
    endpoint: experiment.endpoint,
    endpoint_at: experiment.endpoint_at,
    sandbox: plan.sandbox.kind,
    image: plan.sandbox.kind === "docker" ? image : null,
    profile: plan.profile,
    profile_hash: experiment.profileHashes[plan.profile] ?? null,
    judge: experiment.judge,
    interaction: f.interaction ?? "none",
    interaction_settings: f.interaction_settings ?? "",
    timeout_sec: f.timeout_sec ?? "",
    environment: experiment.environment,
  };
}

/** The key of a run's parts: `sha256:` of their canonical JSON. */
export function runKeyOf(parts: RunKeyParts): RunKeyRecord {
  return { key: `sha256:${sha256(canonicalJson(parts))}`, parts };
}

/** How each part is named in a difference, in the order differences are listed. */
const LABELS: readonly [keyof RunKeyParts, string][] = [
  ["version", "run key format"],
  ["scoring_version", "scoring version"],
  ["task", "task"],
  ["task_hash", "task hash"],
  ["treatment", "treatment"],
  ["treatment_hash", "treatment hash"],
  ["rep", "repetition"],
  ["agent", "agent"],
  ["agent_version", "agent version"],
  ["model", "model"],
  ["endpoint", "endpoint"],
  ["endpoint_at", "endpoint"],
  ["sandbox", "sandbox"],
  ["image", "sandbox image"],
  ["profile", "profile"],
  ["profile_hash", "profile file"],
  ["judge", "judge"],
  ["interaction", "interaction"],
  ["interaction_settings", "interaction settings"],
  ["timeout_sec", "timeout_sec"],
  ["environment", "environment"],
];

/** Parts whose values are hashes: a difference says that they differ, not the two hashes. */
const HASHED = new Set<keyof RunKeyParts>([
  "task_hash",
  "treatment_hash",
  "profile_hash",
  "interaction_settings",
  "environment",
]);

function shownValue(v: string | number | null): string {
  if (v === null) return "none";
  const s = String(v);
  return s.startsWith("sha256:") ? s.slice(0, 19) : s;
}

/**
 * What differs between a stored run's key parts (`then`) and a planned run's (`now`), one phrase
 * per part (`task hash differs`, `agent version 2.1.3 → 2.1.4`); empty when the keys are equal.
 * Pure.
 */
export function runKeyDifferences(then: RunKeyParts, now: RunKeyParts): string[] {
  const out = new Set<string>();
  for (const [k, label] of LABELS) {
    const a = then[k];
    const b = now[k];
    if (a === b) continue;
    out.add(HASHED.has(k) ? `${label} differs` : `${label} ${shownValue(a)} → ${shownValue(b)}`);
  }
  return [...out];
}

/** A stored key record under the current scoring version (`rescore` scores again under it). */
export function rescoredKey(r: RunKeyRecord): RunKeyRecord {
  return r.parts.scoring_version === SCORING_VERSION
    ? r
    : runKeyOf({ ...r.parts, scoring_version: SCORING_VERSION });
}
