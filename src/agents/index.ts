import { claudeDriver } from "./claude/driver.js";
import { codexDriver } from "./codex/driver.js";
import { geminiDriver } from "./gemini/driver.js";
import { opencodeDriver } from "./opencode/driver.js";
import { AGENT_NAMES, type AgentDriver, type AgentName } from "./types.js";

export * from "./types.js";
export {
  replayDriver,
  type ReplayTurn,
  type ReplayRequest,
  type ReplayOptions,
} from "./replay/driver.js";
export { runDriverTurn, classifyTurn, errorKindOf } from "./run-turn.js";
export { claudeDriver, codexDriver, geminiDriver, opencodeDriver };

const DRIVERS: Record<(typeof AGENT_NAMES)[number], AgentDriver> = {
  claude: claudeDriver,
  codex: codexDriver,
  gemini: geminiDriver,
  opencode: opencodeDriver,
};

/** Accepted spellings of each agent (the report's `agent.name` of runs before drivers was `claude-code`). */
const ALIASES: Record<string, (typeof AGENT_NAMES)[number]> = {
  "claude-code": "claude",
  "gemini-cli": "gemini",
  "opencode-ai": "opencode",
};

export function isAgentName(s: string): s is (typeof AGENT_NAMES)[number] {
  return (AGENT_NAMES as readonly string[]).includes(s);
}

/** The driver for an agent name (or alias); null for an unknown name. */
export function agentDriver(name: string): AgentDriver | null {
  const n = ALIASES[name] ?? name;
  return isAgentName(n) ? DRIVERS[n] : null;
}

export function allDrivers(): AgentDriver[] {
  return AGENT_NAMES.map((n) => DRIVERS[n]);
}

export type { AgentName };

/** The name a run's report gives its agent (`agent.name` in report.json). */
export function reportAgentName(name: AgentName): "claude-code" | "codex" | "gemini" | "opencode" {
  return name === "claude" || name === "replay" ? "claude-code" : name;
}
