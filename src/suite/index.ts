export { loadSuite } from "./load-suite.js";
export { renderInstruction, renderTemplate, templatePlaceholders } from "./template.js";
export { selectNames } from "./select.js";
export { treatmentPrompt } from "./prompt.js";
export { validatorEnv } from "./validation-env.js";
export { isIgnoredSkillPath, hashSkillDir } from "./skills.js";
export {
  MODEL_ID,
  TaskSpecSchema,
  TreatmentSpecSchema,
  SuiteConfigSchema,
  type Suite,
  type SuiteWarning,
  type TaskSpec,
  type TreatmentSpec,
} from "./types.js";
export { unsafePathReason } from "./artifacts.js";
export { hasDockerfile } from "./environment.js";
