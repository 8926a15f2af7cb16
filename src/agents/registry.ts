/**
 * The registry of agents: one line per driver in `builtIn()`, and everything else the harness
 * knows about agents — names and aliases, report names, Skill folders, tool tables, telemetry
 * providers, trigger detection — is read from the drivers through the functions below
 * (docs/agents.md, "Adding an agent").
 *
 * The drivers are read only when a function is called, never while modules load (the registry
 * imports the drivers and they import evidence/, which the registry hands the Skill folders to).
 */
import { useDefaultDecoder } from "../evidence/default-decoder.js";
import { useSkillFolders } from "../evidence/paths.js";
import { claudeDriver } from "./claude/driver.js";
import { codexDriver } from "./codex/driver.js";
import { geminiDriver } from "./gemini/driver.js";
import { opencodeDriver } from "./opencode/driver.js";
import type { AgentDriver } from "./types.js";

/** The built-in agents; their order is that of help texts, doctor and the report's enum. */
function builtIn(): readonly AgentDriver[] {
  return [claudeDriver, codexDriver, geminiDriver, opencodeDriver];
}

/** Agents added at run time (`registerAgent`), after the built-in ones. */
const added: AgentDriver[] = [];
/** Counts changes to `added`, so that what is derived from the registry can be cached. */
let changes = 0;

/**
 * Add an agent to the registry (a plug-in, or a test's fixture driver); returns the function
 * that removes it again. A name or alias already taken is refused.
 */
export function registerAgent(d: AgentDriver): () => void {
  for (const n of [d.name, ...d.aliases])
    if (agentDriver(n) !== null) throw new Error(`agent name "${n}" is already registered`);
  added.push(d);
  changes += 1;
  return () => {
    const i = added.indexOf(d);
    if (i >= 0) added.splice(i, 1);
    changes += 1;
  };
}

// Evidence's Skill path pattern is built from every registered agent's Skill folders.
useSkillFolders({
  version: () => changes,
  folders: () => registeredAgents().flatMap((d) => d.skillFolders),
});
// parseEvidence and parseEvidenceFile read the default agent's stream unless told otherwise.
useDefaultDecoder((opts) => defaultAgent().decoder(opts));

export function registeredAgents(): readonly AgentDriver[] {
  return added.length === 0 ? builtIn() : [...builtIn(), ...added];
}

/** The driver for an agent name (or alias); null for an unknown name. */
export function agentDriver(name: string): AgentDriver | null {
  const agents = registeredAgents();
  return (
    agents.find((d) => d.name === name) ?? agents.find((d) => d.aliases.includes(name)) ?? null
  );
}

/** The agent of `--agent`'s default, of the simulated user and of the judge's CLI transport. */
export function defaultAgent(): AgentDriver {
  return claudeDriver;
}

/** The names `--agent` accepts (aliases aside), in registry order. */
export function agentNames(): string[] {
  return registeredAgents().map((d) => d.name);
}

/**
 * The built-in agents' report names, in registry order: what src/agents/report-names.ts, the
 * report schema's enum, must list (a unit test compares them).
 */
export function builtInReportNames(): string[] {
  return builtIn().map((d) => d.reportName);
}

/** The name a run's report gives its agent (`agent.name` in report.json). */
export function reportAgentName(name: string): string {
  return agentDriver(name)?.reportName ?? name;
}
