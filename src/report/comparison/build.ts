import { judgeOverlay } from "./judge-overlay.js";
import { judgeSection } from "./judge-section.js";
import type { PairwiseFile } from "../../core/pairwise.js";
import { isolationOf, SCRIPTED_MODEL_LABEL } from "../endpoint.js";
import type { RunDigest } from "../../core/digest.js";
import type { Metadata } from "../../store/metadata.js";
import { groupBy, sortRuns, taskOrder, treatmentOrder } from "../../plan/group.js";
import { analysisSet, perTaskOutcomes } from "../outcomes.js";
import { attributionSection } from "./attribution.js";
import { consistencyWarnings } from "./consistency.js";
import { pairedConclusion, pairedSection } from "./paired.js";
import { passKSection } from "./passk-bootstrap.js";
import { dataQualityRow, listedRun, runCountRow, sensitivityRow } from "./quality.js";
import { CONTROL, resolveRoles } from "../../plan/roles.js";
import { rubricSection } from "./rubric.js";
import { sourceEvidenceRow, SourceEvidenceRows } from "./source-evidence.js";
import { taskOutcomeRows } from "./task-outcomes.js";
import {
  ALPHA,
  BOOTSTRAP_LEVEL,
  BOOTSTRAP_REPLICATES,
  DIMENSION_PASS_SCORE,
  MAX_EXCLUDED_SHARE,
  POWER,
  REGRESSION_TOLERANCE,
} from "./tuning.js";
import { COMPARISON_SCHEMA, type Comparison, type Roles } from "./types.js";
import { decideVerdict } from "./verdict.js";
import { bandHeadline, decideBand, DEFAULT_MARGIN, liftOf } from "./band.js";
import { armProblemsOf } from "./arm-integrity.js";
import { assertionHygiene } from "../../analysis/hygiene.js";
import { runtimeRow, spendRow } from "./usage.js";
import { costOfAnswer } from "./cost.js";
import { agentRows, byAgent, mixedArms, mixedVerdict } from "./agents.js";
import { byModel, mixedModelArms, mixedModelVerdict, modelRows } from "./models.js";
import { calibrationDifferences, unquotableFloor } from "../calibration/build.js";
import {
  experimentFingerprintOf,
  isScripted,
  type StoredExperiment,
} from "../../plan/fingerprint.js";
import type { FoundCalibration } from "../calibration/write.js";
import type { NoiseFloor } from "../calibration/types.js";
import type { Sequential } from "../sequential/types.js";
import { InputError } from "../../core/errors.js";
import { reusedField } from "../reuse.js";
import { healthVerdictLine } from "../../core/health.js";
import { skillUseRows } from "./skill-use.js";

export interface ComparisonInput {
  reports: RunDigest[];
  metadata: Metadata | null;
  candidate?: string | undefined;
  baseline?: string | undefined;
  control?: string | undefined;
  ks?: number[] | undefined;
  /** bootstrap seed (default 1) */
  seed?: number | undefined;
  /** non-inferiority margin on Δ pass rate (default 0.05) */
  margin?: number | undefined;
  /** A/A calibrations that may apply (the first that matches an arm is shown; an explicit one must match) */
  calibrations?: FoundCalibration[] | undefined;
  /** `run --until-decided`: its looks; the band is decided at the last look's level */
  sequential?: Sequential | null | undefined;
  /** `--judge pairwise`: the stored pairwise verdicts (pairwise.json), when there are some */
  pairwise?: PairwiseFile | null | undefined;
  /**
   * false: `source_evidence` left empty (the writer makes the rows a slice at a time as it
   * writes them: SourceEvidenceRows); default true
   */
  sourceEvidence?: boolean | undefined;
}

/** The first calibration that applies to the baseline, else to the candidate (docs/statistics.md §13). */
function noiseFloor(
  found: FoundCalibration[],
  reports: RunDigest[],
  roles: { candidate: string; baseline: string },
  scripted: boolean,
  experiment: StoredExperiment,
  delta: number | null,
): NoiseFloor | null {
  for (const arm of ["baseline", "candidate"] as const)
    for (const f of found) {
      const cal = f.calibration;
      if (cal.settings.treatment !== roles[arm] || !cal.resampled) continue;
      // A floor from fewer than MIN_PER_ARM runs per arm is never quoted (docs/statistics.md §13).
      if (unquotableFloor(cal) !== null) continue;
      if (calibrationDifferences(cal, reports, scripted, experiment).length > 0) continue;
      return {
        dir: f.dir,
        experiment_id: cal.experiment_id,
        treatment: cal.settings.treatment,
        arm,
        per_arm: cal.settings.per_arm,
        splits: cal.resampled.splits,
        claim_rate: cal.resampled.claim_rate,
        delta_abs_p95: cal.resampled.delta_abs_p95,
        task_flip_rate: cal.task_flip_rate,
        delta_beyond_floor: delta === null ? null : Math.abs(delta) > cal.resampled.delta_abs_p95,
      };
    }
  const explicit = found.find((f) => f.explicit);
  if (explicit) {
    const cal = explicit.calibration;
    const why =
      cal.settings.treatment !== roles.baseline && cal.settings.treatment !== roles.candidate
        ? [
            `it calibrates ${cal.settings.treatment}, which is neither the candidate (${roles.candidate}) nor the baseline (${roles.baseline})`,
          ]
        : !cal.resampled
          ? ["it has no random splits (no task has 2 or more analysis-set runs)"]
          : unquotableFloor(cal) !== null
            ? [`its noise floor is not quoted: ${unquotableFloor(cal) ?? ""}`]
            : calibrationDifferences(cal, reports, scripted, experiment);
    throw new InputError(
      `--calibration ${explicit.dir}: this calibration does not apply to the comparison:\n  - ${why.join("\n  - ")}`,
      { file: explicit.dir, field: "--calibration" },
    );
  }
  return null;
}

/**
 * Every number of the comparison report, as plain JSON data. Pure and deterministic
 * (the bootstrap is seeded). Treatments follow metadata.treatments (CONTROL first without
 * metadata), then any others seen. Throws InputError when fewer than two treatments have
 * reports or a named treatment has none.
 */
export function buildComparison(input: ComparisonInput): Comparison {
  const health = input.metadata?.health;
  if (health === undefined) return buildAll(input);
  // The preflight's unsound tasks are left out of the comparison (docs/statistics.md §15).
  const out = new Set(health.left_out.map((l) => l.task));
  const line = healthVerdictLine(health);
  const kept = input.reports.filter((r) => !out.has(r.task));
  const comparable = out.size === 0 || treatmentCount(kept) >= 2;
  const first = health.inconclusive[0];
  if (comparable && first === undefined)
    return { ...buildAll({ ...input, reports: kept }), health: { ...health, line } };
  // Nothing comparable is left, or a problem makes the band decide nothing (e.g. a Skill leaking
  // into the baseline): the band is inconclusive, with the reason.
  const all = buildAll(comparable ? { ...input, reports: kept } : input);
  const reason = !comparable
    ? "every compared task was left out by the preflight's task health"
    : `task health: ${first?.task ?? ""}: ${first?.reason ?? ""}`;
  return {
    ...all,
    verdict: {
      ...all.verdict,
      band: "inconclusive",
      reason,
      headline: `⚠️ **Inconclusive**: ${reason}.`,
    },
    health: { ...health, line },
  };
}

function treatmentCount(reports: RunDigest[]): number {
  return new Set(reports.map((r) => r.treatment)).size;
}

/** The builder of one part of the runs (an agent's, a model's) with the experiment's roles. */
function rebuildWith(input: ComparisonInput): (reports: RunDigest[], roles: Roles) => Comparison {
  return (reports, roles) =>
    buildPooled({
      ...input,
      reports,
      candidate: roles.candidate,
      baseline: roles.baseline,
      control: roles.control ?? undefined,
    });
}

/** Whether the candidate's or the baseline's arm is among the mixed ones. */
function mixesAnArm(mixed: readonly { treatment: string }[], roles: Roles): boolean {
  return mixed.some((m) => m.treatment === roles.candidate || m.treatment === roles.baseline);
}

/** The comparison of the given runs, whole (and split by agent). */
function buildAll(input: ComparisonInput): Comparison {
  const pooled = buildPooled(input);
  const split = byAgent(input.reports, pooled.roles, rebuildWith(input));
  const mixed = mixedArms(input.reports, pooled.treatments);
  const armsMixed = mixesAnArm(mixed, pooled.roles);
  const agentVerdict = armsMixed ? mixedVerdict(pooled.verdict, mixed, split) : pooled.verdict;
  // Then by model (models.ts): only when the runs used more than one (else nothing is added).
  const models = splitByModel(input, pooled, agentVerdict);
  const verdict = models?.verdict ?? agentVerdict;
  const undecided = armsMixed || models?.verdict !== undefined;
  return {
    ...pooled,
    verdict,
    paired: undecided
      ? {
          ...pooled.paired,
          distinguishable: false,
          conclusion: pairedConclusion(
            { ...pooled.paired, distinguishable: false },
            verdict.noise,
            verdict.runs_needed.text,
          ),
        }
      : pooled.paired,
    mixed_arms: mixed,
    by_agent: split,
    ...(models ? models.fields : {}),
  };
}

/**
 * The comparison by model when the runs used more than one: the rows, the arms that mix models,
 * each model's comparison, and the pooled verdict made inconclusive when the candidate's or the
 * baseline's arm mixes models (an arm that mixes agents already is: that verdict stays).
 */
function splitByModel(
  input: ComparisonInput,
  pooled: Comparison,
  agentVerdict: Comparison["verdict"],
): {
  fields: Pick<Comparison, "models" | "mixed_model_arms" | "by_model">;
  verdict?: Comparison["verdict"];
} | null {
  const rows = modelRows(input.reports);
  if (rows.length < 2) return null;
  const split = byModel(input.reports, rows, pooled.roles, rebuildWith(input));
  const mixed = mixedModelArms(input.reports, pooled.treatments);
  const fields = { models: rows, mixed_model_arms: mixed, by_model: split };
  const armsMixed = mixesAnArm(mixed, pooled.roles);
  if (!armsMixed || agentVerdict.kind === "mixed_agents") return { fields };
  return {
    fields,
    verdict: mixedModelVerdict(agentVerdict, mixed, split, pooled.roles.candidate),
  };
}

/** The runs in the order of the comparison's per-run rows: task (first seen), then treatment in the experiment's order, then rep. */
function runOrder(
  input: Pick<ComparisonInput, "reports" | "metadata">,
  treatments = treatmentOrder(input.reports, input.metadata?.treatments ?? [CONTROL]),
): RunDigest[] {
  return sortRuns(input.reports, taskOrder(input.reports), treatments);
}

/**
 * The `source_evidence` rows buildComparison gives for `input`, in its order, made as they are
 * read (for a comparison built with `sourceEvidence: false`).
 */
export function sourceEvidenceOf(
  input: Pick<ComparisonInput, "reports" | "metadata">,
): SourceEvidenceRows {
  return new SourceEvidenceRows(runOrder(input));
}

/** The comparison of all the given runs together (by_agent left empty). */
function buildPooled(input: ComparisonInput): Comparison {
  const seed = input.seed ?? 1;
  const treatments = treatmentOrder(input.reports, input.metadata?.treatments ?? [CONTROL]);
  const roles = resolveRoles(treatments, input);
  const tasks = taskOrder(input.reports);
  const reports = runOrder(input, treatments);
  const analysis = analysisSet(reports);
  // Each treatment's runs once: the per-treatment rows below read only theirs (each row was a
  // filter of every run); a row given its treatment's runs is the row given every run.
  const byTreatment = groupBy(reports, (r) => r.treatment);
  const runsOf = (t: string): RunDigest[] => byTreatment.get(t) ?? [];
  // The spend and runtime rows read each analysis-set run's events_summary once for both (a
  // packed digest builds the object at each read).
  const analysisOf = groupBy(analysis, (r) => r.treatment);
  const usage = treatments.map((t) => {
    const es = (analysisOf.get(t) ?? []).map((r) => r.events_summary);
    return { spend: spendRow(es, t), runtime: runtimeRow(es, t) };
  });
  const data_quality = treatments.map((t) => dataQualityRow(runsOf(t), t));
  const rubric = rubricSection(analysis, treatments, roles);
  const quality = (t: string) =>
    data_quality.find((q) => q.treatment === t) ?? dataQualityRow(reports, t);
  const margin = input.margin ?? DEFAULT_MARGIN;
  // Each treatment's per-task outcomes once: the flip rates and the paired arms read them.
  const overall = new Map(treatments.map((t) => [t, perTaskOutcomes(runsOf(t), t, "overall")]));
  const overallOf = (t: string) => overall.get(t) ?? perTaskOutcomes(reports, t, "overall");
  const flips = Object.fromEntries(treatments.map((t) => [t, overallOf(t).outcomes]));
  const seq = input.sequential ?? null;
  const lastLook = seq?.looks[seq.looks.length - 1] ?? null;
  const look = lastLook ? { alpha_look: lastLook.alpha_look } : null;
  // The decision's interval is computed here once (paired.delta_pass_rate) and every other
  // line of the verdict is derived from it (band.ts).
  const pairedBody = pairedSection(
    roles,
    overallOf(roles.candidate),
    overallOf(roles.baseline),
    flips,
    seed,
    look,
  );
  const rubricVerdict = decideVerdict(
    roles,
    rubric,
    quality(roles.candidate),
    quality(roles.baseline),
  );
  const armProblems = armProblemsOf(reports, roles);
  const hygiene = assertionHygiene(reports, roles);
  const band = decideBand({
    armLeaks: armProblems.filter((p) => p.kind === "arm_leak"),
    reports,
    roles,
    paired: pairedBody,
    candidateQuality: quality(roles.candidate),
    baselineQuality: quality(roles.baseline),
    regressions: rubricVerdict.regressions,
    unresolved: rubricVerdict.unresolved,
    margin,
    seed,
    settings: { replicates: BOOTSTRAP_REPLICATES, level: BOOTSTRAP_LEVEL },
    sequential: look,
  });
  const distinguishable =
    band.rule === "interval" && (band.band === "improved" || band.band === "regressed");
  const paired = {
    ...pairedBody,
    distinguishable,
    conclusion: pairedConclusion(
      { ...pairedBody, distinguishable },
      band.noise,
      band.runs_needed.text,
    ),
  };
  const scripted = isScripted(reports, input.metadata);
  return {
    schema: COMPARISON_SCHEMA,
    experiment_id: input.metadata?.experiment_id ?? reports[0]?.experiment_id ?? null,
    treatments,
    roles,
    settings: {
      seed,
      replicates: BOOTSTRAP_REPLICATES,
      level: BOOTSTRAP_LEVEL,
      alpha: ALPHA,
      power: POWER,
      regression_tolerance: REGRESSION_TOLERANCE,
      dimension_pass_score: DIMENSION_PASS_SCORE,
      max_excluded_share: MAX_EXCLUDED_SHARE,
      margin,
    },
    warnings: consistencyWarnings(reports, tasks, roles),
    data_quality,
    run_counts: treatments.map((t) => runCountRow(runsOf(t), t)),
    pass_k: passKSection(reports, treatments, input.ks, seed),
    task_outcomes: taskOutcomeRows(analysis, tasks, treatments),
    spend: usage.map((u) => u.spend),
    cost_of_answer: costOfAnswer(reports, roles),
    runtime: usage.map((u) => u.runtime),
    source_evidence: input.sourceEvidence === false ? [] : reports.map(sourceEvidenceRow),
    rubric,
    excluded_runs: reports.filter((r) => !r.sample_quality.include_in_analysis).map(listedRun),
    flagged_runs: reports
      .filter((r) => r.sample_quality.status === "flagged" && r.sample_quality.include_in_analysis)
      .map(listedRun),
    sensitivity: treatments.map((t) => sensitivityRow(runsOf(t), t)),
    attribution: attributionSection(analysis, treatments),
    verdict: { ...rubricVerdict, ...band, headline: bandHeadline(band) },
    paired,
    lift: liftOf(reports, roles, seed, band, look),
    frozen_baseline: input.metadata?.baseline_from
      ? {
          dir: input.metadata.baseline_from.dir,
          treatment: input.metadata.baseline_from.treatment,
          runs: input.metadata.baseline_from.runs.length,
          drift: input.metadata.baseline_from.drift,
        }
      : null,
    ...reusedField(reports),
    endpoint: scripted
      ? { scripted: true, label: SCRIPTED_MODEL_LABEL }
      : { scripted: false, label: null },
    judge_overlay: judgeOverlay(analysis, treatments),
    ...withJudge(reports, roles, treatments, input.pairwise),
    noise_floor: noiseFloor(
      input.calibrations ?? [],
      reports,
      roles,
      scripted,
      experimentFingerprintOf(input.metadata, reports),
      band.delta,
    ),
    sequential:
      seq && lastLook
        ? {
            look: seq.looks.length,
            alpha_look: lastLook.alpha_look,
            alpha: seq.alpha,
            spending: seq.spending,
            count: lastLook.count,
            max_count: seq.max_count,
            status: seq.status,
            plan: seq.plan?.text ?? null,
          }
        : null,
    isolation: isolationOf(reports),
    agents: agentRows(reports),
    mixed_arms: [],
    by_agent: [],
    ...(armProblems.length + hygiene.length > 0
      ? { arm_integrity: [...armProblems, ...hygiene] }
      : {}),
    ...skillUseField(reports),
  };
}

/** `{skill_use}` when some run recorded a Skill usage, else nothing (comparison.json as before). */
function skillUseField(reports: RunDigest[]): Pick<Comparison, "skill_use"> {
  const rows = skillUseRows(reports);
  return rows.length > 0 ? { skill_use: rows } : {};
}

/** `{judge}` when some run was judged, else nothing (the field stays out of comparison.json). */
function withJudge(
  reports: RunDigest[],
  roles: Comparison["roles"],
  treatments: string[],
  pairwise: PairwiseFile | null | undefined,
): Pick<Comparison, "judge"> {
  const judge = judgeSection(reports, roles, treatments, pairwise);
  return judge === undefined ? {} : { judge };
}
