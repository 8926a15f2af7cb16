/**
 * The telemetry session as a reporter (report/reporters/types.ts): every committed run is
 * exported as it lands, the experiment span after the reports, then one line per target. The
 * built-in names `otel`, `langfuse` and `langsmith` are this one reporter's targets, chosen by the
 * telemetry options (docs/telemetry.md).
 */
import type { RunDigest } from "../core/digest.js";
import type { Reporter, ReporterOutcome } from "../report/reporters/types.js";
import type { ExportOutcome } from "./exporter.js";
import type { SessionOutcome, TelemetrySession } from "./session.js";

/** One line per target (and one for the agents' own spans); each ends with a newline. */
export function telemetryLines(out: ExportOutcome | SessionOutcome): string[] {
  const lines = out.targets.map(
    (t) =>
      `telemetry: ${t.target}: ${t.sent} sent` +
      (t.failures > 0 ? `, ${t.failures} failed (${t.first_error ?? "unknown"})` : "") +
      (t.skipped > 0 ? `, ${t.skipped} not tried after repeated failures` : ""),
  );
  if ("agent" in out && out.agent && out.agent.requests > 0)
    lines.push(
      `telemetry: agent spans: ${out.agent.forwarded} batches forwarded of ${out.agent.requests}`,
    );
  return lines;
}

export interface TelemetryReporter extends Reporter {
  /** Extra environment for a run's subject agent, so its own spans nest under the run span. */
  agentEnv: NonNullable<Reporter["agentEnv"]>;
}

/** `required`: a failed export fails the command (--export-required). */
export function telemetryReporter(session: TelemetrySession, required: boolean): TelemetryReporter {
  // The folder the plan named: the experiment span is sent only once there is one.
  let outDir: string | null = null;
  const finish = async (
    reports: RunDigest[],
    gates: Array<{ name: string; passed: boolean; detail: string }>,
  ): Promise<ReporterOutcome> => {
    const out = await session.finish(outDir, reports, gates);
    return { notes: telemetryLines(out), failed: required && !out.ok };
  };
  return {
    name: "telemetry",
    onPlan: (plan) => {
      outDir = plan.outDir;
    },
    onRunEnd: (_dir, report) => {
      if (outDir !== null) session.runCommitted(outDir, report);
    },
    onExperimentEnd: (r) => finish(r.reports, r.gates),
    onAbort: (reports) => finish(reports, []),
    agentEnv: ({ experimentId, runId, agent }) => session.agentEnv(experimentId, runId, agent),
  };
}
