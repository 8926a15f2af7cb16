import { describe, expect, it } from "vitest";
import { buildAgentEnv } from "../../../src/agents/claude/env.js";
import type { ActiveJudgeConfig } from "../../../src/judge/config.js";
import { buildJudgeEnv, JUDGE_PLACEHOLDER_KEY } from "../../../src/judge/env.js";

const SUBJECT_KEY = "sk-subject-secret-0001";
const JUDGE_KEY = "sk-judge-secret-0002";
const HOST = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/me",
  LANG: "C.UTF-8",
  ANTHROPIC_API_KEY: SUBJECT_KEY,
  ANTHROPIC_AUTH_TOKEN: "subject-token-0003",
  ANTHROPIC_BASE_URL: "http://subject.example",
  ANTHROPIC_MODEL: "subject-model",
  OPENAI_API_KEY: "openai-0004",
  CLAUDE_CODE_MAX_RETRIES: "0",
  BENCH_JUDGE_API_KEY: JUDGE_KEY,
  BENCH_JUDGE_BASE_URL: "http://judge.example",
  BENCH_JUDGE_MODEL: "judge-model",
};

function cfg(over: Partial<ActiveJudgeConfig>): ActiveJudgeConfig {
  return {
    enabled: true,
    model: "judge-model",
    transport: "cli",
    baseUrl: null,
    credential: null,
    samples: 1,
    maxTokens: 2048,
    timeoutMs: 1000,
    ...over,
  };
}

const dirs = { home: "/p/home", configDir: "/p/cfg", tmpDir: "/p/tmp" };

describe("buildJudgeEnv", () => {
  it.each<[string, Partial<ActiveJudgeConfig>, Record<string, string | undefined>]>([
    [
      "api key",
      { credential: { kind: "api_key", value: JUDGE_KEY }, baseUrl: "http://judge.example" },
      {
        ANTHROPIC_API_KEY: JUDGE_KEY,
        ANTHROPIC_AUTH_TOKEN: undefined,
        ANTHROPIC_BASE_URL: "http://judge.example",
      },
    ],
    [
      "token (no api key at all)",
      { credential: { kind: "token", value: "judge-token-9" } },
      {
        ANTHROPIC_AUTH_TOKEN: "judge-token-9",
        ANTHROPIC_API_KEY: undefined,
        ANTHROPIC_BASE_URL: undefined,
      },
    ],
    [
      "base URL without credential: the placeholder key",
      { baseUrl: "http://judge.example" },
      { ANTHROPIC_API_KEY: JUDGE_PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: "http://judge.example" },
    ],
  ])("%s", async (_n, over, expected) => {
    const env = await buildJudgeEnv({ hostEnv: HOST, config: cfg(over), ...dirs });
    for (const [k, v] of Object.entries(expected)) expect(env[k]).toBe(v);
    expect(env).toMatchObject({
      PATH: HOST.PATH,
      HOME: dirs.home,
      CLAUDE_CONFIG_DIR: dirs.configDir,
      CLAUDE_CODE_TMPDIR: dirs.tmpDir,
      TMPDIR: dirs.tmpDir,
      LANG: "C.UTF-8",
      COMET_EVAL_AGENT_ROLE: "judge",
      ANTHROPIC_MODEL: "judge-model",
      CLAUDE_CODE_MAX_RETRIES: "0",
    });
    const values = Object.values(env).join("\n");
    for (const leaked of [
      SUBJECT_KEY,
      "subject-token-0003",
      "http://subject.example",
      "subject-model",
      "openai-0004",
    ])
      expect(values).not.toContain(leaked);
    expect(
      Object.keys(env).filter((k) => k.startsWith("BENCH_") || k === "OPENAI_API_KEY"),
    ).toEqual([]);
  });
});

describe("the judge key never reaches the subject", () => {
  it("buildAgentEnv carries no BENCH_JUDGE_* variable and no judge key value", () => {
    const env = buildAgentEnv({
      hostEnv: HOST,
      home: "/s/home",
      configDir: "/s/cfg",
      tmpDir: "/s/tmp",
      baseUrl: "http://subject.example",
      apiKey: SUBJECT_KEY,
      model: "subject-model",
    });
    expect(Object.keys(env).filter((k) => k.startsWith("BENCH_JUDGE"))).toEqual([]);
    expect(Object.values(env).join("\n")).not.toContain(JUDGE_KEY);
    expect(env.ANTHROPIC_API_KEY).toBe(SUBJECT_KEY);
  });
});
