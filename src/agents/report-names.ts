/**
 * The built-in agents' report names (`agent.name` in report.json), in registry order: the report
 * schema's enum (core/report.ts). Pure data rather than read from the drivers, because the HTML
 * pages' browser client is type-checked without Node's types and reaches core/report.ts, which
 * therefore cannot import the drivers; test/unit/agents/registry.test.ts checks this list against
 * the registry's drivers.
 */
// Typed as strings, not a union: an agent registered at run time has a report name of its own.
export const BUILT_IN_REPORT_NAMES: readonly [string, ...string[]] = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
];
