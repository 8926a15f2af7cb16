export type {
  CheckSplit,
  DimensionDef,
  DimensionEvaluation,
  DimensionResult,
  InteractionMode,
  RubricCheck,
  RubricInput,
  RubricInteraction,
  RubricProfile,
  RubricResult,
  RubricTask,
  ScoringInput,
  WorkspaceView,
} from "./types.js";
export {
  formatRubricLine,
  formatScore,
  formatWeightedLine,
  rubricAverage,
  scoreRubric,
  toScoringInput,
  weightedScore,
} from "./score-rubric.js";
export {
  DEFAULT_EFFICIENCY_LIMITS,
  artifactPresenceDimension,
  completionDimension,
  efficiencyDimension,
  instructionFollowingDimension,
  interactionComplianceDimension,
  safetyBoundaryDimension,
  skillInvocationDimension,
} from "./dimensions.js";
export type { DimensionOptions, EfficiencyLimits } from "./dimensions.js";
export { DANGEROUS_COMMAND_FAMILIES, DANGEROUS_COMMAND_RE, dangerousFamilies } from "./safety.js";
export { genericProfile, requiredSkillFailures } from "./generic-profile.js";
export { availableProfiles, builtinProfiles, resolveProfile } from "./profiles.js";
export {
  CONTROL_TREATMENT,
  WORKFLOW_CHECK_PREFIXES,
  checksForRun,
  isWorkflowCheck,
  splitChecks,
} from "./checks-split.js";
export { MAX_READ_BYTES, makeMemoryWorkspaceView } from "./workspace-view.js";
export type { MemoryViewOptions } from "./workspace-view.js";
export { globToRegExp, isGlob, matchGlob } from "./glob.js";
export { cometWorkflowProfile, cometHardFailures, CONTROL_REASON } from "./comet/profile.js";
export { cometContext, WORKFLOW_PHASES } from "./comet/context.js";
export type { CometContext, WorkflowKind, SdkState } from "./comet/context.js";
export {
  ASK_TOOL_NAMES,
  countAsks,
  countDecisionMutations,
  decisionPointCompliance,
} from "./decision-points.js";
export type { AskCount } from "./decision-points.js";
export {
  authoringSkillProfile,
  missingLanes,
  REQUIRED_LANE_SETS,
  slug,
} from "./authoring-profile.js";
export { HardCheckProfileSchema, hardCheckProfile, proxyScore } from "./hard-check-profile.js";
export {
  DECLARATIVE_FORMAT,
  DeclarativeProfileSchema,
  declarativeProfile,
} from "./declarative-profile.js";
export { loadProfileFile, loadSuiteProfiles, profileFromToml } from "./load-profile.js";
