/**
 * A/A calibration (docs/statistics.md §13): one treatment's runs split into two arms, read the
 * way the verdict rule reads a comparison. Pure and deterministic (seeded).
 */
import type { RunDigest } from "../../core/digest.js";
import {
  flipRate,
  intervalBand,
  mulberry32,
  quantileSorted,
  type PerTaskOutcomes,
} from "../../stats/index.js";
import { taskOrder } from "../../plan/group.js";
import { metricSuccess } from "../outcomes.js";
import { verdictInterval } from "../comparison/band.js";
import {
  fingerprintDrift,
  storedFingerprint,
  type RunFingerprint,
  type StoredExperiment,
} from "../../plan/fingerprint.js";
import {
  CALIBRATION_SCHEMA,
  MIN_PER_ARM,
  type Calibration,
  type CalibrationSettings,
} from "./types.js";

/** Replicates of the verdict's bootstrap for each split (fewer than a comparison's 2000). */
const SPLIT_REPLICATES = 500;

const agentName = (r: RunDigest | undefined): string | null => r?.agent.name ?? null;

/** What a comparison must share with the calibration: agent, model, endpoint, tasks, Skills. */
function fingerprintOf(
  reports: RunDigest[],
  experiment: StoredExperiment,
): Calibration["fingerprint"] {
  const first = reports[0];
  const scripted =
    "scripted" in experiment ? experiment.scripted : experiment.endpoint === "scripted";
  return {
    agent: agentName(first),
    agent_version: first?.agent.version ?? null,
    model: first?.model ?? null,
    scripted,
    tasks: Object.fromEntries(reports.map((r) => [r.task, r.hashes.task])),
    skills: [
      ...new Set(reports.flatMap((r) => r.skill_sources.map((s) => `${s.name}@${s.hash}`))),
    ].sort(),
    runs: firstOfEachTask(reports).map((r) => storedFingerprint(r, experiment)),
  };
}

function firstOfEachTask(reports: RunDigest[]): RunDigest[] {
  const out = new Map<string, RunDigest>();
  for (const r of reports) if (!out.has(r.task)) out.set(r.task, r);
  return [...out.values()];
}

/** Each task's analysis-set outcomes of one treatment, in repetition order. */
function outcomesByTask(reports: RunDigest[]): { tasks: string[]; runs: RunDigest[][] } {
  const tasks = taskOrder(reports);
  return {
    tasks,
    runs: tasks.map((t) => reports.filter((r) => r.task === t).sort((a, b) => a.rep - b.rep)),
  };
}

const passed = (r: RunDigest): boolean => metricSuccess(r, "overall") === true;

function pairDisagreement(n: number, c: number): number | null {
  return n < 2 ? null : (2 * c * (n - c)) / (n * (n - 1));
}

function splitByRep(
  runs: RunDigest[][],
  perArm: number,
  seed: number,
  margin: number,
): Calibration["split_by_rep"] {
  const a: PerTaskOutcomes = [];
  const b: PerTaskOutcomes = [];
  for (const rs of runs) {
    const x = rs.filter((r) => r.rep <= perArm).map(passed);
    const y = rs.filter((r) => r.rep > perArm).map(passed);
    if (x.length === 0 || y.length === 0) continue;
    a.push(x);
    b.push(y);
  }
  const v = a.length ? verdictInterval(a, b, seed, null, SPLIT_REPLICATES) : null;
  return v ? { ...v, band: intervalBand(v.ci.low, v.ci.high, margin) } : null;
}

function resample(outcomes: PerTaskOutcomes, s: CalibrationSettings): Calibration["resampled"] {
  const eligible = outcomes.filter((o) => o.length >= 2);
  if (eligible.length === 0) return null;
  const rng = mulberry32(s.seed);
  const bands = { improved: 0, non_inferior: 0, regressed: 0, inconclusive: 0 };
  const deltas = new Float64Array(s.splits);
  let m = 0;
  for (let k = 0; k < s.splits; k++) {
    const a: PerTaskOutcomes = [];
    const b: PerTaskOutcomes = [];
    for (const o of eligible) {
      const x = [...o];
      for (let i = x.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        const t = x[i] as boolean;
        x[i] = x[j] as boolean;
        x[j] = t;
      }
      const half = Math.floor(x.length / 2);
      a.push(x.slice(0, half));
      b.push(x.slice(half, 2 * half));
    }
    const v = verdictInterval(a, b, s.seed + k + 1, null, SPLIT_REPLICATES);
    if (!v) continue;
    bands[intervalBand(v.ci.low, v.ci.high, s.margin)]++;
    deltas[m++] = Math.abs(v.delta);
  }
  if (m === 0) return null;
  const sorted = deltas.subarray(0, m).sort();
  return {
    splits: m,
    bands,
    claim_rate: (bands.improved + bands.regressed) / m,
    delta_abs_p95: quantileSorted(sorted, 0.95),
    delta_abs_max: sorted[m - 1] ?? 0,
  };
}

/**
 * The calibration of `settings.treatment` from a results folder's reports: per-task flip rates,
 * the split of the first `per_arm` repetitions against the rest, and `splits` random splits of
 * each task's runs into two halves, each read by the verdict rule's interval (§9).
 */
export function buildCalibration(input: {
  reports: RunDigest[];
  settings: CalibrationSettings;
  experimentId: string | null;
  scripted: boolean;
  /** the experiment's recorded endpoint and judge (absent: only whether it was scripted) */
  experiment?: StoredExperiment | undefined;
}): Calibration {
  const s = input.settings;
  const all = input.reports.filter((r) => r.treatment === s.treatment);
  const kept = all.filter((r) => r.sample_quality.include_in_analysis);
  const { tasks, runs } = outcomesByTask(kept);
  const outcomes = runs.map((rs) => rs.map(passed));
  const rows = tasks.map((task, i) => {
    const o = outcomes[i] ?? [];
    const c = o.filter(Boolean).length;
    return {
      task,
      runs: o.length,
      passes: c,
      pass_rate: o.length ? c / o.length : null,
      pair_disagreement: pairDisagreement(o.length, c),
    };
  });
  const pairs = rows.map((r) => r.pair_disagreement).filter((x): x is number => x !== null);
  return {
    schema: CALIBRATION_SCHEMA,
    experiment_id: input.experimentId,
    settings: s,
    fingerprint: fingerprintOf(all, input.experiment ?? { scripted: input.scripted }),
    runs: { raw: all.length, analysis: kept.length, excluded: all.length - kept.length },
    tasks: rows,
    task_flip_rate: flipRate(outcomes),
    mean_pair_disagreement: pairs.length ? pairs.reduce((x, y) => x + y, 0) / pairs.length : null,
    split_by_rep: splitByRep(runs, s.per_arm, s.seed, s.margin),
    resampled: resample(outcomes, s),
  };
}

/**
 * Why a calibration's noise floor must not be quoted (null: it may): fewer than MIN_PER_ARM
 * analysis-set runs per arm on some task (asked with --count, or lost to exclusion), or no
 * random split at all. A floor from fewer runs is itself noise.
 */
export function unquotableFloor(cal: Calibration): string | null {
  if (cal.settings.per_arm < MIN_PER_ARM)
    return `${cal.settings.per_arm} run(s) per arm (--count ${cal.settings.per_arm}) is below the minimum of ${MIN_PER_ARM}`;
  const short = cal.tasks.filter((t) => t.runs < 2 * MIN_PER_ARM);
  if (short.length > 0)
    return `${short.map((t) => `${t.task} has ${t.runs} analysis-set run(s)`).join(", ")}, fewer than ${2 * MIN_PER_ARM} (${MIN_PER_ARM} per arm)`;
  if (!cal.resampled) return "no task has 2 or more analysis-set runs to split";
  return null;
}

/**
 * Whether a calibration applies to one arm of a comparison: the calibrated treatment is that arm,
 * run by the same agent (and version), model and kind of endpoint, with the same Skills, on at
 * least one common task whose content is unchanged. Returns the differences when it does not.
 */
export function calibrationDifferences(
  cal: Calibration,
  reports: RunDigest[],
  scripted: boolean,
  experiment: StoredExperiment = { scripted },
): string[] {
  const arm = reports.filter((r) => r.treatment === cal.settings.treatment);
  if (arm.length === 0) return [`treatment ${cal.settings.treatment} is not compared here`];
  const now = fingerprintOf(arm, experiment);
  const was = cal.fingerprint;
  const out: string[] = [];
  const show = (x: string | null): string => x ?? "not recorded";
  if (now.agent !== was.agent)
    out.push(`agent: calibrated ${show(was.agent)}, now ${show(now.agent)}`);
  if (now.agent_version !== was.agent_version)
    out.push(
      `agent version: calibrated ${show(was.agent_version)}, now ${show(now.agent_version)}`,
    );
  if (now.model !== was.model)
    out.push(
      `model: calibrated ${show(was.model) === "not recorded" ? "CLI default" : show(was.model)}, now ${now.model ?? "CLI default"}`,
    );
  if (now.scripted !== was.scripted)
    out.push(
      `endpoint: calibrated ${was.scripted ? "scripted" : "real"}, now ${now.scripted ? "scripted" : "real"}`,
    );
  if (now.skills.join(",") !== was.skills.join(","))
    out.push(
      `skills of ${cal.settings.treatment}: calibrated ${was.skills.join(", ") || "none"}, now ${now.skills.join(", ") || "none"}`,
    );
  const common = Object.keys(now.tasks).filter((t) => t in was.tasks);
  if (common.length === 0) out.push("no task in common");
  for (const t of common)
    if (now.tasks[t] !== was.tasks[t])
      out.push(`task ${t}: its content changed since the calibration`);
  // The rest of the fingerprint (the endpoint's script or host, judge, sandbox, profile,
  // interaction), task by task, as compare and --baseline-from read it; what the lines above
  // name already is left out.
  const nowRuns = new Map((now.runs ?? []).map((f) => [f.task, f]));
  const rest = (f: RunFingerprint, sameKind: boolean): RunFingerprint => ({
    ...f,
    agent: null,
    agent_version: null,
    model: null,
    skills: null,
    task_hash: null,
    endpoint: sameKind ? f.endpoint : null,
    endpoint_at: sameKind ? f.endpoint_at : null,
  });
  const pairs = (was.runs ?? []).flatMap((then) => {
    const n = nowRuns.get(then.task);
    const same = n?.endpoint === then.endpoint;
    return n ? [{ then: rest(then, same), now: rest(n, same) }] : [];
  });
  for (const line of fingerprintDrift(pairs, { then: "calibrated", now: "now" }))
    if (!out.includes(line)) out.push(line);
  return out;
}
