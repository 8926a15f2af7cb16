/**
 * Where telemetry goes, from the command line and the standard OpenTelemetry environment
 * variables (docs/telemetry.md, "Configuration"). Pure: options and an environment in, a config or
 * an InputError out.
 */
import { InputError } from "../core/errors.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpTarget {
  /** The full traces URL (…/v1/traces). */
  url: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
}

export interface LangfuseTarget {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

export interface LangsmithTarget {
  endpoint: string;
  apiKey: string;
  project: string;
}

export interface TelemetryConfig {
  otlp: OtlpTarget | null;
  langfuse: LangfuseTarget | null;
  langsmith: LangsmithTarget | null;
  /** Prompts, tool inputs and outputs leave as text (redacted) instead of hash and length. */
  includeContent: boolean;
  /** A failed export fails the command (exit 1) instead of being reported once. */
  required: boolean;
}

export interface TelemetryOptions {
  otelEndpoint?: string | undefined;
  otelProtocol?: string | undefined;
  /** `key=value`, repeatable. */
  otelHeader?: string[] | undefined;
  otelIncludeContent?: boolean | undefined;
  langfuse?: boolean | undefined;
  /** true, or the LangSmith project name. */
  langsmith?: boolean | string | undefined;
  exportRequired?: boolean | undefined;
}

type Env = Record<string, string | undefined>;

function checkUrl(value: string, field: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InputError(`${field}: not a URL: ${JSON.stringify(value)}`, { field });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new InputError(`${field}: must be an http:// or https:// URL, got ${u.protocol}`, {
      field,
    });
  return value;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` format: `k=v,k2=v2`, values percent-encoded. */
export function parseOtlpHeaders(text: string, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0)
      throw new InputError(`${field}: expected key=value, got ${JSON.stringify(part.trim())}`, {
        field,
      });
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      /* kept as written */
    }
    out[key] = value;
  }
  return out;
}

function protocolOf(value: string | undefined, field: string): OtlpProtocol {
  if (value === undefined || value === "") return "http/protobuf";
  if (value === "http/protobuf" || value === "http/json") return value;
  throw new InputError(
    `${field}: ${JSON.stringify(value)} is not supported (use http/protobuf or http/json)`,
    { field },
  );
}

function tracesUrl(base: string): string {
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

export function resolveTelemetryConfig(opts: TelemetryOptions, env: Env): TelemetryConfig | null {
  let otlp: OtlpTarget | null = null;
  const tracesEndpoint = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"];
  const baseEndpoint = opts.otelEndpoint ?? env["OTEL_EXPORTER_OTLP_ENDPOINT"];
  if (opts.otelEndpoint !== undefined || tracesEndpoint || baseEndpoint) {
    const url =
      opts.otelEndpoint !== undefined
        ? tracesUrl(checkUrl(opts.otelEndpoint, "--otel-endpoint"))
        : tracesEndpoint
          ? checkUrl(tracesEndpoint, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
          : tracesUrl(checkUrl(baseEndpoint ?? "", "OTEL_EXPORTER_OTLP_ENDPOINT"));
    const headers = {
      ...parseOtlpHeaders(env["OTEL_EXPORTER_OTLP_HEADERS"] ?? "", "OTEL_EXPORTER_OTLP_HEADERS"),
      ...parseOtlpHeaders(
        env["OTEL_EXPORTER_OTLP_TRACES_HEADERS"] ?? "",
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
      ),
    };
    for (const h of opts.otelHeader ?? [])
      Object.assign(headers, parseOtlpHeaders(h, "--otel-header"));
    const protocol =
      opts.otelProtocol !== undefined
        ? protocolOf(opts.otelProtocol, "--otel-protocol")
        : env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"]
          ? protocolOf(
              env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"],
              "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
            )
          : protocolOf(env["OTEL_EXPORTER_OTLP_PROTOCOL"], "OTEL_EXPORTER_OTLP_PROTOCOL");
    otlp = { url, headers, protocol };
  }

  let langfuse: LangfuseTarget | null = null;
  if (opts.langfuse) {
    const publicKey = env["LANGFUSE_PUBLIC_KEY"];
    const secretKey = env["LANGFUSE_SECRET_KEY"];
    if (!publicKey || !secretKey)
      throw new InputError(
        "--langfuse: LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY must be set in the environment",
        { field: "LANGFUSE_SECRET_KEY" },
      );
    const baseUrl = checkUrl(
      env["LANGFUSE_BASE_URL"] ?? env["LANGFUSE_HOST"] ?? "https://cloud.langfuse.com",
      "LANGFUSE_BASE_URL",
    ).replace(/\/+$/, "");
    langfuse = { baseUrl, publicKey, secretKey };
  }

  let langsmith: LangsmithTarget | null = null;
  if (opts.langsmith) {
    const apiKey = env["LANGSMITH_API_KEY"];
    if (!apiKey)
      throw new InputError("--langsmith: LANGSMITH_API_KEY must be set in the environment", {
        field: "LANGSMITH_API_KEY",
      });
    const endpoint = checkUrl(
      env["LANGSMITH_ENDPOINT"] ?? "https://api.smith.langchain.com",
      "LANGSMITH_ENDPOINT",
    ).replace(/\/+$/, "");
    const project =
      typeof opts.langsmith === "string"
        ? opts.langsmith
        : (env["LANGSMITH_PROJECT"] ?? "skillbench");
    langsmith = { endpoint, apiKey, project };
  }

  if (!otlp && !langfuse && !langsmith) return null;
  return {
    otlp,
    langfuse,
    langsmith,
    includeContent: opts.otelIncludeContent === true,
    required: opts.exportRequired === true,
  };
}

/** Every credential the config carries, so the run's redaction covers them too. */
export function telemetrySecrets(cfg: TelemetryConfig | null): string[] {
  if (!cfg) return [];
  return [
    ...Object.values(cfg.otlp?.headers ?? {}),
    ...(cfg.langfuse ? [cfg.langfuse.secretKey] : []),
    ...(cfg.langsmith ? [cfg.langsmith.apiKey] : []),
  ];
}
