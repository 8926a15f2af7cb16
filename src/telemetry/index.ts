/** Telemetry export: OpenTelemetry GenAI traces, Langfuse and LangSmith (docs/telemetry.md). */
export {
  resolveTelemetryConfig,
  telemetrySecrets,
  type TelemetryConfig,
  type TelemetryOptions,
} from "./config.js";
export { TelemetryExporter, type ExportOutcome } from "./exporter.js";
export { startAgentCollector, agentTelemetryEnv, type AgentCollector } from "./agent-collector.js";
export { langfuseOtlpTarget } from "./langfuse.js";
export { traceIdFor, runSpanId, experimentSpanId } from "./ids.js";
export {
  TelemetrySession,
  exportResults,
  exportStoredResults,
  openTelemetry,
  type SessionOutcome,
} from "./session.js";
