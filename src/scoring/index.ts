export type {
  DimensionResult,
  JudgeWorkspace,
  RubricInput,
  RubricProfile,
  RubricResult,
} from "./types.js";
export {
  checksForRun,
  formatRubricLine,
  rubricAverage,
  scoreRubric,
  toScoringInput,
  weightedScore,
} from "./score-rubric.js";
export { DANGEROUS_COMMAND_RE, dangerousFamilies } from "./safety.js";
export { GENERIC_SIMULATOR_PROMPT, genericProfile } from "./profiles/generic/profile.js";
export {
  builtinProfiles,
  profileInteractionDefaults,
  profileJudge,
  promptForProfile,
  resolveProfile,
  skillHooks,
} from "./registry.js";
export { makeMemoryWorkspaceView } from "./workspace-view.js";
export { globToRegExp } from "./glob.js";
export { authoringSkillProfile } from "./profiles/authoring-skill/profile.js";
export { proxyScore } from "./profiles/hard-check/profile.js";
export { loadProfileFile, loadSuiteProfiles } from "./load-profile.js";
