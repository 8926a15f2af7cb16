/**
 * One command's telemetry: the exporter, plus the collector the agents send their own spans to.
 * `run` starts it before the first run, hands each committed run to it and finishes it after the
 * reports; `rescore` and `export` send a stored results folder with `exportResults`.
 */
import { agentDriver } from "../agents/registry.js";
import { readReports } from "../store/read.js";
import type { RunDigest } from "../core/digest.js";
import type { RunReport } from "../core/report.js";
import { declaredSecrets, makeRedactor, secretsFromEnv, type Redactor } from "../util/redact.js";
import { agentTelemetryEnv, startAgentCollector, type AgentCollector } from "./agent-collector.js";
import {
  resolveTelemetryConfig,
  telemetrySecrets,
  type OtlpTarget,
  type TelemetryConfig,
  type TelemetryOptions,
} from "./config.js";
import { TelemetryExporter, type ExportOutcome } from "./exporter.js";
import { langfuseOtlpTarget } from "./langfuse.js";

export interface SessionOutcome extends ExportOutcome {
  /** Span batches the agents sent to the collector, and how many were forwarded. */
  agent: { requests: number; forwarded: number; failed: number } | null;
}

export interface SessionOptions {
  redact: Redactor;
  note: (message: string) => void;
  skillbenchVersion: string;
}

export class TelemetrySession {
  private constructor(
    private readonly cfg: TelemetryConfig,
    private readonly exporter: TelemetryExporter,
    private readonly collector: AgentCollector | null,
  ) {}

  static async start(cfg: TelemetryConfig, opts: SessionOptions): Promise<TelemetrySession> {
    const targets: OtlpTarget[] = [];
    if (cfg.otlp) targets.push(cfg.otlp);
    if (cfg.langfuse) targets.push(langfuseOtlpTarget(cfg.langfuse));
    let reported = false;
    const collector =
      targets.length > 0
        ? await startAgentCollector({
            targets,
            redact: opts.redact,
            includeContent: cfg.includeContent,
            onError: (m) => {
              if (reported) return;
              reported = true;
              opts.note(`telemetry: ${opts.redact(m)} (reported once; the runs go on)`);
            },
          })
        : null;
    return new TelemetrySession(cfg, new TelemetryExporter(cfg, opts), collector);
  }

  /**
   * Extra environment for a run's subject agent, so its own spans nest under the run span. Only
   * Claude Code is known to take its parent from TRACEPARENT (docs/telemetry.md): the drivers
   * with a `spanEnv`.
   */
  agentEnv(experimentId: string, runId: string, agent: string): Record<string, string> {
    const on = agentDriver(agent)?.spanEnv;
    if (!this.collector || on === undefined) return {};
    return agentTelemetryEnv(this.collector.url, experimentId, runId, this.cfg.includeContent, on);
  }

  /** A run's report.json is written: export the run. */
  runCommitted(outDir: string, report: RunReport): void {
    this.exporter.exportRun(outDir, report);
  }

  /** After the reports: the experiment span, then wait for every send. */
  async finish(
    outDir: string | null,
    reports: RunDigest[],
    gates: Array<{ name: string; passed: boolean; detail: string }> = [],
  ): Promise<SessionOutcome> {
    if (outDir !== null) this.exporter.exportExperiment(outDir, reports, gates);
    const agent = this.collector ? this.collector.stats() : null;
    await this.collector?.close();
    const out = await this.exporter.finish();
    return { ...out, agent: this.collector ? this.collector.stats() : agent };
  }
}

/** Send a stored results folder: every run with a report, then the experiment. */
async function exportResults(
  outDir: string,
  cfg: TelemetryConfig,
  opts: SessionOptions,
): Promise<ExportOutcome> {
  const { reports } = await readReports(outDir);
  const exporter = new TelemetryExporter(cfg, opts);
  for (const r of reports) exporter.exportRun(outDir, r);
  exporter.exportExperiment(outDir, reports);
  return exporter.finish();
}

/**
 * The telemetry of one command from its flags and environment: null when nothing is configured.
 * Its redaction covers the host's credentials (as the run's does), the declared variables and the
 * targets' own keys. Bad flags or a missing key throw InputError (exit 2) before any run.
 */
export async function openTelemetry(
  flags: TelemetryOptions,
  env: Record<string, string | undefined>,
  opts: { declared?: Record<string, string>; note: (m: string) => void; skillbenchVersion: string },
): Promise<TelemetrySession | null> {
  const cfg = resolveTelemetryConfig(flags, env);
  if (!cfg) return null;
  const redact = makeRedactor([
    ...secretsFromEnv(env),
    ...declaredSecrets(opts.declared ?? {}),
    ...telemetrySecrets(cfg),
  ]);
  return TelemetrySession.start(cfg, {
    redact,
    note: opts.note,
    skillbenchVersion: opts.skillbenchVersion,
  });
}

/** `skillbench export`: the same, for a stored results folder. */
export async function exportStoredResults(
  dir: string,
  flags: TelemetryOptions,
  env: Record<string, string | undefined>,
  opts: { note: (m: string) => void; skillbenchVersion: string },
): Promise<ExportOutcome | null> {
  const cfg = resolveTelemetryConfig(flags, env);
  if (!cfg) return null;
  const redact = makeRedactor([...secretsFromEnv(env), ...telemetrySecrets(cfg)]);
  return exportResults(dir, cfg, {
    redact,
    note: opts.note,
    skillbenchVersion: opts.skillbenchVersion,
  });
}
