import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  parseOtlpHeaders,
  resolveTelemetryConfig,
  telemetrySecrets,
} from "../../../src/telemetry/config.js";

describe("resolveTelemetryConfig", () => {
  const cases: Array<{
    name: string;
    flags: Parameters<typeof resolveTelemetryConfig>[0];
    env: Record<string, string>;
    url: string | null;
    protocol?: string;
    headers?: Record<string, string>;
  }> = [
    { name: "nothing configured", flags: {}, env: {}, url: null },
    {
      name: "--otel-endpoint: /v1/traces appended, protobuf by default",
      flags: { otelEndpoint: "http://127.0.0.1:4318/" },
      env: {},
      url: "http://127.0.0.1:4318/v1/traces",
      protocol: "http/protobuf",
    },
    {
      name: "OTEL_EXPORTER_OTLP_ENDPOINT and its protocol",
      flags: {},
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
      url: "http://c:4318/v1/traces",
      protocol: "http/json",
    },
    {
      name: "the traces-specific endpoint is used as is",
      flags: {},
      env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/custom" },
      url: "http://c:4318/custom",
    },
    {
      name: "the flag wins over the environment",
      flags: { otelEndpoint: "http://flag:1" },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:2" },
      url: "http://flag:1/v1/traces",
    },
    {
      name: "headers from the environment and --otel-header, percent-decoded",
      flags: { otelEndpoint: "http://c:1", otelHeader: ["x-b=2"] },
      env: { OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Basic%20abc, x-a=1" },
      url: "http://c:1/v1/traces",
      headers: { Authorization: "Basic abc", "x-a": "1", "x-b": "2" },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const cfg = resolveTelemetryConfig(c.flags, c.env);
      expect(cfg?.otlp?.url ?? null).toBe(c.url);
      if (c.protocol) expect(cfg?.otlp?.protocol).toBe(c.protocol);
      if (c.headers) expect(cfg?.otlp?.headers).toEqual(c.headers);
    });

  const bad: Array<
    [string, Parameters<typeof resolveTelemetryConfig>[0], Record<string, string>, string]
  > = [
    ["not a URL", { otelEndpoint: "nope" }, {}, "--otel-endpoint"],
    ["not http", { otelEndpoint: "ftp://x" }, {}, "--otel-endpoint"],
    [
      "grpc is not offered",
      { otelEndpoint: "http://x", otelProtocol: "grpc" },
      {},
      "--otel-protocol",
    ],
    ["a header without =", { otelEndpoint: "http://x", otelHeader: ["oops"] }, {}, "--otel-header"],
    [
      "Langfuse without keys",
      { langfuse: true },
      { LANGFUSE_PUBLIC_KEY: "pk" },
      "LANGFUSE_SECRET_KEY",
    ],
    ["LangSmith without a key", { langsmith: true }, {}, "LANGSMITH_API_KEY"],
  ];
  for (const [name, flags, env, field] of bad)
    it(`bad input: ${name}`, () => {
      expect(() => resolveTelemetryConfig(flags, env)).toThrow(InputError);
      expect(() => resolveTelemetryConfig(flags, env)).toThrow(field);
    });

  it("Langfuse and LangSmith targets, and their keys among the secrets", () => {
    const cfg = resolveTelemetryConfig(
      { langfuse: true, langsmith: "proj", exportRequired: true },
      {
        LANGFUSE_PUBLIC_KEY: "pk-1",
        LANGFUSE_SECRET_KEY: "sk-1",
        LANGFUSE_BASE_URL: "http://lf:3000/",
        LANGSMITH_API_KEY: "ls-key",
      },
    );
    expect(cfg?.langfuse).toEqual({
      baseUrl: "http://lf:3000",
      publicKey: "pk-1",
      secretKey: "sk-1",
    });
    expect(cfg?.langsmith).toEqual({
      endpoint: "https://api.smith.langchain.com",
      apiKey: "ls-key",
      project: "proj",
    });
    expect(cfg?.required).toBe(true);
    expect(telemetrySecrets(cfg)).toEqual(["sk-1", "ls-key"]);
  });

  it("parseOtlpHeaders skips empty parts", () => {
    expect(parseOtlpHeaders("a=1,,b=x%3Dy", "f")).toEqual({ a: "1", b: "x=y" });
  });
});
