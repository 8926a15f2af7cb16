/** The dual-agent `auto_user` loop. See docs/interaction.md. */
export { decisionReason, isCompletion, isDecisionPoint } from "./detect.js";
export {
  COMET_SIMULATOR_PROMPT,
  CUSTOM_PROFILE_DEFAULTS,
  DEFAULT_CONTINUE_PROMPT,
  FALLBACK_REPLY,
  GENERIC_SIMULATOR_PROMPT,
  PROFILE_INTERACTION_DEFAULTS,
  profileInteractionDefaults,
  resolveInteraction,
  taskInteractionSettings,
  type InteractionConfig,
  type InteractionInput,
  type InteractionMode,
  type SettingSource,
  type SimulatorPromptSource,
} from "./config.js";
export {
  runInteractionLoop,
  simulatorInput,
  SIMULATOR_CONTEXT_CHARS,
  TEXT_LIMIT,
  type CallContext,
  type EndReason,
  type InteractionLoopOptions,
  type InteractionRecord,
  type PromptSource,
  type Simulate,
  type SimulatorCall,
  type SimulatorReply,
  type SubjectTurn,
  type TurnRecord,
} from "./loop.js";
export {
  makeClaudeSimulator,
  simulatorExtraArgs,
  SIMULATOR_DENIED_TOOLS,
  type ClaudeSimulatorOptions,
  type SimulatorDirs,
} from "./simulator.js";
