/** The scripted model server: a deterministic fake of the Anthropic Messages API. See docs/model-script.md. */
export { startModelServer, type ModelServer, type StartModelServerOptions } from "./server.js";
export {
  loadModelScript,
  parseModelScript,
  parseModelScriptText,
  validateModelScript,
  type ScriptProblem,
} from "./load-script.js";
export { runBaseUrl, parseRunPath, type RunRef } from "./run-path.js";
export { serveModel } from "./serve-command.js";
export { requestFacts, type RequestFacts } from "./request-facts.js";
export { selectStep, type Selection } from "./select-step.js";
export type { ModelScript, Rule, Step, Block, Fault, When } from "./script.js";
export { ModelScriptFileSchema, type ModelScriptFile, type Role } from "./script-schema.js";
export { scriptServesRole } from "./script.js";
