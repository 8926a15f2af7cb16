/** Trigger evaluation: does the Skill fire when it should, and stay quiet when it should not? See docs/triggers.md. */
export {
  runTriggers,
  planProbes,
  TRIGGER_DEFAULTS,
  type TriggerOptions,
  type TriggerProgress,
  type TriggerSummary,
} from "./run-triggers.js";
export { parseQueries, loadQueries } from "./queries.js";
export { classifyProbe, outcomeLabel } from "./classify.js";
export {
  variantStats,
  compareVariants,
  type VariantStats,
  type VariantComparison,
} from "./stats.js";
export { buildTriggersReport, renderTriggersMarkdown, type TriggersReport } from "./report.js";
export { SkillDecisionWatcher, skillOfToolUse } from "./agent-claude.js";
export type {
  TriggerQuery,
  ProbeRecord,
  ProbeOutcome,
  ProbeSpec,
  DescriptionVariant,
} from "./types.js";
export {
  generateQueries,
  parseGenerated,
  generationPrompt,
  GenerationError,
  GENERATOR_VERSION,
} from "./generate.js";
export { parseTriggersSection, readTriggersSection, type TriggersSection } from "./manifest.js";
export { renderTriggersHtml } from "./html.js";
