/** The scripted model server: a deterministic fake of the Anthropic Messages API. See docs/model-script.md. */
export { startModelServer, type ModelServer, type StartModelServerOptions } from "./server.js";
export { loadModelScript, parseModelScript, parseModelScriptText } from "./load-script.js";
export { runBaseUrl } from "./run-path.js";
export { serveModel } from "./serve-command.js";
export { scriptServesRole } from "./script.js";
