/** Isolation for the agent and the validators: local, bubblewrap, docker. See docs/sandbox.md. */
export { createSandbox } from "./create.js";
export { warmBwrapSandbox } from "./bwrap.js";
export { chooseSandbox, requestedSandbox, type SandboxProbe } from "./choose.js";
export { keptProbes, probeSandboxes, type ProbeOptions } from "./probe.js";
export {
  type Launcher,
  type LocalModelServer,
  type NetworkPolicy,
  type Sandbox,
  type SandboxChoice,
  type SandboxKind,
  type SandboxRecord,
} from "./types.js";
export { removeLeftovers } from "./leftovers.js";
export { dockerImageId } from "./docker-image.js";
