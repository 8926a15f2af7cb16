/** Isolation for the agent and the validators: local, bubblewrap, docker. See docs/sandbox.md. */
export { createSandbox } from "./create.js";
export {
  chooseSandbox,
  LOCAL_WARNING,
  type SandboxChoiceResult,
  type SandboxProbe,
} from "./choose.js";
export { probeSandboxes } from "./probe.js";
export { taskImageTag, parseMemory, parseOomKills, parseAgentVersion } from "./image-tag.js";
export { ensureTaskImage } from "./docker.js";
export {
  planNetwork,
  relayTarget,
  rewriteEndpointEnv,
  type NetworkPlan,
  type RelayTarget,
} from "./network.js";
export {
  SandboxRecordSchema,
  SandboxLimitsSchema,
  SANDBOX_KINDS,
  DEFAULT_BASE_IMAGE,
  NETWORK_POLICIES,
  type Launcher,
  type LaunchSpec,
  type NetworkPolicy,
  type Sandbox,
  type SandboxChoice,
  type SandboxKind,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxRecord,
  type SandboxTask,
} from "./types.js";
export {
  processAlive,
  removeLeftovers,
  tempOwner,
  tempStem,
  type LeftoverReport,
} from "./leftovers.js";
