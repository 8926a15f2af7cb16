/** Trigger evaluation: does the Skill fire when it should, and stay quiet when it should not? See docs/triggers.md. */
export {
  runTriggers,
  planTriggers,
  type TriggerOptions,
  type TriggerProgress,
  type TriggerSummary,
} from "./run-triggers.js";
export { outcomeLabel } from "./classify.js";
export { probingAgents, runTriggersOnAgents, type AgentsSummary } from "./agents.js";
export { GenerationError } from "../agents/ask.js";
