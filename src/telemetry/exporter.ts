/**
 * The telemetry exporter of one command (docs/telemetry.md): `run`, `rescore` and `export` hand
 * it each committed run and, at the end, the experiment; it sends them to every configured
 * target. Export is best-effort unless `--export-required`: a target's first failure is reported
 * once, later ones are counted, and nothing here ever fails or slows a run (sends are queued and
 * awaited only by `finish`).
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { RunDigest } from "../core/digest.js";
import type { RunReport } from "../core/report.js";
import { experimentPaths } from "../store/layout.js";
import { readMetadata, type Metadata } from "../store/metadata.js";
import type { Redactor } from "../util/redact.js";
import { DEFAULT_MAX_CONTENT_CHARS, type ContentPolicy } from "./content.js";
import type { OtlpTarget, TelemetryConfig } from "./config.js";
import {
  decorateForLangfuse,
  experimentScores,
  langfuseOtlpTarget,
  runScores,
  sendScores,
} from "./langfuse.js";
import { langsmithPayload, sendLangsmithRun, type TaskReference } from "./langsmith.js";
import { materialise, otlpExporter, sendSpans } from "./otlp.js";
import { planExperimentSpan } from "./plan-experiment.js";
import { planRunSpans } from "./plan-run.js";
import { readRunTraceInput } from "./read-run.js";
import type { SpanPlan } from "./types.js";

export interface TargetOutcome {
  target: "otlp" | "langfuse" | "langsmith";
  /** Spans (OTLP, Langfuse) or runs (LangSmith) accepted. */
  sent: number;
  failures: number;
  /** Sends not tried because the target had failed MAX_FAILS_IN_A_ROW times in a row. */
  skipped: number;
  first_error: string | null;
}

/** A target that failed this many times in a row is given up for the rest of the command. */
const MAX_FAILS_IN_A_ROW = 3;

export interface ExportOutcome {
  targets: TargetOutcome[];
  /** True when every configured target accepted everything. */
  ok: boolean;
}

const SuiteTasksSchema = z.object({
  tasks: z.array(
    z
      .object({
        name: z.string(),
        metadata: z.object({ difficulty: z.string().nullable().optional() }).loose(),
        evaluation: z
          .object({
            expected_artifacts: z.array(z.unknown()).optional(),
            required_skills: z.array(z.string()).optional(),
            rubric_criteria: z.array(z.unknown()).optional(),
          })
          .loose(),
      })
      .loose(),
  ),
});

export interface ExporterOptions {
  redact: Redactor;
  /** One line for the user (a target's first failure). */
  note: (message: string) => void;
  skillbenchVersion: string;
}

export class TelemetryExporter {
  private readonly policy: ContentPolicy;
  private readonly outcomes = new Map<TargetOutcome["target"], TargetOutcome>();
  private readonly pending = new Set<Promise<void>>();
  private meta: Metadata | null | undefined;
  private tasks: Map<string, TaskReference> | undefined;

  constructor(
    readonly config: TelemetryConfig,
    private readonly opts: ExporterOptions,
  ) {
    this.policy = {
      includeContent: config.includeContent,
      redact: opts.redact,
      maxChars: DEFAULT_MAX_CONTENT_CHARS,
    };
    if (config.otlp) this.outcome("otlp");
    if (config.langfuse) this.outcome("langfuse");
    if (config.langsmith) this.outcome("langsmith");
  }

  private outcome(target: TargetOutcome["target"]): TargetOutcome {
    let o = this.outcomes.get(target);
    if (!o) {
      o = { target, sent: 0, failures: 0, skipped: 0, first_error: null };
      this.outcomes.set(target, o);
    }
    return o;
  }

  private readonly inARow = new Map<TargetOutcome["target"], number>();

  /** False once the target failed MAX_FAILS_IN_A_ROW times in a row (the send is counted). */
  private usable(target: TargetOutcome["target"]): boolean {
    if ((this.inARow.get(target) ?? 0) < MAX_FAILS_IN_A_ROW) return true;
    this.outcome(target).skipped += 1;
    return false;
  }

  private record(target: TargetOutcome["target"], error: string | null, sent: number): void {
    const o = this.outcome(target);
    if (error === null) {
      o.sent += sent;
      this.inARow.set(target, 0);
      return;
    }
    this.inARow.set(target, (this.inARow.get(target) ?? 0) + 1);
    o.failures += 1;
    if (o.first_error === null) {
      o.first_error = this.opts.redact(error);
      this.opts.note(
        `telemetry: export to ${target} failed (${o.first_error}); ` +
          (this.config.required
            ? "--export-required: the command will exit 1"
            : "the runs go on; `skillbench export DIR` can send it again later"),
      );
    }
  }

  /** Sends in flight at most: a 10,000-run folder must not open 10,000 connections. */
  private static readonly CONCURRENCY = 4;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  private track(job: () => Promise<void>): void {
    const q = (async () => {
      if (this.active >= TelemetryExporter.CONCURRENCY)
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.active += 1;
      try {
        await job();
      } catch (e) {
        this.opts.note(`telemetry: ${this.opts.redact(String(e))}`);
      } finally {
        this.active -= 1;
        this.waiting.shift()?.();
      }
    })();
    this.pending.add(q);
    void q.finally(() => this.pending.delete(q));
  }

  private async metadata(outDir: string): Promise<Metadata | null> {
    if (this.meta === undefined) this.meta = await readMetadata(experimentPaths(outDir).metadata);
    return this.meta;
  }

  private async taskReferences(outDir: string): Promise<Map<string, TaskReference>> {
    if (this.tasks) return this.tasks;
    const out = new Map<string, TaskReference>();
    try {
      const json: unknown = JSON.parse(
        await readFile(experimentPaths(outDir).suiteSnapshot, "utf8"),
      );
      const parsed = SuiteTasksSchema.safeParse(json);
      if (parsed.success)
        for (const t of parsed.data.tasks)
          out.set(t.name, {
            difficulty: t.metadata.difficulty ?? null,
            expected_artifacts: t.evaluation.expected_artifacts ?? [],
            required_skills: t.evaluation.required_skills ?? [],
            rubric_criteria: t.evaluation.rubric_criteria ?? [],
          });
    } catch {
      /* no suite.json: reference outputs stay empty */
    }
    this.tasks = out;
    return out;
  }

  private scripted(meta: Metadata | null): boolean {
    return typeof meta?.["model_script"] === "string";
  }

  private async sendPlans(plans: SpanPlan[]): Promise<void> {
    const resource = {
      "service.name": "skillbench",
      "service.version": this.opts.skillbenchVersion,
    };
    const scope = { name: "skillbench", version: this.opts.skillbenchVersion };
    const send = async (
      target: "otlp" | "langfuse",
      t: OtlpTarget,
      p: SpanPlan[],
    ): Promise<void> => {
      const err = await sendSpans(await otlpExporter(t), await materialise(p, resource, scope));
      this.record(target, err, p.length);
    };
    const jobs: Promise<void>[] = [];
    if (this.config.otlp && this.usable("otlp")) jobs.push(send("otlp", this.config.otlp, plans));
    if (this.config.langfuse && this.usable("langfuse"))
      jobs.push(
        send("langfuse", langfuseOtlpTarget(this.config.langfuse), decorateForLangfuse(plans)),
      );
    await Promise.all(jobs);
  }

  /** Queue the export of one committed run (its folder is complete: report.json is written). */
  exportRun(outDir: string, report: RunReport): void {
    this.track(() => this.sendRun(outDir, report));
  }

  private async sendRun(outDir: string, report: RunReport): Promise<void> {
    const meta = await this.metadata(outDir);
    const input = await readRunTraceInput(outDir, report, this.scripted(meta));
    const plans = planRunSpans(input, this.policy);
    const jobs: Promise<void>[] = [this.sendPlans(plans)];
    const lf = this.config.langfuse;
    if (lf && this.usable("langfuse"))
      jobs.push(sendScores(lf, runScores(report)).then((e) => this.record("langfuse", e, 0)));
    const ls = this.config.langsmith;
    if (ls && this.usable("langsmith")) {
      const tasks = await this.taskReferences(outDir);
      const payload = langsmithPayload(
        ls,
        report,
        tasks.get(report.task) ?? null,
        {
          suite: meta?.suite.path ?? "",
          model: meta?.model ?? report.model,
          agentVersion: report.agent.version,
        },
        this.policy,
      );
      jobs.push(sendLangsmithRun(ls, payload).then((e) => this.record("langsmith", e, 1)));
    }
    await Promise.all(jobs);
  }

  /** Queue the experiment's root span (and its Langfuse scores) from the stored metadata. */
  exportExperiment(
    outDir: string,
    reports: RunDigest[],
    qualityGates: Array<{ name: string; passed: boolean; detail: string }> = [],
  ): void {
    this.track(() => this.sendExperiment(outDir, reports, qualityGates));
  }

  private async sendExperiment(
    outDir: string,
    reports: RunDigest[],
    qualityGates: Array<{ name: string; passed: boolean; detail: string }>,
  ): Promise<void> {
    this.meta = undefined; // re-read: the run wrote completed_at since the first look
    const meta = await this.metadata(outDir);
    if (!meta) {
      this.record("otlp", `${outDir}: no readable metadata.json`, 0);
      return;
    }
    const plan = planExperimentSpan({
      experimentId: meta.experiment_id,
      startedAt: meta.started_at,
      completedAt: meta.completed_at,
      suitePath: meta.suite.path,
      suiteHash: meta.suite.hash,
      treatments: meta.treatments,
      model: meta.model,
      skillbenchVersion: meta.versions.skillbench,
      agentVersion: meta.versions.claude,
      scriptedModel: this.scripted(meta),
      reports,
      qualityGates,
    });
    const jobs: Promise<void>[] = [this.sendPlans([plan])];
    const lf = this.config.langfuse;
    if (lf && this.usable("langfuse"))
      jobs.push(
        sendScores(lf, experimentScores(plan, meta.experiment_id)).then((e) =>
          this.record("langfuse", e, 0),
        ),
      );
    await Promise.all(jobs);
  }

  /** Wait for every queued send; the outcome per target. */
  async finish(): Promise<ExportOutcome> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    const targets = [...this.outcomes.values()];
    return { targets, ok: targets.every((t) => t.failures === 0) };
  }
}
