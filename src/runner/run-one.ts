import { rm } from "node:fs/promises";
import { errorMessage, isDiskFull } from "../core/errors.js";
import type { RunArmProblem } from "../core/arm-integrity.js";
import type { Evidence } from "../core/evidence.js";
import type { RunReport } from "../core/report.js";
import type { JudgeBlock } from "../core/judge.js";
import { runJudge } from "../judge/index.js";
import type { RunPlan } from "../plan/run-plan.js";
import { resolveProfile, type RubricResult } from "../scoring/index.js";
import { runPaths } from "../store/layout.js";
import {
  resetRunFolder,
  writeBaselineFiles,
  writeEvidence,
  writeRunPlan,
  writeRunReport,
  writeValidation,
} from "../store/run-files.js";
import { writeWorkspaceManifest } from "../store/workspace-manifest.js";
import { redactValue } from "../util/redact.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import type { ValidationReport } from "../validators/index.js";
import { createRunDirs, keepRunDirs, removeRunDirs } from "../workspace/prepare.js";
import { saveWorkspace } from "../workspace/save.js";
import type { Sandbox } from "../sandbox/index.js";
import { defaultAgent, reportAgentName } from "../agents/index.js";
import { agentOf, runKey, type RunContext } from "./context.js";
import { evaluateRun, type AgentSummary } from "./evaluate.js";
import { tailOf } from "./tail.js";
import { runAgentPhase } from "./agent-phase.js";
import { helperSandbox } from "./helper-sandbox.js";
import { openFinishedWorkspace } from "./finished-workspace.js";
import { scoreFinishedRun } from "./score-run.js";
import { decodeRunEvidence, validateRun } from "./check-run.js";
import { checkRunArms } from "./arm-integrity.js";
import { prepareArmWorkspace } from "./arm-workspace.js";
import { runSkillUsageOf } from "./skill-usage.js";
import { unscheduled, type RunPassage } from "./schedule.js";
import { meteredRecord, ownBudgetStop } from "./budget.js";
import type { RunSpend } from "../cost/budget.js";

/**
 * One run end to end, as its plan says: workspace, sandbox, agent, evidence, validators, the
 * saved workspace and its manifest, the scoring step, the judge, then the report
 * (src/runner/evaluate.ts). Never throws: a harness fault becomes an errored report (a full disk
 * is thrown after the report, to stop the suite). Returns null only when the run was
 * cancelled (also when the runs were stopped before its agent started), so that --resume runs it
 * again. `passage` is its way through the schedule (runner/schedule.ts): it waits there for an
 * agent slot once prepared and for a checks slot once its agent has ended; `background` takes the
 * removal of its temporary folders.
 */
export async function executeRun(
  ctx: RunContext,
  plan: RunPlan,
  around: {
    passage?: RunPassage | undefined;
    background?: ((cleanup: Promise<void>) => void) | undefined;
  } = {},
): Promise<RunReport | null> {
  const { passage = unscheduled, background } = around;
  const startedAt = ctx.clock();
  // The time spent waiting for a stage's slot is not the run's: wall_ms leaves it out.
  let waitedMs = 0;
  const waitFor = async <R>(slot: () => Promise<R>): Promise<R> => {
    const from = ctx.clock().getTime();
    try {
      return await slot();
    } finally {
      waitedMs += ctx.clock().getTime() - from;
    }
  };
  const paths = runPaths(ctx.store.outDir, plan.run_id);
  const redact = ctx.env.redact;
  await resetRunFolder(paths);
  await writeRunPlan(paths, redactValue(plan, redact));
  const task = ctx.suite.spec.tasks.find((t) => t.name === plan.task);
  const treatment = ctx.suite.spec.treatments.find((t) => t.name === plan.treatment);
  const stdout = new RedactingLineWriter(paths.stdout, redact, { timesFile: paths.stdoutTimes });
  const stderr = new RedactingLineWriter(paths.stderr, redact);
  let harnessError: string | null = null;
  let agent: AgentSummary | null = null;
  let evidence: Evidence | null = null;
  let validation: ValidationReport | null = null;
  let scoredValidation: ValidationReport | null = null;
  let rubric: RubricResult | null = null;
  let judge: JudgeBlock | null = null;
  let dirs: Awaited<ReturnType<typeof createRunDirs>> | null = null;
  /** `--keep-workspaces`: where the run's workspace was kept (report artifacts.kept_workspace). */
  let keptWorkspace: string | null = null;
  let workspaceSaved = false;
  let runUuid: string | null = null;
  let sandbox: Sandbox | null = null;
  let validatorHome: string | null = null;
  let diskFull: Error | null = null;
  let armIntegrity: RunArmProblem[] = [];
  const subject = agentOf(ctx, plan);
  const key = runKey(plan);
  // The run's metering (runner/budget.ts), open from the sandbox's start to the report.
  const meter = ctx.budget?.open(plan, key) ?? null;
  let ran = false;
  let spend: RunSpend | null | undefined;
  try {
    if (!task || !treatment) throw new Error(`unknown task or treatment for ${plan.run_id}`);
    dirs = await createRunDirs(plan.run_id, ctx.workspaces.tmpBase, ctx.store.experimentId);
    const driver = subject.driver;
    const preexisting = await prepareArmWorkspace(dirs.workspace, task, treatment, driver);
    await writeBaselineFiles(paths, preexisting);
    ctx.note(
      plan.sandbox.kind === "local"
        ? `warning: sandbox for ${task.name}: ${plan.sandbox.why}`
        : `sandbox for ${task.name}: ${plan.sandbox.kind} (${plan.sandbox.why})`,
    );
    sandbox = await ctx.sandboxes.create(plan.sandbox.kind, {
      runDirs: dirs,
      task: {
        environmentDir: task.environment_dir,
        cpus: task.environment.cpus,
        memory: task.environment.memory,
        pids: task.environment.pids,
      },
      agentBin: subject.bin.path,
      resultsDir: ctx.store.outDir,
      modelEndpoint: ctx.models.endpoint(key, "subject").baseUrl,
      localModelServer: ctx.models.local,
      agentVersion: plan.agent.version ?? undefined,
      runName: plan.run_id,
      experimentId: ctx.store.experimentId,
      why: plan.sandbox.why,
      network: task.environment.network,
      exposeReadOnly: ctx.suite.spec.config.validation?.python_path,
      signal: ctx.signal,
      meter: meter ? () => meter.connection() : undefined,
    });
    await sandbox.start();
    // Prepared: the agent starts once it has a slot (none when the runs were stopped meanwhile).
    if (!(await waitFor(() => passage.toAgent()))) return null;
    ran = true;
    // One id for the run's template and its validators' _test_context.json (docs/tasks.md).
    runUuid = plan.run_uuid;
    const phase = await runAgentPhase({
      ctx,
      plan,
      dirs,
      stdout,
      stderr,
      simulatorFile: paths.simulator,
      launcher: sandbox.launcher,
      simulatorSandbox: helperSandbox(
        ctx,
        plan,
        { name: "simulated user", role: "simulator" },
        task.environment_dir,
        meter ? () => meter.connection() : undefined,
      ),
      budget: meter ?? undefined,
    });
    agent = phase.summary;
    // The model requests as they stood when the agent ended (the validators' come after). Under
    // the scripted model its own log (model_api) says more, wherever it runs (a queue worker's
    // is not in this process): the timing is kept for other endpoints only.
    const requests = ctx.models.api ? null : (sandbox.modelRequests?.() ?? null);
    if (requests !== null) sandbox.record.model_requests = requests;
    await stdout.close();
    await stderr.close();
    const writeFailure = stdout.failure ?? stderr.failure;
    if (writeFailure) throw writeFailure;
    if (phase.aborted) return null;
    await waitFor(() => passage.toChecks());
    evidence = await decodeRunEvidence(ctx, plan, dirs.workspace, preexisting, paths.stdout);
    // The agent's own spending cap stopped it: the same outcome as skillbench's budgets.
    agent = ownBudgetStop(agent, evidence, driver.ownBudgetStop);
    validation = await validateRun(ctx, plan, {
      task,
      treatment,
      dirs,
      evidence,
      agent,
      launcher: sandbox.launcher,
      onValidatorHome: (home) => {
        validatorHome = home;
      },
    });
    // The workspace is saved (text files, redacted) with a manifest of everything it held; the
    // rubric then reads that, exactly what `rescore` will read (docs/ARCHITECTURE.md).
    const kept = await saveWorkspace(dirs.workspace, paths.workspace, redact);
    await writeWorkspaceManifest(paths.manifest, kept.manifest);
    workspaceSaved = true;
    armIntegrity = await checkRunArms({
      evidence,
      treatment,
      treatments: ctx.suite.spec.treatments,
      workspace: dirs.workspace,
      manifest: kept.manifest,
    });
    const scored = scoreFinishedRun({
      profile: resolveProfile(plan.profile, ctx.suite.profiles),
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
    const judgeBudget = ctx.budget?.judgeFor(plan, key);
    judge = await runJudge({
      config: ctx.judge.configFor(key),
      profile: plan.profile,
      workspace: paths.workspace,
      baseline: {
        passed: checks.passed,
        failed: [...checks.failed, ...(rubric?.hard_failures ?? [])],
      },
      rubricCriteria: task.evaluation.rubric_criteria,
      instruction: plan.prompt,
      cache: ctx.judge.cache ?? undefined,
      signal: ctx.signal,
      redact,
      hostEnv: ctx.env.host,
      // The CLI judge is the default agent: the subject's binary only when the subject is it too.
      // (Its own folder is made outside the run root, which the agent could write to.)
      cliBin: driver.name === defaultAgent().name ? subject.bin.path : undefined,
      experimentId: ctx.store.experimentId,
      sandboxFor: helperSandbox(ctx, plan, { name: "judge", role: "judge" }, task.environment_dir),
      budget: judgeBudget,
    }).finally(() => judgeBudget?.close());
  } catch (e) {
    harnessError = errorMessage(e);
    if (isDiskFull(e)) diskFull = e instanceof Error ? e : new Error(String(e));
  } finally {
    await stdout.close().catch(() => undefined);
    await stderr.close().catch(() => undefined);
    // The container (if any) goes before the run's folders, whatever happened.
    await sandbox?.stop();
    spend = meter?.close(ran) ?? null;
    const runDirs = ctx.workspaces.keep ? null : dirs;
    if (ctx.workspaces.keep && dirs) {
      try {
        keptWorkspace = await keepRunDirs(dirs);
        ctx.note(`kept the workspace of ${plan.run_id}: ${keptWorkspace}`);
      } catch (e) {
        ctx.note(`warning: could not keep the workspace of ${plan.run_id}: ${errorMessage(e)}`);
      }
    }
    const home: string | null = validatorHome;
    const cleanup = (async () => {
      if (runDirs) await removeRunDirs(runDirs).catch(() => undefined);
      // validatorHome is set by validateRun's callback (the rule cannot see it).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (home) await rm(home, { recursive: true, force: true }).catch(() => undefined);
    })();
    // With `background`, the temporary folders are removed while the report is written and the
    // next run starts (the caller waits for them before it returns); nothing reads them any more.
    if (background) background(cleanup);
    else await cleanup;
  }
  if (evidence) await writeEvidence(paths, redactValue(evidence, redact));
  if (validation) await writeValidation(paths, redactValue(validation, redact));

  const finishedAt = ctx.clock();
  const report = evaluateRun({
    spec: plan,
    experimentId: ctx.store.experimentId,
    runUuid,
    task,
    treatment,
    profileName: plan.profile,
    agent,
    evidence,
    validation: scoredValidation,
    rubric,
    judge,
    sandbox: sandbox?.record ?? null,
    harnessError,
    stdoutTail: await tailOf(paths.stdout),
    stderrTail: await tailOf(paths.stderr),
    model: plan.model,
    pricing: ctx.pricing,
    modelApi: ctx.models.api?.(key) ?? null,
    metered:
      spend && ctx.budget
        ? meteredRecord(spend, meter?.stopped() ?? null, ctx.budget.pricing.version)
        : undefined,
    timeoutSec: plan.timeout_sec,
    armIntegrity,
    skillUsage: await runSkillUsageOf(evidence, treatment),
    agentInfo: {
      name: reportAgentName(subject.driver.name),
      bin: plan.agent.bin,
      version: plan.agent.version,
    },
    suiteHash: ctx.suite.spec.hash,
    timing: {
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      wall_ms: finishedAt.getTime() - startedAt.getTime() - waitedMs,
    },
    artifacts: {
      stdout: "stdout.jsonl",
      stderr: "stderr.txt",
      events: evidence ? "events.json" : null,
      validation: validation ? "validation.json" : null,
      workspace: workspaceSaved ? "workspace" : null,
      ...(keptWorkspace === null ? {} : { kept_workspace: keptWorkspace }),
    },
  });
  // Its content key (docs/reuse.md), with the image the sandbox ran (docker), for `--reuse`.
  if (ctx.runKey) report.run_key = ctx.runKey(plan, sandbox?.record.image_id ?? null);
  // The report is the run's commit point: written last, atomically. After a full disk it is
  // recorded as errored if it still fits (so --resume runs it again), and the suite stops.
  if (diskFull) {
    await writeRunReport(paths, redactValue(report, redact)).catch(() => undefined);
    throw diskFull;
  }
  await writeRunReport(paths, redactValue(report, redact));
  return report;
}
