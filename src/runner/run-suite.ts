import { randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DiskFullError, errorPath, InputError, isDiskFull } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import type { ModelServer } from "../model/index.js";
import { settleRun } from "../plan/run-plan.js";
import { recordArmsBeforeRuns } from "./arm-preflight.js";
import { createSandbox, probeSandboxes, removeLeftovers } from "../sandbox/index.js";
import { experimentPaths } from "../store/layout.js";
import { lockResultsFolder } from "../store/lock.js";
import { writeMetadata } from "../store/metadata.js";
import { writeSuiteSnapshot } from "../store/suite-snapshot.js";
import { hasDockerfile, loadSuite, type Suite } from "../suite/index.js";
import { declaredSecrets, makeRedactor, secretsFromEnv } from "../util/redact.js";
import { adoptFrozenBaseline, currentFingerprints } from "./baseline-from.js";
import type { RunContext } from "./context.js";
import { checkFrozenEvidence } from "./frozen-evidence.js";
import { experimentIdNow, experimentMetadata } from "./experiment-metadata.js";
import { writeExperimentReports, writeExperimentReportsOf } from "./finish.js";
import { judgeFingerprint, refuseSameFamily, setupJudge } from "./judge-setup.js";
import { runPairwiseStage } from "./pairwise-stage.js";
import { endpointFingerprint, setUpModel } from "./model-endpoint.js";
import {
  readPromptFile,
  refuseSymlinksOut,
  sandboxNeeds,
  passEnvOf,
  resolveAgents,
} from "./preflight.js";
import { planSettings, planSuite } from "./plan-suite.js";
import { checkShardResume, recordPlan, wholePlanRecord } from "./plan-shard.js";
import { openResultsFolder, resultsLockOptions } from "./results-folder.js";
import { preflightHealth } from "./preflight-health.js";
import { executePlans } from "./execute-plans.js";
import { budgetRecord, setUpBudget } from "./budget-setup.js";
import { tapLiveEndpoints, type BudgetTaps } from "../model/tap.js";
import { pricingOf, startEstimateLine } from "./estimate-sources.js";
import { warmFirstSandbox } from "./warm-sandbox.js";
import { applyReuse } from "./reuse.js";
import { historyResultsFolders, historySourceTarget } from "../history/results-folders.js";
import { runKeyer } from "./run-keys.js";
import type { RunOptions, RunSummary } from "./run-options.js";

export { SKILLBENCH_VERSION } from "./experiment-metadata.js";
export type { DispatchArgs, ProgressEvent, RunOptions, RunSummary } from "./run-options.js";

/**
 * Run a suite: select and settle the runs (each run's `RunPlan`, src/plan), run every run
 * (isolated, concurrent, or through a dispatcher), then write the experiment's reports.
 */
export async function runSuite(opts: RunOptions): Promise<RunSummary> {
  const hostEnv = opts.hostEnv ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const note = (message: string): void => opts.onProgress?.({ type: "note", message });
  const suite: Suite =
    opts.queue?.suite ??
    (await loadSuite(path.resolve(cwd, opts.suite), {
      onWarning: opts.onWarning,
      taskFilter: opts.task,
    }));
  const cfg = suite.config;
  const { count, concurrency, taskNames, specs, frozen, planned, wholePlan, model, profiles } =
    await planSuite(suite, opts, hostEnv, cwd);
  await refuseSymlinksOut(suite, planned);
  // The pricing table before anything starts: a table that does not parse is bad input.
  const pricing = await pricingOf(opts.cost, cwd);
  // The sandbox probe (a bwrap start; docker info where auto may need it) runs while the agents'
  // versions are asked and the rest is set up; its answer is awaited before the plans are settled.
  const needs = sandboxNeeds(suite, planned, opts.sandbox, hasDockerfile);
  const probe = opts.queue?.probe ?? probeSandboxes;
  const probing = needs.probe
    ? probe({ docker: "if-needed", dockerfileAuto: needs.probe.dockerfileAuto })
    : null;
  void probing?.catch(() => undefined);
  // Containers and temporary folders of skillbench processes that died (kill -9) go before any
  // run starts (removed meanwhile: only dead processes' leftovers are touched). Docker is asked
  // for containers only when this experiment may use docker, or a process that is gone left a
  // container marker (src/sandbox/leftovers.ts).
  const leftovers = removeLeftovers({
    tmpDirs: [os.tmpdir()],
    docker: needs.mayUseDocker ? "always" : "when-marked",
  });
  void leftovers.catch(() => undefined);
  // The agents' binaries now; their versions are asked while the results folder is opened and
  // the model set up (awaited before the plans are settled).
  const found = resolveAgents(opts, specs, hostEnv, cwd);
  void found.setups.catch(() => undefined);
  // The experiment's first agent: what is not per run (the frozen baseline's drift check).
  const firstFound = found.found[0];
  if (firstFound === undefined)
    throw new InputError("nothing to run: the plan has no runs", { field: "--task" });

  const outOpt = opts.out ?? cfg.out ?? undefined;
  if (opts.resume && !outOpt)
    throw new InputError("--resume needs --out DIR: the results folder of the interrupted run", {
      field: "--resume",
    });
  const newId = opts.queue?.experimentId ?? experimentIdNow();
  const outDir = outOpt
    ? path.resolve(cwd, outOpt)
    : path.resolve(cwd, ".skillbench", "runs", newId);
  const paths = experimentPaths(outDir);
  // One writer per results folder (store/lock.ts): a second `run`, `--resume` or coordinator
  // into it is refused or, with --wait, waits; held until the experiment's reports are written.
  const lock = await lockResultsFolder(outDir, resultsLockOptions(opts, outDir, note));
  let server: ModelServer | null = null;
  let taps: BudgetTaps | null = null;
  let warming: Promise<unknown> = Promise.resolve();
  try {
    if (opts.resume) await checkShardResume(outDir, opts.shard);
    const prior = await openResultsFolder(outDir, suite, planned, Boolean(opts.resume), note);
    const experimentId = prior.experimentId ?? newId;
    await mkdir(outDir, { recursive: true });
    const done = new Set(prior.reused.map((r) => r.run_id));
    const only = opts.queue?.only ? new Set(opts.queue.only) : null;
    const toRun = planned.filter((r) => !done.has(r.run_id) && (!only || only.has(r.run_id)));

    const declaredEnv = { ...cfg.env, ...(opts.env ?? {}) };
    // Every credential-like host variable and declared value is redacted from saved files.
    const redact = makeRedactor([
      ...secretsFromEnv(hostEnv),
      ...declaredSecrets(declaredEnv),
      ...(opts.queue?.secrets ?? []),
    ]);
    // The budgets (docs/budgets.md): the experiment's spend so far is what its recorded runs
    // metered, so a --resume with a new budget counts what was already spent.
    const budget = await setUpBudget(
      opts,
      cfg,
      prior.reused,
      prior.budget?.judge,
      experimentId,
      pricing,
      model ?? null,
    );
    // Under a budget a live https endpoint is reached through a tap, so that it is metered
    // (model/tap.ts); a queue worker taps its own, a coordinator runs no agent.
    taps = await tapLiveEndpoints({
      budget: budget !== undefined,
      scripted:
        opts.queue !== undefined ||
        Boolean(opts.modelScript ?? (hostEnv.ANTHROPIC_BASE_URL ? null : cfg.model_script)),
      apis: found.found.map((a) => a.driver.api),
      hostEnv,
    });
    for (const line of taps?.notes ?? []) note(line);
    const models = await setUpModel({
      meterFor: budget?.meterFor,
      opts,
      cfg,
      hostEnv: taps?.env ?? hostEnv,
      cwd,
      drivers: found.found.map((a) => a.driver),
      modelLog: paths.modelLog,
      secrets: redact.secrets,
      note,
    });
    server = models.server;
    // What bubblewrap asks when the first run's sandbox starts, asked meanwhile (warm-sandbox.ts).
    warming = warmFirstSandbox({
      suite,
      first: opts.queue?.dispatch ? undefined : toRun[0],
      cli: opts.sandbox,
      hasDockerfile,
      agentBin: (name) => found.found.find((f) => f.name === name)?.bin.path,
      endpoint: models.endpoint,
      outDir,
      experimentId,
      signal: opts.killSignal,
    });
    const left = await leftovers;
    if (left.containers.length + left.folders.length + left.processes.length > 0)
      note(
        `removed what skillbench processes that are gone left behind: ${left.containers.length} container(s), ${left.folders.length} temporary folder(s), ${left.processes.length} process(es)`,
      );
    const agents = { setups: await found.setups, simulator: found.simulator };
    const judge = setupJudge({
      flags: opts.judgeFlags ?? {},
      hostEnv,
      suiteSection: cfg.judge,
      outDir,
      scriptedServerUrl: server?.url ?? opts.queue?.scripted?.url ?? null,
      scriptHasJudge: models.scriptHasJudge,
      scriptId: models.scriptId,
    });
    refuseSameFamily(
      opts.judgeFlags ?? {},
      judge.config,
      Object.values(agents.setups).map((a) => ({
        agent: a.driver.reportName,
        model: model ?? null,
      })),
    );
    if (judge.config.enabled)
      note(
        "skipped" in judge.config
          ? `LLM judge skipped: ${judge.config.skipped}`
          : `LLM judge on: ${judge.config.model} via ${judge.config.transport}`,
      );
    // The runs' plans, settled once: what each run executes, and what rescore reads back.
    const settings = planSettings(suite, opts, profiles, model, {
      probe: probing ? await probing : null,
      agents: Object.fromEntries(
        Object.entries(agents.setups).map(([name, a]) => [
          name,
          { bin: a.bin.path, version: a.version },
        ]),
      ),
      envPromptFileText: await readPromptFile(
        hostEnv.BENCH_SIMULATOR_PROMPT_FILE,
        cwd,
        "BENCH_SIMULATOR_PROMPT_FILE",
      ),
      suitePromptFileText: suite.simulatorInstructionFile
        ? await readFile(suite.simulatorInstructionFile, "utf8")
        : null,
    });
    // What every run's result depends on beyond its plan: recorded in metadata.json, and checked
    // against a frozen baseline's runs settled again under these settings (baseline-from.ts).
    const endpointAt = endpointFingerprint(
      models,
      Boolean(opts.queue?.scripted),
      planned[0] ?? specs[0],
    );
    const fingerprint = {
      ...endpointAt,
      endpoint_at:
        taps && endpointAt.endpoint_at !== null
          ? taps.fingerprintOrigin(endpointAt.endpoint_at)
          : endpointAt.endpoint_at,
      judge: judgeFingerprint(judge.config),
    };
    const baselineDrift = frozen
      ? await adoptFrozenBaseline(
          frozen,
          outDir,
          currentFingerprints(frozen, suite, settings, fingerprint, specs),
          Boolean(opts.allowDrift),
          note,
          () => checkFrozenEvidence(frozen, hostEnv),
        )
      : [];
    // Each run's content key (docs/reuse.md); `--reuse` takes the stored runs with an equal one.
    const keyer = await runKeyer(suite, fingerprint, {
      declared: declaredEnv,
      passNames: passEnvOf(cfg.pass_env, opts),
    });
    // The history store's folders (docs/history.md), read once when `--reuse history` or the
    // estimate asks for them.
    const target = historySourceTarget(opts.history, outDir, cwd, hostEnv);
    let historyRead: ReturnType<typeof historyResultsFolders> | undefined;
    const historyFolders = () => (historyRead ??= historyResultsFolders(target, note));
    const reuse = await applyReuse(opts.reuse, {
      cwd,
      plans: toRun.map((r) => settleRun(settings, r, randomUUID())),
      keyer,
      outDir,
      note,
      history: async () => (target === null ? null : historyFolders()),
    });
    const plans = reuse.plans;
    // Arm integrity before any agent starts (docs/statistics.md, "Arm integrity"); a queued job's is its coordinator's.
    const armProblems = opts.queue?.only
      ? []
      : await recordArmsBeforeRuns({ suite, plans, hostEnv, outDir, note });
    const health = await preflightHealth({
      armProblems,
      opts,
      suite,
      tasks: taskNames,
      outDir,
      probe: settings.sandbox.probe,
      hostEnv,
      redact,
      note,
    });
    const said = new Set<string>();
    const tracker = models.tracker;
    const ctx: RunContext = {
      store: { experimentId, outDir },
      pricing,
      suite: { spec: suite, profiles },
      agent: {
        setups: agents.setups,
        retries: opts.agentRetries,
        simulator: agents.simulator,
        extraEnv: opts.agentEnv,
      },
      models: {
        endpoint: models.endpoint,
        local: server ?? undefined,
        api: tracker ? (run) => tracker.recordFor(run) : opts.queue?.modelApi,
      },
      sandboxes: { create: createSandbox },
      // A tapped endpoint's variable names the tap here too, so `--pass-env` of it stays metered.
      env: {
        host: taps?.env ?? hostEnv,
        declared: declaredEnv,
        pass: passEnvOf(cfg.pass_env, opts),
        redact,
      },
      judge: { configFor: judge.judgeFor, cache: judge.cache },
      workspaces: { keep: opts.keepWorkspaces ?? false },
      clock: () => new Date(),
      note: (message) => {
        if (said.has(message)) return;
        said.add(message);
        note(message);
      },
      signal: opts.killSignal ?? new AbortController().signal,
      runKey: keyer.record,
      budget: budget?.runBudget,
    };
    const frozenReports = (frozen?.reports ?? []).filter(
      (r) => !prior.keptOutside.some((k) => k.run_id === r.run_id),
    );
    const kept = [...prior.keptOutside, ...frozenReports];
    const metadata = experimentMetadata({
      experimentId,
      suite,
      planned,
      kept,
      prior,
      frozen,
      baselineDrift,
      count,
      concurrency,
      taskCount: taskNames.length,
      model,
      profile: settings.profileOverride,
      margin: opts.margin,
      modelScript: models.scriptFile ? path.resolve(cwd, models.scriptFile) : null,
      fingerprint,
      agents: Object.values(agents.setups),
      decisionPatterns: opts.interaction?.decisionPatterns ?? [],
    });
    // The whole plan (every shard's), what `merge` checks folders of one experiment by.
    recordPlan(
      metadata,
      wholePlanRecord(wholePlan, count, settings, fingerprint),
      wholePlan,
      opts.shard,
    );
    if (health !== null) metadata.health = health;
    await writeMetadata(paths.metadata, metadata);
    await writeSuiteSnapshot(outDir, suite);
    // The start-up line's estimate (docs/cost.md); a queue worker's one run gets none.
    const estimated = !opts.queue?.only
      ? await startEstimateLine({
          cost: opts.cost,
          pricing,
          toRun,
          model,
          concurrency,
          resumeDir: opts.resume ? outDir : null,
          scripted: server !== null || Boolean(opts.queue?.scripted),
          cwd,
          taskHashes: new Map(suite.tasks.map((t) => [t.name, t.hash])),
          history: historyFolders,
        })
      : undefined;
    budget?.useSamples(estimated?.samples ?? []);
    opts.onProgress?.({
      type: "plan",
      estimate: estimated?.line,
      total: metadata.matrix.length,
      toRun: plans.length,
      reused: prior.reused.length + kept.length + reuse.taken.length,
      outDir,
      experimentId,
    });

    const { fresh, diskFullFile } = opts.queue?.dispatch
      ? {
          fresh: await opts.queue.dispatch({
            toRun: toRun.filter((r) => !reuse.takenIds.has(r.run_id)),
            experimentId,
            outDir,
            suite,
            ctx,
            settings,
            scripted: server
              ? { url: server.url, hasJudge: models.scriptHasJudge, scriptId: models.scriptId }
              : null,
            stop: opts.stopSignal,
            onProgress: opts.onProgress,
          }),
          diskFullFile: null,
        }
      : await executePlans(ctx, plans, {
          concurrency,
          stop: opts.stopSignal,
          onProgress: opts.onProgress,
        });
    if (diskFullFile !== null) {
      // Whatever still fits; the message names the file that did not.
      await writeMetadata(paths.metadata, metadata).catch(() => undefined);
      await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html }).catch(() => undefined);
      throw new DiskFullError(diskFullFile, outDir);
    }
    const byId = new Map(
      [...prior.reused, ...kept, ...reuse.taken, ...fresh].map((r) => [r.run_id, r]),
    );
    const reports = metadata.matrix
      .map((r) => byId.get(r.run_id))
      .filter((r): r is RunDigest => r !== undefined);
    const matrix = metadata.matrix.map((r) => ({
      ...r,
      agent: r.agent ?? firstFound.driver.name,
      model: r.model !== undefined ? r.model : metadata.model,
    }));
    const incomplete = matrix.filter((r) => !byId.has(r.run_id));
    metadata.completed_at = incomplete.length === 0 ? new Date().toISOString() : null;
    metadata.total_passed = reports.filter((r) => r.passed).length;
    let account = budget
      ? await budgetRecord(budget.runBudget, budget.limits, opts, reports, incomplete)
      : undefined;
    if (account) metadata.budget = account;
    await writeMetadata(paths.metadata, metadata);
    // Pairwise judging needs every run of a pair: a stage after the runs, before the reports.
    if (judge.pairFor && opts.queue?.writeReports !== false) {
      const pairBudget = budget?.runBudget;
      await runPairwiseStage({
        outDir,
        judgeFor: judge.pairFor,
        redact,
        hostEnv,
        experimentId,
        budgetFor: pairBudget ? (pair, key) => pairBudget.judgeFor(pair, key) : undefined,
      });
      // The pairs' judge calls count in the budget's record too (metadata.json `budget.judge`).
      if (budget) {
        account = await budgetRecord(budget.runBudget, budget.limits, opts, reports, incomplete);
        metadata.budget = account;
        await writeMetadata(paths.metadata, metadata);
      }
    }
    const { files, comparison, source } =
      opts.queue?.writeReports === false
        ? { files: [], comparison: null, source: undefined }
        : await writeExperimentReportsOf(outDir, {
            ks: opts.ks,
            html: opts.html,
            calibration: opts.calibration,
          });
    return {
      outDir,
      experimentId,
      planned: matrix,
      reports,
      incomplete,
      files,
      comparison,
      source,
      budget: account,
    };
  } catch (e) {
    // A full disk met outside the runs (metadata, reports) names this results folder, as the
    // runs' own DiskFullError does, not a placeholder (cli/main.ts).
    if (isDiskFull(e) && !(e instanceof DiskFullError))
      throw new DiskFullError(errorPath(e) ?? outDir, outDir);
    throw e;
  } finally {
    await warming;
    await server?.close();
    await taps?.close();
    await lock.release();
  }
}
