import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { buildAgentEnv } from '../agents/claude/env.js';
import { runClaudeTurn, type TurnResult } from '../agents/claude/turn.js';
import { attributeFailures, classifySample } from '../analysis/index.js';
import { errorMessage } from '../core/errors.js';
import type { Evidence } from '../core/evidence.js';
import { REPORT_SCHEMA, type Outcome, type RunReport } from '../core/report.js';
import { parseEvidenceFile } from '../evidence/index.js';
import type { RunSpec } from '../plan/matrix.js';
import { resolveProfile, scoreRubric, type RubricResult } from '../scoring/index.js';
import { runPaths } from '../store/layout.js';
import { renderInstruction, type TaskSpec, type TreatmentSpec } from '../suite/index.js';
import { resolveInside, writeJsonAtomic } from '../util/fs.js';
import { RedactingLineWriter } from '../util/redacting-writer.js';
import { redactValue } from '../util/redact.js';
import { runValidators, type ValidationReport } from '../validators/index.js';
import { createRunDirs, installValidation, prepareWorkspace, removeRunDirs } from '../workspace/prepare.js';
import { saveWorkspace } from '../workspace/save.js';
import type { RunContext } from './context.js';
import { summarizeEvents } from './events-summary.js';

/** Claude Code prints a result event even when the model API failed: that is noise, not the agent. */
function apiErrorOf(e: Evidence | null): { status: number | null; message: string } | null {
  const last = e?.results[e.results.length - 1];
  if (!last || last.terminal_reason !== 'api_error') return null;
  return { status: last.api_error_status, message: last.result ?? '' };
}

async function tail(file: string, bytes: number): Promise<string> {
  try {
    const fh = await open(file, 'r');
    try {
      const { size } = await fh.stat();
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      await fh.read(buf, 0, buf.length, start);
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

function runOutcome(turn: TurnResult | null, harnessError: string | null): Outcome {
  if (harnessError !== null || turn === null) return 'harness_error';
  switch (turn.outcome) {
    case 'completed':
      return 'completed';
    case 'timeout':
      return 'timeout';
    case 'spawn_error':
    case 'aborted':
      return 'harness_error';
    default:
      return 'agent_error';
  }
}

function agentFailureCheck(turn: TurnResult): string | null {
  switch (turn.outcome) {
    case 'completed':
      return null;
    case 'timeout':
      return `Agent timed out: ${turn.detail}`;
    case 'agent_error':
    case 'crashed':
    case 'no_result':
    case 'empty_output':
      return `Agent execution failed with exit code ${String(turn.exit_code)} (${turn.outcome}): ${turn.detail}`;
    default:
      return null;
  }
}

/**
 * One run end to end: workspace, agent, evidence, validators, rubric,
 * attribution, sample quality, and the run's files. Never throws: a harness
 * fault becomes an errored report. Returns null only when the run was
 * cancelled, so that --resume runs it again.
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
  let turn: TurnResult | null = null;
  let evidence: Evidence | null = null;
  let validation: ValidationReport | null = null;
  let rubric: RubricResult | null = null;
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
    turn = await runClaudeTurn({
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
        events: evidence,
      },
      signal: ctx.signal,
      redact: ctx.redact,
    });
    const fileExists = (p: string): boolean => {
      if (/[*?[]/.test(p)) {
        if (resolveInside(ws, p.replace(/[*?[\]]/g, 'x')) === null) return false;
        return globSync(p, { cwd: ws, dot: true, onlyFiles: false }).length > 0;
      }
      const abs = resolveInside(ws, p);
      return abs !== null && existsSync(abs);
    };
    rubric = scoreRubric(resolveProfile(profileName), {
      evidence,
      baseline: { passed: validation.passed, failed: validation.failed },
      task: {
        required_skills: treatment.required_skills ?? task.evaluation.required_skills,
        expected_artifacts: treatment.expected_artifacts ?? task.evaluation.expected_artifacts,
        require_skill_invocation: treatment.require_skill_invocation ?? task.evaluation.require_skill_invocation,
      },
      interaction: { mode: 'none', max_turns: task.interaction.max_turns, actual_turns: 1 },
      fileExists,
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
  return finishReport({ ctx, spec, task, treatment, startedAt, turn, evidence, validation, rubric, profileName, harnessError, workspaceSaved, runUuid });
}

async function finishReport(a: {
  ctx: RunContext;
  spec: RunSpec;
  task: TaskSpec | undefined;
  treatment: TreatmentSpec | undefined;
  startedAt: Date;
  turn: TurnResult | null;
  evidence: Evidence | null;
  validation: ValidationReport | null;
  rubric: RubricResult | null;
  profileName: string;
  harnessError: string | null;
  workspaceSaved: boolean;
  runUuid: string | null;
}): Promise<RunReport> {
  const { ctx, spec } = a;
  const paths = runPaths(ctx.outDir, spec.run_id);
  const checksFailed: string[] = [];
  const checksPassed: string[] = [];
  if (a.turn) {
    const f = agentFailureCheck(a.turn);
    if (f) checksFailed.push(f);
  }
  if (a.validation) {
    checksPassed.push(...a.validation.passed);
    checksFailed.push(...a.validation.failed);
  }
  if (a.rubric) checksFailed.push(...a.rubric.hard_failures);
  if (a.harnessError) checksFailed.push(`Harness error: ${a.harnessError}`);
  const outcome = runOutcome(a.turn, a.harnessError);
  const attribution = attributeFailures({
    failed: checksFailed,
    skills_invoked: a.evidence?.skills_invoked ?? [],
    profile: a.profileName,
  });
  const stdoutTail = await tail(paths.stdout, 64 * 1024);
  const stderrText = await tail(paths.stderr, 64 * 1024);
  const sample = classifySample({
    outcome,
    exit_code: a.turn?.exit_code ?? null,
    has_result: (a.evidence?.results.length ?? 0) > 0,
    stdout_tail: stdoutTail,
    stderr: stderrText,
    failed: checksFailed,
    attribution,
    total_tokens: a.evidence?.tokens?.total ?? null,
    total_cost_usd: a.evidence?.total_cost_usd ?? null,
    harness_error: a.harnessError,
    api_error: apiErrorOf(a.evidence),
  });
  if (a.evidence) await writeJsonAtomic(paths.events, redactValue(a.evidence, ctx.redact));
  if (a.validation) await writeJsonAtomic(paths.validation, redactValue(a.validation, ctx.redact));
  const finishedAt = new Date();
  const passed = checksFailed.length === 0;
  const report: RunReport = {
    schema: REPORT_SCHEMA,
    run_id: spec.run_id,
    run_uuid: a.runUuid,
    experiment_id: ctx.experimentId,
    task: spec.task,
    treatment: spec.treatment,
    rep: spec.rep,
    passed,
    status: outcome === 'harness_error' ? 'errored' : passed ? 'passed' : 'failed',
    outcome,
    agent_outcome: a.turn?.outcome ?? 'not_run',
    outcome_detail: a.harnessError ?? a.turn?.detail ?? '',
    exit_code: a.turn?.exit_code ?? null,
    checks_passed: checksPassed,
    checks_failed: checksFailed,
    rubric: a.rubric
      ? {
          profile: a.rubric.profile,
          dimensions: a.rubric.dimensions,
          weighted_score: a.rubric.weighted_score,
          rubric_avg: a.rubric.rubric_avg,
        }
      : null,
    rubric_lines: a.rubric?.rubric_lines ?? [],
    events_summary: a.evidence ? summarizeEvents(a.evidence, a.profileName) : null,
    skill_sources: (a.treatment?.skills ?? []).map((s) => ({
      name: s.name,
      source_type: s.source_type,
      path: s.path,
      hash: s.hash,
    })),
    sample_quality: sample,
    failure_attribution: attribution,
    interaction: {
      mode: 'none',
      max_turns: a.task?.interaction.max_turns ?? 12,
      actual_turns: a.turn ? 1 : 0,
      end_reason: a.turn?.outcome ?? 'not_run',
      turns: [],
    },
    model: ctx.model,
    agent: { name: 'claude-code', bin: ctx.bin.path, version: ctx.agentVersion },
    hashes: { task: a.task?.hash ?? '', suite: ctx.suite.hash },
    timing: {
      started_at: a.startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      wall_ms: finishedAt.getTime() - a.startedAt.getTime(),
    },
    artifacts: {
      stdout: 'stdout.jsonl',
      stderr: 'stderr.txt',
      events: a.evidence ? 'events.json' : null,
      validation: a.validation ? 'validation.json' : null,
      workspace: a.workspaceSaved ? 'workspace' : null,
    },
    timestamp: finishedAt.toISOString(),
  };
  // The report is the run's commit point: written last, atomically.
  await writeJsonAtomic(paths.report, redactValue(report, ctx.redact));
  return report;
}

export async function readTextSafe(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}
