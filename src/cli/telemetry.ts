/** The telemetry flags shared by run, rescore and export (docs/telemetry.md). */
import type { Command } from "commander";
// Light modules only (the session's, with its exporters, is loaded when a run opens one): the
// commands' registration loads this file (commands/index.ts).
import { SKILLBENCH_VERSION } from "../core/version.js";
import type { TelemetryOptions } from "../telemetry/config.js";
import type { ExportOutcome } from "../telemetry/exporter.js";
import {
  telemetryLines,
  telemetryReporter,
  type TelemetryReporter,
} from "../telemetry/reporter.js";
import type { SessionOutcome } from "../telemetry/session.js";
import { addFlags, TELEMETRY_FLAGS } from "./flags.js";

export type TelemetryFlags = TelemetryOptions;

/** The telemetry flags (cli/flags.ts), under "Options:" (`rescore`, `export`). */
export function withTelemetryOptions(cmd: Command): Command {
  return addFlags(cmd, TELEMETRY_FLAGS, false);
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
  const { openTelemetry } = await import("../telemetry/session.js");
  const session = await openTelemetry(telemetryFlags(f), process.env, {
    declared,
    note: (m) => process.stderr.write(`${m}\n`),
    skillbenchVersion: SKILLBENCH_VERSION,
  });
  return session ? telemetryReporter(session, f.exportRequired === true) : null;
}
