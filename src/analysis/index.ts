export {
  attributeFailures,
  ATTRIBUTION_REASONS,
  type Attribution,
  type AttributionBucket,
  type AttributionInput,
} from "./attribution.js";
export {
  classifySample,
  unresponsiveEvidence,
  RUN_FAILURE_STATUSES,
  type TypedEvidence,
  type SampleQuality,
  type SampleInput,
  type SampleStatus,
  type SampleConfidence,
  type RunOutcome,
  type ApiErrorInfo,
} from "./sample-quality.js";
export {
  HARD_NOISE_RULES,
  OUTER_FAILURE_RE,
  VALIDATOR_ASSUMPTION_RE,
  type HardNoiseCode,
} from "./noise-patterns.js";
