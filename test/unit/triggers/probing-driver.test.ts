/** Which agents `triggers --agent` takes (src/triggers/run-triggers.ts probingDriver, agents.ts probingAgents). */
import { afterEach, describe, expect, it } from "vitest";
import { codexDriver, registerAgent, type AgentDriver } from "../../../src/agents/index.js";
import { InputError } from "../../../src/core/errors.js";
import { probingAgents } from "../../../src/triggers/agents.js";
import { probingDriver } from "../../../src/triggers/run-triggers.js";

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

/** A plug-in agent without a Skill mechanism: Codex's facts, no probeTrigger. */
function withoutSkills(): AgentDriver {
  return {
    ...codexDriver,
    probeTrigger: undefined,
    name: "plain",
    aliases: [],
    reportName: "plain",
    displayName: "Plain CLI",
  };
}

describe("probingDriver", () => {
  it.each([
    [undefined, "claude"],
    ["codex", "codex"],
    ["gemini-cli", "gemini"],
    ["opencode", "opencode"],
  ])("%s → %s", (name, want) => {
    expect(probingDriver(name).name).toBe(want);
  });

  it("refuses an unknown agent and one without a Skill mechanism, by name", () => {
    expect(() => probingDriver("nosuch")).toThrow(InputError);
    unregister = registerAgent(withoutSkills());
    expect(() => probingDriver("plain")).toThrow(
      /--agent plain: Plain CLI cannot be probed for triggers: it has no Skill mechanism/,
    );
    expect(() => probingAgents("codex,plain")).toThrow(/--agent plain/);
  });

  it("takes a comma list once per agent, aliases resolved", () => {
    expect(probingAgents("codex, gemini-cli,gemini,opencode")).toEqual([
      "codex",
      "gemini",
      "opencode",
    ]);
  });
});
