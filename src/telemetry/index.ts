/** Telemetry export: OpenTelemetry GenAI traces, Langfuse and LangSmith (docs/telemetry.md). */
export { type TelemetryOptions } from "./config.js";
export { type ExportOutcome } from "./exporter.js";
export {
  TelemetrySession,
  exportStoredResults,
  openTelemetry,
  type SessionOutcome,
} from "./session.js";
export { telemetryLines, telemetryReporter, type TelemetryReporter } from "./reporter.js";
