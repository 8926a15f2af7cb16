import type {
  CheckLists,
  DimensionDef,
  DimensionResult,
  RubricInput,
  RubricProfile,
  RubricResult,
  ScoringInput,
} from "./types.js";
import { existsOnlyView } from "./workspace-view.js";

/** Fill in every optional part of a `RubricInput` (see `ScoringInput`). Pure. */
export function toScoringInput(input: RubricInput): ScoringInput {
  const fileExists =
    input.fileExists ?? input.workspace?.exists.bind(input.workspace) ?? (() => false);
  const workspace = input.workspace ?? existsOnlyView(fileExists);
  const i = input.interaction;
  return {
    ...input,
    treatment: input.treatment ?? "",
    tool_vocabulary: input.tool_vocabulary ?? { tools: {} },
    workspace,
    fileExists,
    task: {
      ...input.task,
      skill_package_path: input.task.skill_package_path ?? null,
      route_conformance_expected_node_order:
        input.task.route_conformance_expected_node_order ?? null,
      generated_node_skills: input.task.generated_node_skills ?? null,
      skill_steps: input.task.skill_steps ?? null,
    },
    interaction: {
      ...i,
      decision_points: i.decision_points ?? 0,
      deterministic_replies: i.deterministic_replies ?? 0,
      simulated_replies: i.simulated_replies ?? 0,
    },
    reply_counts_known: i.deterministic_replies !== undefined || i.simulated_replies !== undefined,
  };
}

/**
 * The validator checks that count for the run (pass/fail and report): the profile's
 * `checksForRun` when it has one, else all of them (copied). The runner calls this on the
 * validator result before building the report and the rubric input. Pure.
 */
export function checksForRun(
  profile: Pick<RubricProfile, "checksForRun">,
  treatment: string,
  baseline: CheckLists,
): { passed: string[]; failed: string[]; dropped: string[] } {
  if (profile.checksForRun) return profile.checksForRun(treatment, baseline);
  return { passed: [...baseline.passed], failed: [...baseline.failed], dropped: [] };
}

/** Two decimals, as every rubric line prints scores. */
function formatScore(x: number): string {
  return x.toFixed(2);
}

/** `[RUBRIC] <dim>: <score> - <reason>`; N/A as `[RUBRIC] <dim>: N/A - <reason>`. */
export function formatRubricLine(d: DimensionResult): string {
  return `[RUBRIC] ${d.name}: ${d.score === null ? "N/A" : formatScore(d.score)} - ${d.reason}`;
}

function formatWeightedLine(weighted: number): string {
  return `[RUBRIC] weighted_score: ${formatScore(weighted)}`;
}

function evaluateDimension(
  profile: RubricProfile,
  def: DimensionDef,
  input: ScoringInput,
): DimensionResult | null {
  if (!Number.isFinite(def.weight) || def.weight < 0) {
    throw new Error(
      `rubric ${profile.name}: dimension ${def.name} has an invalid weight ${def.weight}`,
    );
  }
  const ev = def.evaluate(input);
  if (ev.absent) return null;
  const checks = ev.checks.map((c) => ({ name: c.name, passed: c.passed }));
  if (ev.na !== undefined)
    return { name: def.name, weight: def.weight, score: null, reason: ev.na, checks };
  let score: number;
  let reason = ev.reason;
  if (ev.score !== undefined) score = ev.score;
  else if (checks.length > 0) score = checks.filter((c) => c.passed).length / checks.length;
  else ({ score, reason } = profile.emptyChecks);
  if (!Number.isFinite(score) || score < 0 || score > 1) {
    throw new Error(
      `rubric ${profile.name}: dimension ${def.name} produced score ${score} outside [0, 1]`,
    );
  }
  return { name: def.name, weight: def.weight, score, reason, checks };
}

/** Σ(score·weight)/Σ(weight) over applicable dimensions; 0 when none apply (or all weights are 0). */
export function weightedScore(dims: readonly DimensionResult[]): number {
  let num = 0;
  let den = 0;
  for (const d of dims) {
    if (d.score === null) continue;
    num += d.score * d.weight;
    den += d.weight;
  }
  return den > 0 ? num / den : 0;
}

/** Plain mean of applicable dimension scores; null when none apply. */
export function rubricAverage(dims: readonly DimensionResult[]): number | null {
  const scores = dims.flatMap((d) => (d.score === null ? [] : [d.score]));
  return scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
}

/**
 * Score a run against a rubric profile. Pure (the only outside lookups are `input.fileExists`
 * and `input.workspace`).
 * A dimension's score is its explicit `score`, else passed/total of its checks, else the
 * profile's `emptyChecks`; `na` makes it N/A; `absent` leaves it out. Throws a plain Error (a harness bug, not user
 * input) for duplicate dimension names, bad weights or a score outside [0, 1].
 */
export function scoreRubric(profile: RubricProfile, input: RubricInput): RubricResult {
  const seen = new Set<string>();
  for (const d of profile.dimensions) {
    if (seen.has(d.name)) throw new Error(`rubric ${profile.name}: duplicate dimension ${d.name}`);
    seen.add(d.name);
  }
  const full = toScoringInput(input);
  const dimensions = profile.dimensions.flatMap((def) => {
    const d = evaluateDimension(profile, def, full);
    return d === null ? [] : [d];
  });
  const weighted = weightedScore(dimensions);
  return {
    profile: profile.name,
    dimensions,
    weighted_score: weighted,
    rubric_avg: rubricAverage(dimensions),
    rubric_lines: [...dimensions.map(formatRubricLine), formatWeightedLine(weighted)],
    hard_failures: profile.hardFailures ? profile.hardFailures(full, dimensions) : [],
  };
}
