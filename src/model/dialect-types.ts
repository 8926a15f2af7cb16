/**
 * The types the scripted model and the drivers' tool tables share (agents/<name>/tools.ts):
 * a leaf module, so that the drivers can name them without importing model/dialect.ts, which
 * asks the agent registry, which imports the drivers.
 */
export type WireApi = "anthropic" | "openai-responses" | "openai-chat" | "gemini";

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
