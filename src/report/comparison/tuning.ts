/**
 * The comparison's tuning constants (recorded in comparison.json `settings`; docs/statistics.md):
 * apart from the types (types.ts) so the modules that compute with them and the types they fill
 * import both without importing each other.
 */
/** A rubric or judge dimension regresses when its interval (rubric-tests.ts) lies below −REGRESSION_TOLERANCE. */
export const REGRESSION_TOLERANCE = 0.05;
/** A rubric dimension score at or above this counts as a "pass" in the pass% of a cell. */
export const DIMENSION_PASS_SCORE = 0.5;
/** excluded / raw above this makes the verdict "inconclusive due to data quality". */
export const MAX_EXCLUDED_SHARE = 0.5;
export const BOOTSTRAP_REPLICATES = 2000;
export const BOOTSTRAP_LEVEL = 0.95;
export const ALPHA = 0.05;
export const POWER = 0.8;
