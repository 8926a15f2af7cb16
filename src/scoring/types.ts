import type { Evidence } from '../core/evidence.js';

/** Everything a rubric may look at. Pure data plus one lookup the runner supplies. */
export interface RubricInput {
  evidence: Evidence;
  /** Real validator checks only (no [RUBRIC] lines). */
  baseline: { passed: string[]; failed: string[] };
  task: {
    required_skills: string[];
    expected_artifacts: { paths: string[] }[];
    require_skill_invocation: boolean;
  };
  interaction: { mode: 'none' | 'auto_user'; max_turns: number; actual_turns: number | null };
  /** Does this workspace-relative path exist / does this glob (`*?[`) match at least one file? */
  fileExists: (relPathOrGlob: string) => boolean;
}

/** One binary check behind a dimension's score. */
export interface RubricCheck {
  name: string;
  passed: boolean;
}

/** What a dimension's `evaluate` returns. */
export interface DimensionEvaluation {
  checks: RubricCheck[];
  reason: string;
  /** When set, the dimension does not apply (score null); this is the reason shown. */
  na?: string;
  /** Score in [0, 1] when it is not passed/total of `checks`. */
  score?: number;
}

export interface DimensionDef {
  name: string;
  weight: number;
  /** One line for documentation and reports. */
  description?: string;
  evaluate: (input: RubricInput) => DimensionEvaluation;
}

export interface DimensionResult {
  name: string;
  weight: number;
  /** In [0, 1]; null = not applicable. */
  score: number | null;
  reason: string;
  checks: RubricCheck[];
}

export interface RubricProfile {
  name: string;
  description?: string;
  dimensions: DimensionDef[];
  /** Score and reason of a dimension that returns no checks and no explicit score or N/A. */
  emptyChecks: { score: number; reason: string };
  /** Failures that make the run fail (they are not rubric lines). */
  hardFailures?: (input: RubricInput, dims: DimensionResult[]) => string[];
}

export interface RubricResult {
  profile: string;
  dimensions: DimensionResult[];
  /** Σ(score·weight)/Σ(weight) over applicable dimensions; 0 when none apply. */
  weighted_score: number;
  /** Plain mean of applicable dimension scores; null when none apply. */
  rubric_avg: number | null;
  /** `[RUBRIC] <dim>: <score> - <reason>` per dimension, then `[RUBRIC] weighted_score: <x>`. */
  rubric_lines: string[];
  hard_failures: string[];
}
