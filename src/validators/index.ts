export type {
  ArtifactCheck,
  CheckResults,
  ValidationReport,
  ValidatorOutcome,
  ValidatorStatus,
} from "./types.js";
export { normalizeValidatorResult } from "./normalize-result.js";
export { pickValidatorJson } from "./pick-json.js";
export { artifactFailure, checkArtifacts, isGlobPattern } from "./check-artifacts.js";
export { VALIDATOR_EXTENSIONS, validatorCommand } from "./interpreter.js";
export {
  CONTEXT_FILE,
  RESULTS_FILE,
  VALIDATION_DIR,
  contextJson,
  runValidators,
} from "./run-validators.js";
export type { RunValidatorsOptions } from "./run-validators.js";
export { reinterpretValidation, StoredValidationSchema } from "./reinterpret.js";
