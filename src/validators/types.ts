/** Check messages of one validator (or of a whole validation), split by outcome. */
export interface CheckResults {
  passed: string[];
  failed: string[];
}

/**
 * How one validator script ended:
 * - `ok`: it produced a JSON result (its exit code is NOT used for scoring);
 * - `crashed`: non-zero exit (or killed by a signal) and no JSON;
 * - `timeout`: killed by skillbench after `timeoutSec` (partial results are ignored);
 * - `no_json`: exit 0 and no JSON;
 * - `spawn_error`: the script could not start (missing file or interpreter, unsupported extension,
 *   hostile path).
 */
export type ValidatorStatus = "ok" | "crashed" | "timeout" | "no_json" | "spawn_error";

export interface ValidatorOutcome {
  /** The script path as given (relative to `<workspace>/validation`). */
  script: string;
  status: ValidatorStatus;
  exit_code: number | null;
  duration_ms: number;
  /** Captured stdout (head and tail when over 1 MB), redacted. */
  stdout: string;
  /** Captured stderr (head and tail when over 1 MB), redacted. */
  stderr: string;
  /** The JSON the validator returned (results file or stdout), strings redacted; null when none. */
  raw_result: unknown;
  passed: string[];
  failed: string[];
}

export interface ArtifactCheck {
  /** The target as written in the task. */
  path: string;
  found: boolean;
  /** Workspace-relative POSIX paths that exist (the path itself, or every glob match), sorted. */
  matches: string[];
  /** Why a target was refused (absolute path, escapes the workspace, symlink leaving it). */
  problem?: string;
}

export interface ValidationReport {
  artifacts: ArtifactCheck[];
  scripts: ValidatorOutcome[];
  /** All passed checks, in script order. */
  passed: string[];
  /** All failed checks: missing artifacts, then each script's failures in order. */
  failed: string[];
}
