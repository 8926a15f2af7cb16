export type {
  DimensionDef,
  DimensionEvaluation,
  DimensionResult,
  RubricCheck,
  RubricInput,
  RubricProfile,
  RubricResult,
} from './types.js';
export {
  formatRubricLine,
  formatScore,
  formatWeightedLine,
  rubricAverage,
  scoreRubric,
  weightedScore,
} from './score-rubric.js';
export {
  DEFAULT_EFFICIENCY_LIMITS,
  artifactPresenceDimension,
  completionDimension,
  efficiencyDimension,
  instructionFollowingDimension,
  interactionComplianceDimension,
  safetyBoundaryDimension,
  skillInvocationDimension,
} from './dimensions.js';
export type { DimensionOptions, EfficiencyLimits } from './dimensions.js';
export { DANGEROUS_COMMAND_FAMILIES, DANGEROUS_COMMAND_RE, dangerousFamilies } from './safety.js';
export { genericProfile, requiredSkillFailures } from './generic-profile.js';
export { builtinProfiles, resolveProfile } from './profiles.js';
