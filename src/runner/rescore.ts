import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { Evidence } from "../core/evidence.js";
import { EvidenceSchema } from "../core/evidence.js";
import { RunReportSchema } from "../core/report.js";
import { mapPool } from "../util/pool.js";
import { EvidenceBuilder, parseEvidenceChunks, parseEvidenceFile } from "../evidence/index.js";
import { loadSuiteProfiles, resolveProfile, type RubricProfile } from "../scoring/index.js";
import { runPaths } from "../store/layout.js";
import { reinterpretValidation, StoredValidationSchema } from "../validators/index.js";
import { evaluateRun } from "./evaluate.js";
import { writeExperimentReports } from "./finish.js";
import { finishedWorkspaceOf } from "./finished-workspace.js";
import { scoreFinishedRun } from "./score-run.js";
import { renderRunPrompt } from "../plan/prompt.js";
import { readSuiteSnapshot, type SuiteSnapshot } from "../store/suite-snapshot.js";
import { setupJudge, type JudgeFlags } from "./judge-setup.js";
import { runJudge } from "../judge/index.js";
import { loadModelScript, scriptServesRole, startModelServer } from "../model/index.js";
import { makeRedactor, redactValue, secretsFromEnv } from "../util/redact.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import { resolveClaudeBinary } from "../agents/claude/binary.js";
import { agentDriver } from "../agents/index.js";
import {
  parseBaselineFiles,
  parseEvidenceCwd,
  parseRunPlan,
  parseRunReport,
  parseValidation,
} from "../store/run-files.js";
import { parseWorkspaceManifest } from "../store/workspace-manifest.js";
import { indexStamp, RunIndexWriter } from "../store/run-index.js";
import { sha256 } from "../util/hash.js";
import {
  readReportText,
  readStoredStream,
  readTextIfPresent,
  readTextOrNull,
  tailText,
  writeRecordIfChanged,
} from "./rescore-files.js";
import { tailOf } from "./tail.js";

type RunPaths = ReturnType<typeof runPaths>;

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
  const driver = agentDriver(agentName);
  const claude = driver === null || driver.name === "claude";
  const cwd = claude ? null : parseEvidenceCwd(eventsText);
  const opts = { preexisting, ...(cwd ? { workspace: cwd } : {}) };
  const decoder = claude ? new EvidenceBuilder(opts) : driver.decoder(opts);
  if (stream.chunks)
    return { evidence: parseEvidenceChunks(stream.chunks, decoder), tail: stream.tail };
  // Too large to hold: read as a run reads it, a chunk at a time.
  return {
    evidence: await parseEvidenceFile(paths.stdout, opts, decoder),
    tail: await tailOf(paths.stdout),
  };
}

export interface RescoreOptions {
  /** Score every run with this profile instead of the one it was scored with. */
  profile?: string | undefined;
  /** Judge again (answers cached in DIR/judge-cache/); without it a stored judge block is kept. */
  judgeFlags?: JudgeFlags | undefined;
  /** A scripted model to serve the judge. */
  modelScript?: string | undefined;
  hostEnv?: Record<string, string | undefined>;
  ks?: number[] | undefined;
  html?: boolean | undefined;
  onProgress?: (message: string) => void;
}

/**
 * Runs rescored at once. A run's files are read and written synchronously (rescore-files.ts), so
 * this matters only while one waits on something else (a judge on its model).
 */
const RESCORE_CONCURRENCY = 8;
/**
 * Runs rescored between two turns of the event loop: without a turn, nothing asynchronous
 * completes (the run index's writes would pile up in memory; a judge's model would not answer).
 */
const RUNS_PER_TURN = 64;

export interface RescoreResult {
  /** every rescored run, as its digest (the full reports are in the results folder) */
  reports: RunDigest[];
  changed: string[];
  files: string[];
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

/**
 * Recompute every run's evaluation from what is stored — the raw stdout, the
 * saved workspace and the validators' output — and render the reports again.
 * No agent and no validator runs.
 */
export async function rescoreResults(
  outDir: string,
  opts: RescoreOptions = {},
): Promise<RescoreResult> {
  const snapshot = await readSuiteSnapshot(outDir);
  const hostEnv = opts.hostEnv ?? process.env;
  const script = opts.modelScript ? await loadModelScript(opts.modelScript) : null;
  const server = script ? await startModelServer({ script, scriptFile: opts.modelScript }) : null;
  try {
    const scriptId = opts.modelScript ? sha256(await readFile(opts.modelScript)) : "";
    return await rescoreWith(
      outDir,
      snapshot,
      opts,
      hostEnv,
      server?.url ?? null,
      script ? scriptServesRole(script, "judge") : false,
      scriptId,
    );
  } finally {
    await server?.close();
  }
}

async function rescoreWith(
  outDir: string,
  snapshot: SuiteSnapshot,
  opts: RescoreOptions,
  hostEnv: Record<string, string | undefined>,
  serverUrl: string | null,
  scriptHasJudge: boolean,
  scriptId: string,
): Promise<RescoreResult> {
  // The profiles kept in the results folder: edit them there and rescore.
  const suiteProfiles = await loadSuiteProfiles(
    snapshot.profiles.map((p) => ({ name: p.name, file: path.join(outDir, p.file) })),
  );
  const judge = setupJudge({
    flags: opts.judgeFlags ?? {},
    hostEnv,
    suiteSection: undefined,
    outDir,
    scriptedServerUrl: serverUrl,
    scriptHasJudge,
    scriptId,
  });
  const redact = makeRedactor(secretsFromEnv(hostEnv));
  const bin = resolveClaudeBinary({ env: hostEnv });
  let ids: string[];
  try {
    ids = (await readdir(`${outDir}/runs`, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    throw new InputError(`${outDir}: not a skillbench results folder (no runs/ folder)`, {
      file: outDir,
    });
  }
  // Looked up once per rescore, not per run (the first of a name, as the suite lists them).
  const tasks = new Map<string, TaskSpec>();
  for (const t of snapshot.tasks) if (!tasks.has(t.name)) tasks.set(t.name, t);
  const treatments = new Map<string, TreatmentSpec>();
  for (const t of snapshot.treatments) if (!treatments.has(t.name)) treatments.set(t.name, t);
  const profiles = new Map<string, RubricProfile>();
  const profileNamed = (name: string): RubricProfile => {
    let p = profiles.get(name);
    if (p === undefined) profiles.set(name, (p = resolveProfile(name, suiteProfiles)));
    return p;
  };
  // The run index is written anew beside the old one and renamed over it at the end (never
  // appended to: a folder copied with hard links shares its index with the original), with a
  // line for every rescored run, so that the experiment reports read it instead of every
  // report.json again.
  const index = await RunIndexWriter.create(outDir);
  // Runs are rescored RESCORE_CONCURRENCY at a time (a judge waits on its model); what is kept
  // of each is its digest, in id order.
  const done: Array<{ digest: RunDigest; changed: boolean } | null> = ids.map(() => null);
  try {
    await mapPool(ids, RESCORE_CONCURRENCY, async (id, i) => {
      if (i % RUNS_PER_TURN === RUNS_PER_TURN - 1)
        await new Promise<void>((resolve) => setImmediate(resolve));
      const paths = runPaths(outDir, id);
      // Each of the run's files is read once, here, synchronously (rescore-files.ts).
      const stored = readReportText(paths);
      if (stored === null) return; // an incomplete run: nothing to rescore
      const old = parseRunReport(paths, stored.text);
      const task = tasks.get(old.task);
      const treatment = treatments.get(old.treatment);
      // The run's plan (plan.json) says how it was settled; folders written before plans were
      // stored fall back to what the report records.
      const plan = parseRunPlan(readTextOrNull(paths.plan));
      const profileName =
        opts.profile ??
        old.rubric?.profile ??
        plan?.profile ??
        old.events_summary?.profile ??
        "generic";
      const profile = profileNamed(profileName);
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
        judge.config.enabled && validation && task
          ? await runJudge({
              config: judge.judgeFor({
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
              instruction:
                plan?.prompt ?? instructionOf(task, treatment, profileName, old.run_uuid),
              cache: judge.cache ?? undefined,
              redact,
              hostEnv,
              claudeBin: "error" in bin ? undefined : bin.path,
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
        modelApi: old.model_api,
        agentInfo: old.agent,
        suiteHash: old.hashes.suite,
        timing: old.timing,
        artifacts: old.artifacts,
      });
      // Changed: anything but the timestamp differs. With equal timestamps (the stored finish
      // time, as a rule) the whole texts tell the same, and the old one is the index's when
      // report.json stays as it is.
      const oldJson = JSON.stringify(old);
      const changed =
        old.timestamp === report.timestamp
          ? oldJson !== JSON.stringify(report)
          : JSON.stringify({ ...old, timestamp: "" }) !==
            JSON.stringify({ ...report, timestamp: "" });
      // A file whose bytes would not change is left as it is (its stamp too: the index line
      // below stays current).
      if (evidence)
        writeRecordIfChanged(
          paths.events,
          EvidenceSchema,
          redactValue(evidence, redact),
          eventsText,
        );
      const written = writeRecordIfChanged(
        paths.report,
        RunReportSchema,
        redactValue(report, redact),
        stored.text,
      );
      // What the index holds is what RunReportSchema makes of report.json as it now is.
      const current = written?.data ?? old;
      const digest = digestOf(current);
      // The index's copy of the digest holds its shared values once for all runs (memory that
      // does not grow with every run's copy of them).
      const kept = index
        ? index.add(
            id,
            indexStamp(written?.stat ?? stored.stat),
            digest,
            written ? JSON.stringify(written.data) : oldJson,
          ).digest
        : digest;
      done[i] = { digest: kept, changed };
      await index?.drained();
      opts.onProgress?.(`${changed ? "rescored" : "unchanged"} ${id}`);
    });
  } finally {
    // Also after a failure: its lines are those of runs whose report.json they match.
    await index?.commit();
  }
  const reports = done.flatMap((d) => (d ? [d.digest] : []));
  const changed = ids.filter((_, i) => done[i]?.changed === true);
  if (reports.length === 0)
    throw new InputError(`${outDir}: no run reports found: run a suite first`, { file: outDir });
  const files = await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html });
  return { reports, changed, files };
}
