import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { errorMessage, isDiskFull } from "../core/errors.js";
import type { Evidence } from "../core/evidence.js";
import type { RunReport } from "../core/report.js";
import { parseEvidenceFile } from "../evidence/index.js";
import type { JudgeBlock } from "../core/judge.js";
import { runJudge } from "../judge/index.js";
import type { RunSpec } from "../plan/matrix.js";
import { resolveProfile, type RubricResult } from "../scoring/index.js";
import { runPaths } from "../store/layout.js";
import {
  resetRunFolder,
  writeBaselineFiles,
  writeEvidence,
  writeRunReport,
  writeValidation,
} from "../store/run-files.js";
import { tempStem } from "../util/temp-names.js";
import { redactValue } from "../util/redact.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import { runValidators, type ValidationReport } from "../validators/index.js";
import {
  createRunDirs,
  installValidation,
  prepareWorkspace,
  removeRunDirs,
} from "../workspace/prepare.js";
import { saveWorkspace } from "../workspace/save.js";
import { chooseSandbox, createSandbox, type Sandbox } from "../sandbox/index.js";
import type { RunContext } from "./context.js";
import { evaluateRun, type AgentSummary } from "./evaluate.js";
import { tailOf } from "./tail.js";
import { runAgentPhase } from "./agent-phase.js";
import { validatorEnv } from "../suite/index.js";
import { openFinishedWorkspace } from "./finished-workspace.js";
import { rubricTaskInput, scoreFinishedRun } from "./score-run.js";
import { renderRunPrompt } from "../plan/prompt.js";
import { writeWorkspaceManifest } from "../store/workspace-manifest.js";
import { reportAgentName } from "../agents/index.js";

/**
 * One run end to end: workspace, agent, evidence, validators, rubric, then the
 * report (src/runner/evaluate.ts). Never throws: a harness fault becomes an
 * errored report. Returns null only when the run was cancelled, so that
 * --resume runs it again.
 */
export async function executeRun(ctx: RunContext, spec: RunSpec): Promise<RunReport | null> {
  const startedAt = new Date();
  const paths = runPaths(ctx.outDir, spec.run_id);
  await resetRunFolder(paths);
  const task = ctx.suite.tasks.find((t) => t.name === spec.task);
  const treatment = ctx.suite.treatments.find((t) => t.name === spec.treatment);
  const stdout = new RedactingLineWriter(paths.stdout, ctx.redact, {
    timesFile: paths.stdoutTimes,
  });
  const stderr = new RedactingLineWriter(paths.stderr, ctx.redact);
  let harnessError: string | null = null;
  let agent: AgentSummary | null = null;
  let evidence: Evidence | null = null;
  let validation: ValidationReport | null = null;
  let scoredValidation: ValidationReport | null = null;
  let rubric: RubricResult | null = null;
  let judge: JudgeBlock | null = null;
  let profileName = ctx.profileOverride ?? "generic";
  let dirs: Awaited<ReturnType<typeof createRunDirs>> | null = null;
  let workspaceSaved = false;
  let runUuid: string | null = null;
  let sandbox: Sandbox | null = null;
  let validatorHome: string | null = null;
  let diskFull: Error | null = null;
  try {
    if (!task || !treatment) throw new Error(`unknown task or treatment for ${spec.run_id}`);
    profileName = ctx.profileOverride ?? treatment.profile ?? task.evaluation.inferred_profile;
    dirs = await createRunDirs(spec.run_id, ctx.tmpBase, ctx.experimentId);
    const preexisting = await prepareWorkspace({
      workspace: dirs.workspace,
      environmentDir: task.environment_dir,
      skills: treatment.skills.map((s) => ({ name: s.name, path: s.path, content: s.content })),
      claudeMd: treatment.claude_md,
      skillsDir: ctx.driver.skillsDir,
      memoryFile: ctx.driver.memoryFile,
      // Hooks are Claude Code settings; other agents get none (docs/manifest.md).
      settingsFile: ctx.driver.name === "claude" ? path.join(".claude", "settings.json") : null,
      hooks: treatment.hooks,
    });
    await writeBaselineFiles(paths, preexisting);
    const hasDockerfile =
      task.environment_dir !== null && existsSync(path.join(task.environment_dir, "Dockerfile"));
    // Safe by default: `auto` (docs/sandbox.md); local only when chosen or nothing else works.
    const choice = ctx.sandbox.cli ?? task.environment.sandbox ?? ctx.sandbox.suite ?? "auto";
    const chosen = chooseSandbox(
      choice,
      { hasDockerfile },
      ctx.sandbox.probe ?? { dockerDaemon: false, bwrap: false },
    );
    ctx.note(
      chosen.kind === "local"
        ? `warning: sandbox for ${task.name}: ${chosen.why}`
        : `sandbox for ${task.name}: ${chosen.kind} (${chosen.why})`,
    );
    sandbox = await createSandbox(chosen.kind, {
      runDirs: dirs,
      task: {
        environmentDir: task.environment_dir,
        cpus: task.environment.cpus,
        memory: task.environment.memory,
        pids: task.environment.pids,
      },
      agentBin: ctx.bin.path,
      resultsDir: ctx.outDir,
      modelEndpoint: ctx.endpoint(spec, "subject").baseUrl,
      agentVersion: ctx.agentVersion ?? undefined,
      runName: spec.run_id,
      experimentId: ctx.experimentId,
      why: chosen.why,
      network: task.environment.network,
      exposeReadOnly: ctx.suite.config.validation?.python_path,
      signal: ctx.signal,
    });
    await sandbox.start();
    // One id for the run's template and its validators' _test_context.json (docs/tasks.md).
    runUuid = randomUUID();
    const prompt = renderRunPrompt(task, treatment, profileName, runUuid);
    const phase = await runAgentPhase({
      ctx,
      spec,
      task,
      profileName,
      dirs,
      prompt,
      stdout,
      stderr,
      simulatorFile: paths.simulator,
      launcher: sandbox.launcher,
    });
    agent = phase.summary;
    await stdout.close();
    await stderr.close();
    const writeFailure = stdout.failure ?? stderr.failure;
    if (writeFailure) throw writeFailure;
    if (phase.aborted) return null;
    const decodeOpts = { workspace: dirs.workspace, preexisting };
    evidence = await parseEvidenceFile(paths.stdout, decodeOpts, ctx.driver.decoder(decodeOpts));
    await installValidation({
      workspace: dirs.workspace,
      validationDir: task.validation_dir,
      dataDir: task.data_dir,
    });
    const ws = dirs.workspace;
    // Outside the run root the agent could write to: made fresh, after the agent has finished.
    validatorHome = await mkdtemp(
      path.join(os.tmpdir(), tempStem("validator-home", ctx.experimentId, process.pid)),
    );
    validation = await runValidators({
      workspace: ws,
      scripts: task.validation.test_scripts,
      targetArtifacts: task.validation.target_artifacts,
      timeoutSec: task.validation.timeout,
      // A HOME of their own: nothing the agent left in its HOME can steer a validator.
      env: {
        ...validatorEnv(ctx.suite.config),
        PATH: ctx.hostEnv.PATH ?? "/usr/bin:/bin",
        HOME: validatorHome,
        LANG: ctx.hostEnv.LANG ?? "C.UTF-8",
      },
      context: {
        run_id: runUuid,
        run_name: spec.run_id,
        task: spec.task,
        treatment_name: spec.treatment,
        native_terminal: task.evaluation.native_terminal,
        rep: spec.rep,
        profile: profileName,
        required_skills: rubricTaskInput(task, treatment).required_skills,
        expected_artifacts: rubricTaskInput(task, treatment).expected_artifacts,
        target_artifacts: task.validation.target_artifacts,
        interaction: agent.interaction,
        events: evidence,
      },
      signal: ctx.signal,
      redact: ctx.redact,
      launcher: sandbox.launcher,
    });
    // The workspace is saved (text files, redacted) with a manifest of everything it held; the
    // rubric then reads that, exactly what `rescore` will read (docs/ARCHITECTURE.md).
    const kept = await saveWorkspace(ws, paths.workspace, ctx.redact);
    await writeWorkspaceManifest(paths.manifest, kept.manifest);
    workspaceSaved = true;
    const scored = scoreFinishedRun({
      profile: resolveProfile(profileName, ctx.suiteProfiles),
      treatmentName: treatment.name,
      task,
      treatment,
      evidence,
      validation,
      interaction: phase.record,
      workspace: await openFinishedWorkspace(paths),
    });
    scoredValidation = scored.validation;
    rubric = scored.rubric;
    const checks = scored.validation ?? { passed: [], failed: [] };
    // The judge reads the saved (text, redacted) workspace: exactly what rescore will see.
    judge = await runJudge({
      config: ctx.judgeFor(spec),
      profile: profileName,
      workspace: paths.workspace,
      baseline: {
        passed: checks.passed,
        failed: [...checks.failed, ...(rubric?.hard_failures ?? [])],
      },
      rubricCriteria: task.evaluation.rubric_criteria,
      instruction: prompt,
      cache: ctx.judgeCache ?? undefined,
      signal: ctx.signal,
      redact: ctx.redact,
      hostEnv: ctx.hostEnv,
      // The CLI judge is Claude Code: the subject's binary only when the subject is Claude too.
      claudeBin: ctx.driver.name === "claude" ? ctx.bin.path : undefined,
      experimentId: ctx.experimentId,
      // The judge's own folder is made outside the run root, which the agent could write to
      // (a planted CLAUDE.md in an ancestor folder would reach a CLI judge).
    });
  } catch (e) {
    harnessError = errorMessage(e);
    if (isDiskFull(e)) diskFull = e instanceof Error ? e : new Error(String(e));
  } finally {
    await stdout.close().catch(() => undefined);
    await stderr.close().catch(() => undefined);
    // The container (if any) goes before the run's folders, whatever happened.
    await sandbox?.stop();
    if (dirs && !ctx.keepWorkspaces) await removeRunDirs(dirs).catch(() => undefined);
    if (validatorHome)
      await rm(validatorHome, { recursive: true, force: true }).catch(() => undefined);
  }
  if (evidence) await writeEvidence(paths, redactValue(evidence, ctx.redact));
  if (validation) await writeValidation(paths, redactValue(validation, ctx.redact));

  const finishedAt = new Date();
  const report = evaluateRun({
    spec,
    experimentId: ctx.experimentId,
    runUuid,
    task,
    treatment,
    profileName,
    agent,
    evidence,
    validation: scoredValidation,
    rubric,
    judge,
    sandbox: sandbox?.record ?? null,
    harnessError,
    stdoutTail: await tailOf(paths.stdout),
    stderrTail: await tailOf(paths.stderr),
    model: ctx.model,
    modelApi: ctx.modelApi?.(spec) ?? null,
    agentInfo: {
      name: reportAgentName(ctx.driver.name),
      bin: ctx.bin.path,
      version: ctx.agentVersion,
    },
    suiteHash: ctx.suite.hash,
    timing: {
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      wall_ms: finishedAt.getTime() - startedAt.getTime(),
    },
    artifacts: {
      stdout: "stdout.jsonl",
      stderr: "stderr.txt",
      events: evidence ? "events.json" : null,
      validation: validation ? "validation.json" : null,
      workspace: workspaceSaved ? "workspace" : null,
    },
  });
  if (diskFull) {
    // Recorded as errored if it still fits (so --resume runs it again); the suite stops here.
    await writeRunReport(paths, redactValue(report, ctx.redact)).catch(() => undefined);
    throw diskFull;
  }
  // The report is the run's commit point: written last, atomically.
  await writeRunReport(paths, redactValue(report, ctx.redact));
  return report;
}
