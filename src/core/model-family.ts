/**
 * The family (vendor) of a model or agent, by name: two judges of one family are not independent
 * yardsticks for that family's agents (docs/judge.md, "Independence"). Pure data.
 */

export type ModelFamily =
  "anthropic" | "openai" | "google" | "meta" | "mistral" | "deepseek" | "unknown";

/** Ordered: the first whose pattern matches names the family. */
const FAMILIES: readonly [RegExp, ModelFamily][] = [
  [/claude|anthropic|haiku|sonnet|opus/i, "anthropic"],
  [/\bgpt|openai|codex|\bo[1-9](-|$)|chatgpt/i, "openai"],
  [/gemini|google|gemma/i, "google"],
  [/llama|meta/i, "meta"],
  [/mistral|mixtral|codestral/i, "mistral"],
  [/deepseek/i, "deepseek"],
];

export function modelFamily(name: string | null | undefined): ModelFamily {
  if (!name) return "unknown";
  for (const [re, family] of FAMILIES) if (re.test(name)) return family;
  return "unknown";
}

/** The agent's family: its model's, else the agent's own vendor (claude-code → anthropic). */
export function agentFamily(model: string | null | undefined, agent: string): ModelFamily {
  const m = modelFamily(model);
  return m !== "unknown" ? m : modelFamily(agent);
}
