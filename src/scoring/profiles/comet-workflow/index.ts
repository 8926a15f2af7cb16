/**
 * The comet-workflow profile as a package: the registry takes `cometWorkflowProfile` (its hooks
 * carry everything the core needs); the rest is for its tests and readers (README.md).
 */
export { cometWorkflowProfile } from "./profile.js";
export { COMET_SIMULATOR_PROMPT } from "./contract.js";
export { isWorkflowCheck, splitChecks } from "./checks-split.js";
export { decisionPointCompliance } from "./decision-points.js";
export type { WorkflowKind } from "./context.js";
