import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { buildAgentEnv } from '../agents/claude/env.js';
import { runClaudeTurn, type TurnResult } from '../agents/claude/turn.js';
import { errorMessage } from '../core/errors.js';
import type { Evidence } from '../core/evidence.js';
import type { RunReport } from '../core/report.js';
import { parseEvidenceFile } from '../evidence/index.js';
import type { JudgeBlock } from '../core/judge.js';
import { runJudge } from '../judge/index.js';
import type { RunSpec } from '../plan/matrix.js';
import { resolveProfile, scoreRubric, type RubricResult } from '../scoring/index.js';
import { runPaths } from '../store/layout.js';
import { renderInstruction, type TaskSpec, type TreatmentSpec } from '../suite/index.js';
import { resolveInside, writeJsonAtomic } from '../util/fs.js';
import { redactValue } from '../util/redact.js';
import { RedactingLineWriter } from '../util/redacting-writer.js';
import { runValidators, type ValidationReport } from '../validators/index.js';
import { createRunDirs, installValidation, prepareWorkspace, removeRunDirs } from '../workspace/prepare.js';
import { saveWorkspace } from '../workspace/save.js';
import type { RunContext } from './context.js';
import { evaluateRun, type AgentSummary } from './evaluate.js';
import { tailOf } from './tail.js';

/** A file-existence check over a workspace folder, refusing paths that leave it. */
export function workspaceFileExists(ws: string): (p: string) => boolean {
  return (p: string): boolean => {
    if (/[*?[]/.test(p)) {
      if (resolveInside(ws, p.replace(/[*?[\]]/g, 'x')) === null) return false;
      return globSync(p, { cwd: ws, dot: true, onlyFiles: false }).length > 0;
    }
    const abs = resolveInside(ws, p);
    return abs !== null && existsSync(abs);
  };
}

/** The inputs of the rubric that come from the task and treatment. */
export function rubricTaskInput(task: TaskSpec, treatment: TreatmentSpec) {
  return {
    required_skills: treatment.required_skills ?? task.evaluation.required_skills,
    expected_artifacts: treatment.expected_artifacts ?? task.evaluation.expected_artifacts,
    require_skill_invocation: treatment.require_skill_invocation ?? task.evaluation.require_skill_invocation,
  };
}

function singleTurnSummary(turn: TurnResult, maxTurns: number): AgentSummary {
  return {
    outcome: turn.outcome,
    exit_code: turn.exit_code,
    detail: turn.detail,
    interaction: { mode: 'none', max_turns: maxTurns, actual_turns: 1, end_reason: turn.outcome, turns: [] },
  };
}

/**
 * One run end to end: workspace, agent, evidence, validators, rubric, then the
 * report (src/runner/evaluate.ts). Never throws: a harness fault becomes an
 * errored report. Returns null only when the run was cancelled, so that
 * --resume runs it again.
 */
export async function executeRun(ctx: RunContext, spec: RunSpec): Promise<RunReport | null> {
  const startedAt = new Date();
  const paths = runPaths(ctx.outDir, spec.run_id);
  await rm(paths.dir, { recursive: true, force: true });
  await mkdir(paths.dir, { recursive: true });
  const task = ctx.suite.tasks.find((t) => t.name === spec.task);
  const treatment = ctx.suite.treatments.find((t) => t.name === spec.treatment);
  const stdout = new RedactingLineWriter(paths.stdout, ctx.redact);
  const stderr = new RedactingLineWriter(paths.stderr, ctx.redact);
  let harnessError: string | null = null;
  let agent: AgentSummary | null = null;
  let evidence: Evidence | null = null;
  let validation: ValidationReport | null = null;
  let rubric: RubricResult | null = null;
  let judge: JudgeBlock | null = null;
  let profileName = ctx.profileOverride ?? 'generic';
  let dirs: Awaited<ReturnType<typeof createRunDirs>> | null = null;
  let workspaceSaved = false;
  let runUuid: string | null = null;
  try {
    if (!task || !treatment) throw new Error(`unknown task or treatment for ${spec.run_id}`);
    profileName = ctx.profileOverride ?? treatment.profile ?? task.evaluation.inferred_profile;
    dirs = await createRunDirs(spec.run_id, ctx.tmpBase);
    const preexisting = await prepareWorkspace({
      workspace: dirs.workspace,
      environmentDir: task.environment_dir,
      skills: treatment.skills.map((s) => ({ name: s.name, path: s.path, content: s.content })),
      claudeMd: treatment.claude_md,
    });
    await writeJsonAtomic(paths.baseline, [...preexisting].sort());
    // One id for the run's template and its validators' context (facts 1.3 and 1.6).
    runUuid = randomUUID();
    const prompt = renderInstruction(task, { run_id: runUuid });
    const endpoint = ctx.endpoint(spec, 'subject');
    const env = buildAgentEnv({
      hostEnv: ctx.hostEnv,
      home: dirs.home,
      configDir: dirs.config,
      tmpDir: dirs.tmp,
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      authToken: endpoint.authToken,
      model: ctx.model ?? undefined,
      declared: ctx.declaredEnv,
      passEnv: ctx.passEnv,
    });
    const timeoutSec = ctx.timeoutSecOverride ?? task.environment.timeout_sec;
    const turn = await runClaudeTurn({
      bin: ctx.bin.path,
      workspace: dirs.workspace,
      prompt,
      env,
      model: ctx.model ?? undefined,
      timeoutMs: timeoutSec * 1000,
      signal: ctx.signal,
      stdout,
      stderr,
    });
    agent = singleTurnSummary(turn, task.interaction.max_turns);
    await stdout.close();
    await stderr.close();
    if (turn.outcome === 'aborted') return null;
    evidence = await parseEvidenceFile(paths.stdout, { workspace: dirs.workspace, preexisting });
    await installValidation({ workspace: dirs.workspace, validationDir: task.validation_dir, dataDir: task.data_dir });
    const ws = dirs.workspace;
    const validatorHome = path.join(dirs.root, 'validator-home');
    await mkdir(validatorHome, { recursive: true });
    validation = await runValidators({
      workspace: ws,
      scripts: task.validation.test_scripts,
      targetArtifacts: task.validation.target_artifacts,
      timeoutSec: task.validation.timeout,
      // A HOME of their own: nothing the agent left in its HOME can steer a validator.
      env: { PATH: ctx.hostEnv.PATH ?? '/usr/bin:/bin', HOME: validatorHome, LANG: ctx.hostEnv.LANG ?? 'C.UTF-8' },
      context: {
        run_id: runUuid,
        run_name: spec.run_id,
        task: spec.task,
        treatment_name: spec.treatment,
        rep: spec.rep,
        profile: profileName,
        required_skills: task.evaluation.required_skills,
        expected_artifacts: task.evaluation.expected_artifacts,
        target_artifacts: task.validation.target_artifacts,
        interaction: agent.interaction,
        events: evidence,
      },
      signal: ctx.signal,
      redact: ctx.redact,
    });
    rubric = scoreRubric(resolveProfile(profileName), {
      evidence,
      baseline: { passed: validation.passed, failed: validation.failed },
      task: rubricTaskInput(task, treatment),
      interaction: { mode: 'none', max_turns: task.interaction.max_turns, actual_turns: 1 },
      fileExists: workspaceFileExists(ws),
    });
    judge = await runJudge({
      config: ctx.judgeFor(spec),
      profile: profileName,
      workspace: ws,
      baseline: { passed: validation.passed, failed: [...validation.failed, ...rubric.hard_failures] },
      rubricCriteria: task.evaluation.rubric_criteria,
      instruction: prompt,
      cache: ctx.judgeCache ?? undefined,
      signal: ctx.signal,
      redact: ctx.redact,
      hostEnv: ctx.hostEnv,
      claudeBin: ctx.bin.path,
      scratchDir: dirs.root,
    });
    await saveWorkspace(ws, paths.workspace, ctx.redact);
    workspaceSaved = true;
  } catch (e) {
    harnessError = errorMessage(e);
  } finally {
    await stdout.close().catch(() => undefined);
    await stderr.close().catch(() => undefined);
    if (dirs && !ctx.keepWorkspaces) await removeRunDirs(dirs).catch(() => undefined);
  }
  if (evidence) await writeJsonAtomic(paths.events, redactValue(evidence, ctx.redact));
  if (validation) await writeJsonAtomic(paths.validation, redactValue(validation, ctx.redact));
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
    validation,
    rubric,
    judge,
    harnessError,
    stdoutTail: await tailOf(paths.stdout),
    stderrTail: await tailOf(paths.stderr),
    model: ctx.model,
    agentInfo: { name: 'claude-code', bin: ctx.bin.path, version: ctx.agentVersion },
    suiteHash: ctx.suite.hash,
    timing: {
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      wall_ms: finishedAt.getTime() - startedAt.getTime(),
    },
    artifacts: {
      stdout: 'stdout.jsonl',
      stderr: 'stderr.txt',
      events: evidence ? 'events.json' : null,
      validation: validation ? 'validation.json' : null,
      workspace: workspaceSaved ? 'workspace' : null,
    },
  });
  // The report is the run's commit point: written last, atomically.
  await writeJsonAtomic(paths.report, redactValue(report, ctx.redact));
  return report;
}
