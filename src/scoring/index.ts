export type { DimensionResult, RubricInput, RubricProfile, RubricResult } from "./types.js";
export {
  formatRubricLine,
  rubricAverage,
  scoreRubric,
  toScoringInput,
  weightedScore,
} from "./score-rubric.js";
export { DANGEROUS_COMMAND_RE, dangerousFamilies } from "./safety.js";
export { genericProfile } from "./generic-profile.js";
export { builtinProfiles, resolveProfile } from "./profiles.js";
export { checksForRun, isWorkflowCheck, splitChecks } from "./checks-split.js";
export { makeMemoryWorkspaceView } from "./workspace-view.js";
export { globToRegExp } from "./glob.js";
export { cometWorkflowProfile } from "./comet/profile.js";
export type { WorkflowKind } from "./comet/context.js";
export { decisionPointCompliance } from "./decision-points.js";
export { authoringSkillProfile } from "./authoring-profile.js";
export { proxyScore } from "./hard-check-profile.js";
export { loadProfileFile, loadSuiteProfiles } from "./load-profile.js";
