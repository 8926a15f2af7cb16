export type { ValidationReport } from "./types.js";
export { normalizeValidatorResult } from "./normalize-result.js";
export { pickValidatorJson } from "./pick-json.js";
export { artifactFailure, checkArtifacts } from "./check-artifacts.js";
export { runValidators } from "./run-validators.js";
export type { RunValidatorsOptions } from "./run-validators.js";
export { reinterpretValidation, StoredValidationSchema } from "./reinterpret.js";
