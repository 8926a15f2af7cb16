/**
 * Agent-neutral actions -> the tool call of the agent that asked. The agent is recognised by the
 * tools its request offers (each driver's `scriptedTools.marks`, e.g. Codex's
 * `exec_command`/`apply_patch`), falling back on the wire API; the tool tables are the drivers'
 * (src/agents/<name>/tools.ts). Pure. docs/model-script.md, section 4.1.
 */
import { agentDriver, defaultAgent, registeredAgents } from "../agents/registry.js";
import type { Action } from "./script.js";

export type WireApi = "anthropic" | "openai-responses" | "openai-chat" | "gemini";
/** The name of the agent whose tools a reply uses (a driver's name). */
export type Dialect = string;

export function dialectOf(api: WireApi, tools: readonly string[]): Dialect {
  const agents = registeredAgents();
  const marked = agents.find((d) => d.scriptedTools.marks.some((n) => tools.includes(n)));
  if (marked) return marked.name;
  const byApi = agents.find((d) => d.scriptedTools.fallbackFor.includes(api));
  return (byApi ?? defaultAgent()).name;
}

export interface ToolCallSpec {
  name: string;
  input: Record<string, unknown>;
  /** A custom (free-text) tool input, for tools such as Codex's `apply_patch`. */
  custom?: string;
}

export interface DialectFacts {
  tools: readonly string[];
  /** Skill name -> the SKILL.md path the agent listed (Codex lists them with their file). */
  skillFiles: Readonly<Record<string, string>>;
}

export function actionToTool(a: Action, d: Dialect, f: DialectFacts): ToolCallSpec {
  return (agentDriver(d) ?? defaultAgent()).scriptedTools.call(a, f);
}
