/** The telemetry flags shared by run, rescore and export (docs/telemetry.md). */
import type { Command } from "commander";
import {
  openTelemetry,
  SKILLBENCH_VERSION,
  telemetryLines,
  telemetryReporter,
  type ExportOutcome,
  type SessionOutcome,
  type TelemetryOptions,
  type TelemetryReporter,
} from "../index.js";
import { collect } from "./args.js";

export type TelemetryFlags = TelemetryOptions;

export function withTelemetryOptions(cmd: Command): Command {
  return cmd
    .option(
      "--otel-endpoint <url>",
      "send OpenTelemetry traces (OTLP/HTTP) to this base URL (also OTEL_EXPORTER_OTLP_ENDPOINT)",
    )
    .option(
      "--otel-protocol <protocol>",
      "http/protobuf (default) or http/json (also OTEL_EXPORTER_OTLP_PROTOCOL)",
    )
    .option("--otel-header <key=value>", "a header for the OTLP endpoint (repeatable)", collect)
    .option(
      "--otel-include-content",
      "export prompts, tool inputs and outputs as text (redacted) instead of hash and length",
    )
    .option(
      "--langfuse",
      "export to Langfuse (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, LANGFUSE_BASE_URL)",
    )
    .option(
      "--langsmith [project]",
      "export to LangSmith (LANGSMITH_API_KEY; project, default skillbench)",
    )
    .option("--export-required", "a failed export fails the command (exit 1) instead of a warning");
}

export function telemetryFlags(f: TelemetryFlags): TelemetryOptions {
  return {
    otelEndpoint: f.otelEndpoint,
    otelProtocol: f.otelProtocol,
    otelHeader: f.otelHeader,
    otelIncludeContent: f.otelIncludeContent,
    langfuse: f.langfuse,
    langsmith: f.langsmith,
    exportRequired: f.exportRequired,
  };
}

/** One line per target; true when the command must fail (a required export failed). */
export function reportTelemetry(
  out: ExportOutcome | SessionOutcome,
  required: boolean,
  write: (s: string) => void,
): boolean {
  for (const line of telemetryLines(out)) write(`${line}\n`);
  return required && !out.ok;
}

/**
 * The telemetry of one `run`, `eval` or `calibrate` as a reporter: null when no target is
 * configured; bad settings throw InputError (exit 2) before any run.
 */
export async function openTelemetryReporter(
  f: TelemetryFlags,
  declared: Record<string, string>,
): Promise<TelemetryReporter | null> {
  const session = await openTelemetry(telemetryFlags(f), process.env, {
    declared,
    note: (m) => process.stderr.write(`${m}\n`),
    skillbenchVersion: SKILLBENCH_VERSION,
  });
  return session ? telemetryReporter(session, f.exportRequired === true) : null;
}
