import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  MISSING_CREDENTIAL_REASON,
  MISSING_MODEL_REASON,
  resolveJudgeConfig,
  type ResolveJudgeConfigInput,
} from "../../../src/judge/config.js";
import { judgeStatusLine } from "../../../src/judge/parse.js";

const BASE = "http://judge.example/api";

describe("resolveJudgeConfig: enabling", () => {
  it.each<[string, ResolveJudgeConfigInput, boolean]>([
    ["nothing set", { env: {}, cli: {} }, false],
    ["BENCH_LLM_JUDGE=1", { env: { BENCH_LLM_JUDGE: "1" }, cli: {} }, true],
    ["BENCH_LLM_JUDGE=TRUE", { env: { BENCH_LLM_JUDGE: "TRUE" }, cli: {} }, true],
    ["BENCH_LLM_JUDGE=yes", { env: { BENCH_LLM_JUDGE: "yes" }, cli: {} }, true],
    ["BENCH_LLM_JUDGE=On", { env: { BENCH_LLM_JUDGE: "On" }, cli: {} }, true],
    ["BENCH_LLM_JUDGE=0", { env: { BENCH_LLM_JUDGE: "0" }, cli: {} }, false],
    ["BENCH_LLM_JUDGE=nope", { env: { BENCH_LLM_JUDGE: "nope" }, cli: {} }, false],
    ["--judge", { env: {}, cli: { judge: true } }, true],
    ["--judge-model alone", { env: {}, cli: { judgeModel: "m" } }, true],
    ["suite section", { env: {}, cli: {}, suite: { model: "m" } }, true],
    ["suite judge: true", { env: {}, cli: {}, suite: true }, true],
    [
      "suite enabled false beats env",
      { env: { BENCH_LLM_JUDGE: "1" }, cli: {}, suite: { enabled: false } },
      false,
    ],
    [
      "CLI --no-judge beats suite",
      { env: {}, cli: { judge: false }, suite: { enabled: true } },
      false,
    ],
    [
      "CLI --judge beats suite enabled false",
      { env: {}, cli: { judge: true }, suite: { enabled: false } },
      true,
    ],
  ])("%s", (_name, input, enabled) => {
    expect(resolveJudgeConfig(input).enabled).toBe(enabled);
  });
});

describe("resolveJudgeConfig: skipped", () => {
  it("no model: the exact skipped reason and status line", () => {
    const c = resolveJudgeConfig({
      env: { BENCH_LLM_JUDGE: "1", BENCH_JUDGE_API_KEY: "k-123" },
      cli: {},
    });
    expect(c).toEqual({ enabled: true, skipped: MISSING_MODEL_REASON });
    expect(judgeStatusLine("skipped", MISSING_MODEL_REASON)).toBe(
      "[RUBRIC-JUDGE] status: skipped - BENCH_JUDGE_MODEL is required when BENCH_LLM_JUDGE=1",
    );
  });
  it("no credential and no base URL", () => {
    const c = resolveJudgeConfig({
      env: { BENCH_LLM_JUDGE: "1", BENCH_JUDGE_MODEL: "m" },
      cli: {},
    });
    expect(c).toEqual({ enabled: true, skipped: MISSING_CREDENTIAL_REASON });
  });
});

describe("resolveJudgeConfig: transport and precedence", () => {
  it.each<[string, ResolveJudgeConfigInput, Record<string, unknown>]>([
    [
      "base URL + token: http with a bearer token",
      {
        env: {
          BENCH_LLM_JUDGE: "1",
          BENCH_JUDGE_MODEL: "m",
          BENCH_JUDGE_BASE_URL: BASE,
          BENCH_JUDGE_AUTH_TOKEN: "t-1",
        },
        cli: {},
      },
      { transport: "http", baseUrl: BASE, credential: { kind: "token", value: "t-1" }, model: "m" },
    ],
    [
      "base URL + key: http with an api key",
      {
        env: {
          BENCH_LLM_JUDGE: "1",
          BENCH_JUDGE_MODEL: "m",
          BENCH_JUDGE_BASE_URL: BASE,
          BENCH_JUDGE_API_KEY: "k-1",
        },
        cli: {},
      },
      { transport: "http", credential: { kind: "api_key", value: "k-1" } },
    ],
    [
      "token wins over key",
      {
        env: {
          BENCH_LLM_JUDGE: "1",
          BENCH_JUDGE_MODEL: "m",
          BENCH_JUDGE_BASE_URL: BASE,
          BENCH_JUDGE_API_KEY: "k-1",
          BENCH_JUDGE_AUTH_TOKEN: "t-1",
        },
        cli: {},
      },
      { credential: { kind: "token", value: "t-1" } },
    ],
    [
      "key without base URL: cli",
      {
        env: { BENCH_LLM_JUDGE: "1", BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_API_KEY: "k-1" },
        cli: {},
      },
      { transport: "cli", baseUrl: null },
    ],
    [
      "base URL without credential: cli",
      {
        env: { BENCH_LLM_JUDGE: "1", BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_BASE_URL: BASE },
        cli: {},
      },
      { transport: "cli", credential: null, baseUrl: BASE },
    ],
    [
      "CLI > suite > env for the model",
      {
        env: { BENCH_LLM_JUDGE: "1", BENCH_JUDGE_MODEL: "env-m", BENCH_JUDGE_API_KEY: "k" },
        cli: { judgeModel: "cli-m" },
        suite: { model: "suite-m" },
      },
      { model: "cli-m" },
    ],
    [
      "suite > env for the model and base URL",
      {
        env: {
          BENCH_JUDGE_MODEL: "env-m",
          BENCH_JUDGE_BASE_URL: "http://env",
          BENCH_JUDGE_API_KEY: "k",
        },
        cli: {},
        suite: { model: "suite-m", base_url: BASE },
      },
      { model: "suite-m", baseUrl: BASE },
    ],
    [
      "samples: CLI > suite > 1",
      {
        env: { BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_API_KEY: "k" },
        cli: { judge: true, judgeSamples: 3 },
        suite: { samples: 5 },
      },
      { samples: 3 },
    ],
    [
      "samples from the suite",
      { env: { BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_API_KEY: "k" }, cli: {}, suite: { samples: 5 } },
      { samples: 5 },
    ],
    [
      "samples default",
      { env: { BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_API_KEY: "k" }, cli: { judge: true } },
      { samples: 1, maxTokens: 2048, timeoutMs: 120_000 },
    ],
  ])("%s", (_name, input, expected) => {
    expect(resolveJudgeConfig(input)).toMatchObject({ enabled: true, ...expected });
  });
});

describe("resolveJudgeConfig: bad input", () => {
  it.each<[string, ResolveJudgeConfigInput, RegExp]>([
    [
      "unknown suite field",
      { env: {}, cli: {}, suite: { modle: "x" }, suiteFile: "s/skillbench.yaml" },
      /s\/skillbench\.yaml: judge/,
    ],
    ["samples not a number", { env: {}, cli: {}, suite: { samples: "many" } }, /judge\.samples/],
    [
      "samples 0 on the CLI",
      {
        env: { BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_API_KEY: "k" },
        cli: { judge: true, judgeSamples: 0 },
      },
      /--judge-samples/,
    ],
    [
      "base URL not http",
      {
        env: { BENCH_JUDGE_MODEL: "m", BENCH_JUDGE_BASE_URL: "ftp://x", BENCH_JUDGE_API_KEY: "k" },
        cli: { judge: true },
      },
      /base URL/,
    ],
  ])("%s", (_name, input, re) => {
    expect(() => resolveJudgeConfig(input)).toThrow(InputError);
    expect(() => resolveJudgeConfig(input)).toThrow(re);
  });
});

describe("resolveJudgeConfig: mode (docs/judge.md, Pairwise)", () => {
  const env = { BENCH_JUDGE_BASE_URL: BASE, BENCH_JUDGE_API_KEY: "k" };
  it.each<[string, ResolveJudgeConfigInput, string | undefined]>([
    ["default: per-run rubric judge", { env, cli: { judgeModel: "m" } }, undefined],
    ["--judge pairwise", { env, cli: { judgeModel: "m", judgeMode: "pairwise" } }, "pairwise"],
    ["suite mode: pairwise", { env, cli: {}, suite: { model: "m", mode: "pairwise" } }, "pairwise"],
    [
      "--judge rubric beats the suite",
      { env, cli: { judgeMode: "rubric" }, suite: { model: "m", mode: "pairwise" } },
      undefined,
    ],
  ])("%s", (_n, input, mode) => {
    const c = resolveJudgeConfig(input);
    expect("mode" in c ? c.mode : undefined).toBe(mode);
  });
  it("an unknown suite mode is an input error naming the field", () => {
    expect(() => resolveJudgeConfig({ env, cli: {}, suite: { model: "m", mode: "both" } })).toThrow(
      /judge\.mode/,
    );
  });
});
