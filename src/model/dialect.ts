/**
 * Agent-neutral actions -> the tool call of the agent that asked. The agent is recognised by the
 * tools its request offers (each driver's `scriptedTools.marks`, e.g. Codex's
 * `exec_command`/`apply_patch`), falling back on the wire API; the tool tables are the drivers'
 * (src/agents/<name>/tools.ts). Pure. docs/model-script.md, section 4.1.
 */
import { agentDriver, defaultAgent, registeredAgents } from "../agents/registry.js";
import type { DialectFacts, ToolCallSpec, WireApi } from "./dialect-types.js";
import type { Action } from "./script.js";

export type { DialectFacts, ToolCallSpec, WireApi } from "./dialect-types.js";

/** The name of the agent whose tools a reply uses (a driver's name). */
export type Dialect = string;

export function dialectOf(api: WireApi, tools: readonly string[]): Dialect {
  const agents = registeredAgents();
  const marked = agents.find((d) => d.scriptedTools.marks.some((n) => tools.includes(n)));
  if (marked) return marked.name;
  const byApi = agents.find((d) => d.scriptedTools.fallbackFor.includes(api));
  return (byApi ?? defaultAgent()).name;
}

export function actionToTool(a: Action, d: Dialect, f: DialectFacts): ToolCallSpec {
  return (agentDriver(d) ?? defaultAgent()).scriptedTools.call(a, f);
}
