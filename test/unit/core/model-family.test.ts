import { describe, expect, it } from "vitest";
import { agentFamily, modelFamily } from "../../../src/core/model-family.js";

describe("modelFamily", () => {
  it.each([
    ["claude-haiku-4-5", "anthropic"],
    ["anthropic/claude-sonnet", "anthropic"],
    ["gpt-5-mini", "openai"],
    ["o3-mini", "openai"],
    ["gemini-2.5-pro", "google"],
    ["llama-3.1-70b", "meta"],
    ["mistral-large", "mistral"],
    ["deepseek-r1", "deepseek"],
    ["scripted-judge", "unknown"],
    [null, "unknown"],
  ])("%s → %s", (name, family) => {
    expect(modelFamily(name)).toBe(family);
  });
});

describe("agentFamily", () => {
  it.each<[string | null, string, string]>([
    [null, "claude-code", "anthropic"],
    [null, "codex", "openai"],
    [null, "gemini", "google"],
    [null, "opencode", "unknown"],
    ["gpt-5", "opencode", "openai"],
  ])("model %s, agent %s → %s", (model, agent, family) => {
    expect(agentFamily(model, agent)).toBe(family);
  });
});
