import { claudeDriver } from "./claude/driver.js";
import { codexDriver } from "./codex/driver.js";
import { agentNames, registeredAgents } from "./registry.js";
import type { AgentDriver } from "./types.js";

export * from "./types.js";
export { replayDriver, type ReplayTurn } from "./replay/driver.js";
export { claudeDriver, codexDriver };
export {
  agentDriver,
  agentNames,
  defaultAgent,
  registerAgent,
  reportAgentName,
} from "./registry.js";

/**
 * The built-in agents' names, in registry order, as the registry gives them when this module
 * loads (the tests' tables of built-ins); the code asks `agentNames()`, which also has the
 * agents registered since.
 */
export const AGENT_NAMES: readonly string[] = agentNames();

/** Every registered driver, in registry order (doctor's checks). */
export function allDrivers(): AgentDriver[] {
  return [...registeredAgents()];
}
