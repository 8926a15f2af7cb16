import { readdir, readFile } from "node:fs/promises";
import { InputError } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import { mapPool } from "../util/pool.js";
import { parseEvidenceFile } from "../evidence/index.js";
import { loadSuiteProfiles, resolveProfile } from "../scoring/index.js";
import path from "node:path";
import { runPaths } from "../store/layout.js";
import { reinterpretValidation, StoredValidationSchema } from "../validators/index.js";
import { evaluateRun } from "./evaluate.js";
import { writeExperimentReports } from "./finish.js";
import { openFinishedWorkspace } from "./finished-workspace.js";
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
import type { Evidence } from "../core/evidence.js";

/** The stored stream, read by the decoder of the agent that wrote it (paths relative to its workspace). */
async function decodeStoredStream(
  paths: ReturnType<typeof runPaths>,
  agentName: string,
  preexisting: Set<string>,
): Promise<Evidence> {
  const driver = agentDriver(agentName);
  if (driver === null || driver.name === "claude")
    return parseEvidenceFile(paths.stdout, { preexisting });
  const cwd = await readEvidenceCwd(paths);
  const opts = { preexisting, ...(cwd ? { workspace: cwd } : {}) };
  return parseEvidenceFile(paths.stdout, opts, driver.decoder(opts));
}
import { tailOf } from "./tail.js";
import {
  hasRunReport,
  readBaselineFiles,
  readEvidenceCwd,
  readRunPlan,
  readRunReport,
  readValidation,
  writeEvidence,
  writeRunReport,
} from "../store/run-files.js";
import { sha256 } from "../util/hash.js";

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

/** Runs rescored at once: each spends most of its time reading and writing its files. */
const RESCORE_CONCURRENCY = 8;

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
  // Runs are rescored RESCORE_CONCURRENCY at a time (each waits on its files most of the
  // time); what is kept of each is its digest, in id order.
  const done: Array<{ digest: RunDigest; changed: boolean } | null> = ids.map(() => null);
  await mapPool(ids, RESCORE_CONCURRENCY, async (id, i) => {
    const paths = runPaths(outDir, id);
    if (!(await hasRunReport(paths))) return; // an incomplete run: nothing to rescore
    const old = await readRunReport(paths);
    const task = snapshot.tasks.find((t) => t.name === old.task);
    const treatment = snapshot.treatments.find((t) => t.name === old.treatment);
    // The run's plan (plan.json) says how it was settled; folders written before plans were
    // stored fall back to what the report records.
    const plan = await readRunPlan(paths);
    const profileName =
      opts.profile ??
      old.rubric?.profile ??
      plan?.profile ??
      old.events_summary?.profile ??
      "generic";
    const profile = resolveProfile(profileName, suiteProfiles);
    const baseline = await readBaselineFiles(paths);
    const evidence = old.artifacts.events
      ? await decodeStoredStream(paths, old.agent.name, baseline)
      : null;
    const stored = old.artifacts.validation
      ? reinterpretValidation(await readValidation(paths, StoredValidationSchema))
      : null;
    const harnessError = old.harness_error;
    const { validation, rubric } = scoreFinishedRun({
      profile,
      treatmentName: old.treatment,
      task,
      treatment,
      evidence,
      validation: stored,
      interaction: old.interaction ?? {
        mode: "none",
        max_turns: plan?.interaction.max_turns ?? task?.interaction.max_turns ?? 0,
        actual_turns: 1,
      },
      workspace: await openFinishedWorkspace(paths),
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
            instruction: plan?.prompt ?? instructionOf(task, treatment, profileName, old.run_uuid),
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
      stdoutTail: await tailOf(paths.stdout),
      stderrTail: await tailOf(paths.stderr),
      model: old.model,
      modelApi: old.model_api,
      agentInfo: old.agent,
      suiteHash: old.hashes.suite,
      timing: old.timing,
      artifacts: old.artifacts,
    });
    const before = JSON.stringify({ ...old, timestamp: "" });
    const after = JSON.stringify({ ...report, timestamp: "" });
    if (evidence) await writeEvidence(paths, redactValue(evidence, redact));
    await writeRunReport(paths, redactValue(report, redact));
    done[i] = { digest: digestOf(report), changed: before !== after };
    opts.onProgress?.(`${before !== after ? "rescored" : "unchanged"} ${id}`);
  });
  const reports = done.flatMap((d) => (d ? [d.digest] : []));
  const changed = ids.filter((_, i) => done[i]?.changed === true);
  if (reports.length === 0)
    throw new InputError(`${outDir}: no run reports found: run a suite first`, { file: outDir });
  const files = await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html });
  return { reports, changed, files };
}
