/**
 * One stored run rescored (runner/rescore.ts runs them): its files read once, synchronously
 * (rescore-files.ts), its evidence, validation, rubric, judge block and report derived again
 * exactly as a run derives them, and events.json and report.json written when their bytes change.
 */
import type { PricingTable } from "../cost/pricing.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { Evidence } from "../core/evidence.js";
import { EvidenceSchema } from "../core/evidence.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { parseEvidenceChunks, parseEvidenceFile } from "../evidence/index.js";
import { runJudge } from "../judge/index.js";
import { renderRunPrompt } from "../plan/prompt.js";
import type { RubricProfile } from "../scoring/index.js";
import { runPaths } from "../store/layout.js";
import {
  parseBaselineFiles,
  parseEvidenceCwd,
  parseRunPlan,
  parseRunReport,
  parseValidation,
} from "../store/run-files.js";
import { indexStamp } from "../store/run-index.js";
import { parseWorkspaceManifest } from "../store/workspace-manifest.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import { redactedRecord, type Redactor } from "../util/redact.js";
import { reinterpretValidation, StoredValidationSchema } from "../validators/index.js";
import { agentDriver, defaultAgent } from "../agents/index.js";
import { evaluateRun } from "./evaluate.js";
import { rescoredKey } from "../plan/run-key.js";
import { finishedWorkspaceOf } from "./finished-workspace.js";
import type { JudgeSetup } from "./judge-setup.js";
import {
  readReportText,
  readStoredStream,
  readTextIfPresent,
  readTextOrNull,
  tailText,
  writeRecordIfChanged,
} from "./rescore-files.js";
import { scoreFinishedRun } from "./score-run.js";
import { rescoredArms } from "./arm-integrity.js";
import { rescoredSkillUsage } from "./skill-usage.js";
import { tailOf } from "./tail.js";

type RunPaths = ReturnType<typeof runPaths>;

/** What every run of one rescore shares, settled once. */
export interface RescoreContext {
  outDir: string;
  /** Prices a run's tokens when its agent reported none (docs/cost.md). */
  pricing?: PricingTable | null | undefined;
  /** the profile asked for (--profile), else each run's own */
  profile: string | undefined;
  /** by name (the first of a name, as the suite lists them) */
  tasks: Map<string, TaskSpec>;
  treatments: Map<string, TreatmentSpec>;
  profileNamed: (name: string) => RubricProfile;
  judge: JudgeSetup;
  redact: Redactor;
  hostEnv: Record<string, string | undefined>;
  /** The default agent's binary, for the judge's `cli` transport. */
  cliBin: string | undefined;
  /**
   * Derive each run's report without writing anything (`run --baseline-from` checks a frozen
   * folder it must not change): the result then carries the derived report.
   */
  readOnly?: true | undefined;
}

/** A rescored run: its digest and the index line's parts (stamp, report JSON) of its report.json. */
export interface RescoredRun {
  digest: RunDigest;
  /** anything but the timestamp differs from the stored report */
  changed: boolean;
  stamp: string;
  reportJson: string;
  /** the report as derived from the stored evidence (readOnly contexts only) */
  derived?: RunReport | undefined;
}

/**
 * The evidence decoded from the stored stream by the decoder of the agent that wrote it (paths
 * relative to its workspace, as events.json's `agent.cwd` records it), and the stream's tail.
 */
async function decodeStoredStream(
  paths: RunPaths,
  agentName: string,
  preexisting: Set<string>,
  eventsText: string | null,
  needed: boolean,
): Promise<{ evidence: Evidence | null; tail: string }> {
  if (!needed) return { evidence: null, tail: tailText(paths.stdout) };
  const stream = readStoredStream(paths.stdout);
  // A report naming no known agent was written before drivers: the default agent's stream.
  const driver = agentDriver(agentName) ?? defaultAgent();
  const cwd = driver.cwdInStream === true ? null : parseEvidenceCwd(eventsText);
  const opts = { preexisting, ...(cwd ? { workspace: cwd } : {}) };
  const decoder = driver.decoder(opts);
  if (stream.chunks)
    return { evidence: parseEvidenceChunks(stream.chunks, decoder), tail: stream.tail };
  // Too large to hold: read as a run reads it, a chunk at a time.
  return {
    evidence: await parseEvidenceFile(paths.stdout, opts, decoder),
    tail: await tailOf(paths.stdout),
  };
}

/** The prompt the run gave the agent (its {run_id} is the stored run_uuid). */
function instructionOf(
  task: TaskSpec,
  treatment: TreatmentSpec | undefined,
  profile: string,
  runUuid: string | null,
): string | undefined {
  if (runUuid === null || treatment === undefined) return undefined;
  return renderRunPrompt(task, treatment, profile, runUuid);
}

/** Rescore one run folder; null for a run without a report (incomplete: nothing to rescore). */
export async function rescoreRun(ctx: RescoreContext, id: string): Promise<RescoredRun | null> {
  const paths = runPaths(ctx.outDir, id);
  // Each of the run's files is read once, here, synchronously (rescore-files.ts).
  const stored = readReportText(paths);
  if (stored === null) return null; // an incomplete run: nothing to rescore
  const old = parseRunReport(paths, stored.text);
  const task = ctx.tasks.get(old.task);
  const treatment = ctx.treatments.get(old.treatment);
  // The run's plan (plan.json) says how it was settled; folders written before plans were
  // stored fall back to what the report records.
  const plan = parseRunPlan(readTextOrNull(paths.plan));
  const profileName =
    ctx.profile ?? old.rubric?.profile ?? plan?.profile ?? old.events_summary?.profile ?? "generic";
  const profile = ctx.profileNamed(profileName);
  const baseline = parseBaselineFiles(readTextOrNull(paths.baseline));
  const eventsText = old.artifacts.events ? readTextOrNull(paths.events) : null;
  const { evidence, tail: stdoutTail } = await decodeStoredStream(
    paths,
    old.agent.name,
    baseline,
    eventsText,
    Boolean(old.artifacts.events),
  );
  const validationStored = old.artifacts.validation
    ? reinterpretValidation(
        parseValidation(paths, readTextOrNull(paths.validation), StoredValidationSchema),
      )
    : null;
  const manifestText = readTextIfPresent(paths.manifest);
  const manifest =
    manifestText === null ? null : parseWorkspaceManifest(paths.manifest, manifestText);
  const harnessError = old.harness_error;
  const { validation, rubric } = scoreFinishedRun({
    profile,
    treatmentName: old.treatment,
    task,
    treatment,
    evidence,
    validation: validationStored,
    interaction: old.interaction ?? {
      mode: "none",
      max_turns: plan?.interaction.max_turns ?? task?.interaction.max_turns ?? 0,
      actual_turns: 1,
    },
    workspace: finishedWorkspaceOf(manifest, paths),
  });
  const judgeBlock =
    ctx.judge.config.enabled && validation && task
      ? await runJudge({
          config: ctx.judge.judgeFor({
            task: old.task,
            treatment: old.treatment,
            rep: old.rep,
            agent: agentDriver(old.agent.name)?.name ?? old.agent.name,
          }),
          profile: profileName,
          workspace: paths.workspace,
          baseline: {
            passed: validation.passed,
            failed: [...validation.failed, ...(rubric?.hard_failures ?? [])],
          },
          rubricCriteria: task.evaluation.rubric_criteria,
          instruction: plan?.prompt ?? instructionOf(task, treatment, profileName, old.run_uuid),
          cache: ctx.judge.cache ?? undefined,
          redact: ctx.redact,
          hostEnv: ctx.hostEnv,
          cliBin: ctx.cliBin,
          experimentId: old.experiment_id,
        })
      : old.judge;
  const report = evaluateRun({
    spec: { run_id: old.run_id, task: old.task, treatment: old.treatment, rep: old.rep },
    experimentId: old.experiment_id,
    runUuid: old.run_uuid,
    task,
    treatment,
    profileName,
    agent:
      old.agent_outcome === "not_run"
        ? null
        : {
            outcome: old.agent_outcome,
            exit_code: old.exit_code,
            detail: old.outcome_detail,
            interaction: old.interaction,
          },
    evidence,
    validation,
    rubric,
    judge: judgeBlock,
    sandbox: old.sandbox,
    harnessError,
    stdoutTail,
    stderrTail: tailText(paths.stderr),
    model: old.model,
    pricing: ctx.pricing,
    modelApi: old.model_api,
    timeoutSec: plan?.timeout_sec ?? task?.environment.timeout_sec ?? null,
    armIntegrity: rescoredArms(old, evidence, treatment, ctx.treatments.values()),
    // What was metered while the run ran (and its budget stop) is a record, not recomputed.
    metered: old.metered,
    agentInfo: old.agent,
    suiteHash: old.hashes.suite,
    timing: old.timing,
    artifacts: old.artifacts,
  });
  // A queued run's record of its job (worker, attempts) is history, not a score: kept.
  if (old.queue !== undefined) report.queue = old.queue;
  // Its content key is kept (now scored under this scoring version), and where it was reused from.
  if (old.run_key !== undefined) report.run_key = rescoredKey(old.run_key);
  if (old.reused_from !== undefined) report.reused_from = old.reused_from;
  // After the run key, where a run's own report.json has it (its key is set once assembled).
  const skillUsage = rescoredSkillUsage(old, evidence);
  if (skillUsage !== undefined) report.skill_usage = skillUsage;
  // Changed: anything but the timestamp differs. With equal timestamps (the stored finish
  // time, as a rule) the whole texts tell the same, and the old one is the index's when
  // report.json stays as it is.
  const oldJson = JSON.stringify(old);
  const changed =
    old.timestamp === report.timestamp
      ? oldJson !== JSON.stringify(report)
      : JSON.stringify({ ...old, timestamp: "" }) !== JSON.stringify({ ...report, timestamp: "" });
  if (ctx.readOnly)
    return {
      digest: digestOf(old),
      changed,
      stamp: indexStamp(stored.stat),
      reportJson: oldJson,
      derived: report,
    };
  // A file whose bytes would not change is left as it is (its stamp too: the index line
  // below stays current).
  if (evidence)
    writeRecordIfChanged(
      paths.events,
      EvidenceSchema,
      redactedRecord(evidence, ctx.redact),
      eventsText,
    );
  const written = writeRecordIfChanged(
    paths.report,
    RunReportSchema,
    redactedRecord(report, ctx.redact),
    stored.text,
  );
  // What the index holds is what RunReportSchema makes of report.json as it now is.
  const current = written?.data ?? old;
  return {
    digest: digestOf(current),
    changed,
    stamp: indexStamp(written?.stat ?? stored.stat),
    reportJson: written ? JSON.stringify(written.data) : oldJson,
  };
}
