import { agentNames, agentDriver, defaultAgent, type AgentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { Suite } from "../suite/index.js";

/**
 * Which agent each run uses, settled before any run starts (docs/agents.md, "Treatments that
 * pin their agent"): a treatment's own `agent:` wins; every other treatment runs on `--agent`,
 * which may itself be a comma list (`--agent claude,codex`) to cross every treatment with agents.
 */
export function agentsOfTreatments(
  suite: Suite,
  opts: { agent?: string | undefined; driver?: AgentDriver | undefined },
): (treatment: string) => readonly string[] {
  const defaults = opts.driver
    ? [opts.driver.name]
    : parseAgentList(opts.agent ?? defaultAgent().name);
  return (name) => suite.treatments.find((t) => t.name === name)?.agents ?? defaults;
}

/** `--agent claude,codex` → the driver names, checked; aliases (`claude-code`) accepted. */
function parseAgentList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(",").map((s) => s.trim())) {
    const d = agentDriver(raw);
    if (raw === "" || d === null)
      throw new InputError(`unknown agent "${raw}": use one of ${agentNames().join(", ")}`, {
        field: "--agent",
      });
    if (!out.includes(d.name)) out.push(d.name);
  }
  return out;
}
