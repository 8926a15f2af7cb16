/** The agent lists of the commands' help texts, from the agent registry (src/agents/registry.ts). */
import { agentNames, defaultAgent } from "../agents/index.js";

/** `claude (default), codex, gemini or opencode`; without `(default)` when `markDefault` is false. */
export function agentChoices(markDefault: boolean): string {
  const main = defaultAgent().name;
  const names = agentNames().map((n) => (markDefault && n === main ? `${n} (default)` : n));
  const last = names.pop() ?? "";
  return names.length === 0 ? last : `${names.join(", ")} or ${last}`;
}

/** The default agent's name (`--agent`'s default, the simulated user's, the `claude` judge's CLI). */
export function defaultAgentName(): string {
  return defaultAgent().name;
}
