import { describe, expect, it } from "vitest";
import { tapLiveEndpoints } from "../../../src/model/tap.js";

describe("tapLiveEndpoints: which endpoints a budget puts behind the tap", () => {
  it.each<[string, { budget: boolean; scripted: boolean; env: Record<string, string> }]>([
    [
      "no budget",
      { budget: false, scripted: false, env: { ANTHROPIC_BASE_URL: "https://x.example" } },
    ],
    ["a scripted model", { budget: true, scripted: true, env: {} }],
    [
      "a plain-http endpoint (metered as it is)",
      { budget: true, scripted: false, env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } },
    ],
  ])("nothing is tapped with %s", async (_, o) => {
    expect(
      await tapLiveEndpoints({
        budget: o.budget,
        scripted: o.scripted,
        apis: ["anthropic"],
        hostEnv: o.env,
      }),
    ).toBeNull();
  });

  it.each<[string, Record<string, string>, string, string]>([
    [
      "an explicit https endpoint",
      { ANTHROPIC_BASE_URL: "https://llm.example:8443/v1" },
      "ANTHROPIC_BASE_URL",
      "https://llm.example:8443",
    ],
    ["the agent's default endpoint (variable unset)", {}, "ANTHROPIC_BASE_URL", "default"],
    [
      "the simulated user's own https endpoint",
      {
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
        SKILLBENCH_SIMULATOR_BASE_URL: "https://sim.example",
      },
      "SKILLBENCH_SIMULATOR_BASE_URL",
      "https://sim.example",
    ],
  ])("%s is tapped; the fingerprint still names it", async (_, env, name, origin) => {
    const taps = await tapLiveEndpoints({
      budget: true,
      scripted: false,
      apis: ["anthropic"],
      hostEnv: { ...env, KEEP: "1" },
    });
    try {
      expect(taps).not.toBeNull();
      const url = taps?.env[name] ?? "";
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(taps?.env.KEEP).toBe("1");
      expect(taps?.fingerprintOrigin(new URL(url).origin)).toBe(origin);
      expect(taps?.fingerprintOrigin("https://other.example")).toBe("https://other.example");
    } finally {
      await taps?.close();
    }
  });

  it("each agent API's own variable: an OpenAI agent's endpoint too", async () => {
    const taps = await tapLiveEndpoints({
      budget: true,
      scripted: false,
      apis: ["openai-responses"],
      hostEnv: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
    });
    try {
      expect(Object.keys(taps?.env ?? {})).toEqual(["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"]);
      expect(taps?.env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:9");
      expect(taps?.fingerprintOrigin(new URL(taps?.env.OPENAI_BASE_URL ?? "").origin)).toBe(
        "default",
      );
    } finally {
      await taps?.close();
    }
  });
});
