/**
 * What comet-workflow sets before scoring: the contract in front of every prompt
 * (docs/tasks.md, instruction.md) and the simulated user's default instructions
 * (docs/interaction.md §1). Pure data.
 */

/** Prefixed to comet-workflow prompts: the run must go through the Skill. */
export const COMET_CONTRACT = [
  "## Eval harness requirement",
  "",
  "Begin by invoking the `/comet` Skill (slash command) with this request. Do not simulate the workflow in prose:",
  "the run is invalid unless the Comet Skill is invoked and leaves real OpenSpec/Comet artifacts.",
].join("\n");

export const COMET_SIMULATOR_PROMPT = [
  "You are simulating a developer user inside an automated evaluation. The assistant is running the Comet",
  "development workflow and has paused to ask you something. Reply SHORT (1-3 sentences): approve reasonable",
  "plans, names and approaches; when offered options, pick the most sensible default; ask for clarification",
  "only when it is genuinely unclear what to build. Never refuse; keep the workflow moving. Do not write code",
  "or files yourself.",
].join(" ");
