export { loadSuite, SIMULATOR_INSTRUCTION_FILE } from "./load-suite.js";
export {
  renderInstruction,
  renderTemplate,
  templatePlaceholders,
  type RenderResult,
} from "./template.js";
export { selectNames } from "./select.js";
export { formatProblem } from "./problems.js";
export { inferProfile, COMET_WORKFLOW_PROFILE, GENERIC_PROFILE } from "./task-toml.js";
export { isIgnoredSkillPath, hashSkillDir } from "./skills.js";
export { TEST_SCRIPT_EXTENSIONS } from "./task.js";
export { unsafePathReason } from "./artifacts.js";
export {
  CONTROL_DESCRIPTION,
  CONTROL_TREATMENT,
  DEFAULT_CONTINUE_PROMPT,
  ExpectedArtifactSchema,
  NAME_PATTERN,
  SkillSpecSchema,
  SuiteConfigSchema,
  TaskSpecSchema,
  TreatmentSpecSchema,
  type ExpectedArtifact,
  type LoadSuiteOptions,
  type SkillSpec,
  type Suite,
  type SuiteConfig,
  type SuiteWarning,
  type TaskSpec,
  type TreatmentSpec,
} from "./types.js";
