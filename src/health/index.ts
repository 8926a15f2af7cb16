/** Task health (docs/health.md): oracle, null agent and repeated validators, without an agent. */
export { checkSuiteHealth, DEFAULT_HEALTH_REPEATS, type HealthOptions } from "./check-suite.js";
export { checkTarget, type CheckTargetOptions, type CheckTargetResult } from "./target.js";
export { healthHeadline, problemLine, renderHealthMarkdown } from "./render.js";
export { writeHealth, HEALTH_FILE } from "./write.js";
export { checkName } from "../core/check-name.js";
export { classifyTask, flakyChecks, type TaskObservation } from "./classify.js";
