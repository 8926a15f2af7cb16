/** The telemetry flags shared by run, rescore and export (docs/telemetry.md). */
import type { Command } from "commander";
import {
  openTelemetry,
  SKILLBENCH_VERSION,
  type ExportOutcome,
  type ProgressEvent,
  type RunDigest,
  type SessionOutcome,
  type TelemetryOptions,
  type TelemetrySession,
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
  for (const t of out.targets)
    write(
      `telemetry: ${t.target}: ${t.sent} sent` +
        (t.failures > 0 ? `, ${t.failures} failed (${t.first_error ?? "unknown"})` : "") +
        (t.skipped > 0 ? `, ${t.skipped} not tried after repeated failures` : "") +
        "\n",
    );
  if ("agent" in out && out.agent && out.agent.requests > 0)
    write(
      `telemetry: agent spans: ${out.agent.forwarded} batches forwarded of ${out.agent.requests}\n`,
    );
  return required && !out.ok;
}

/** Telemetry around one `run` or `eval`: progress hook, agent environment, and the end. */
export class RunTelemetry {
  private outDir: string | null = null;
  private constructor(
    private readonly session: TelemetrySession,
    private readonly required: boolean,
  ) {}

  /** Null when no target is configured; bad settings throw InputError (exit 2) before any run. */
  static async open(
    f: TelemetryFlags,
    declared: Record<string, string>,
  ): Promise<RunTelemetry | null> {
    const session = await openTelemetry(telemetryFlags(f), process.env, {
      declared,
      note: (m) => process.stderr.write(`${m}\n`),
      skillbenchVersion: SKILLBENCH_VERSION,
    });
    return session ? new RunTelemetry(session, f.exportRequired === true) : null;
  }

  /** The run options that feed telemetry: every committed run is exported as it lands. */
  hooks(progress: (e: ProgressEvent) => void): {
    onProgress: (e: ProgressEvent) => void;
    agentEnv: (run: {
      experimentId: string;
      runId: string;
      agent: string;
    }) => Record<string, string>;
  } {
    return {
      onProgress: (e) => {
        if (e.type === "plan") this.outDir = e.outDir;
        if (e.type === "end" && e.report && this.outDir !== null)
          this.session.runCommitted(this.outDir, e.report);
        progress(e);
      },
      agentEnv: ({ experimentId, runId, agent }) =>
        this.session.agentEnv(experimentId, runId, agent),
    };
  }

  /** Send the experiment, wait for every send, print one line per target; the new exit code. */
  async close(
    reports: RunDigest[],
    exitCode: number,
    gates: Array<{ name: string; passed: boolean; detail: string }> = [],
  ): Promise<number> {
    const out = await this.session.finish(this.outDir, reports, gates);
    const failed = reportTelemetry(out, this.required, (s) => process.stderr.write(s));
    return failed && exitCode === 0 ? 1 : exitCode;
  }
}
