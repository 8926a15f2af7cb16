import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  AGENT_NAMES,
  agentDriver,
  reportAgentName,
  type AgentDriver,
  type AgentEndpoint,
} from "../agents/index.js";
import { DiskFullError, errorMessage, errorPath, InputError, isDiskFull } from "../core/errors.js";
import { loadSuiteProfiles, resolveProfile, type RubricProfile } from "../scoring/index.js";
import type { RunReport } from "../core/report.js";
import {
  loadModelScript,
  runBaseUrl,
  scriptServesRole,
  startModelServer,
  type ModelServer,
} from "../model/index.js";
import { planRuns, type RunSpec } from "../plan/matrix.js";
import { experimentPaths } from "../store/layout.js";
import { readReports } from "../store/read.js";
import {
  METADATA_SCHEMA,
  readMetadata,
  writeMetadata,
  type ExperimentMetadata,
} from "../store/metadata.js";
import {
  loadSuite,
  renderInstruction,
  selectNames,
  type Suite,
  type SuiteWarning,
} from "../suite/index.js";
import { readJsonFile } from "../util/fs.js";
import { makeRedactor, secretsFromEnv } from "../util/redact.js";
import { sha256 } from "../util/hash.js";
import { writeSuiteSnapshot } from "../store/suite-snapshot.js";
import { setupJudge, type JudgeFlags } from "./judge-setup.js";
import { probeSandboxes, removeLeftovers, type SandboxChoice } from "../sandbox/index.js";
import { refuseEscapingSymlinks } from "../workspace/symlinks.js";
import { resolveInteraction, taskInteractionSettings } from "../interaction/index.js";
import type { Endpoint, RunContext } from "./context.js";
import { writeExperimentReports } from "./finish.js";
import { runPool } from "../util/pool.js";
import { executeRun } from "./run-one.js";
import { SCRIPTED_MODEL_LABEL } from "../report/endpoint.js";
import {
  copyFrozenRuns,
  fingerprintDrift,
  loadFrozenBaseline,
  suiteFingerprint,
} from "./baseline-from.js";
import { createModelApiTracker, type ModelApiTracker } from "./model-api.js";
import type { ModelApiRecord } from "../core/report.js";

export const SKILLBENCH_VERSION = "0.1.0";

export interface RunOptions {
  suite: string;
  task?: string | undefined;
  treatment?: string | undefined;
  count?: number | undefined;
  concurrency?: number | undefined;
  out?: string | undefined;
  profile?: string | undefined;
  model?: string | undefined;
  agentBin?: string | undefined;
  /** `--agent`: claude (default), codex, gemini or opencode. */
  agent?: string | undefined;
  /** A driver object instead of a name (the library API; tests pass a replay driver). */
  driver?: AgentDriver | undefined;
  /** Retries the agent CLI makes on a failing model request (default: the CLI's own). */
  agentRetries?: number | undefined;
  /** `--simulator-agent`: the simulated user's agent (default claude). */
  simulatorAgent?: string | undefined;
  resume?: boolean | undefined;
  modelScript?: string | undefined;
  /** --env KEY=VALUE */
  env?: Record<string, string> | undefined;
  /** --pass-env NAME */
  passEnv?: string[] | undefined;
  timeoutSec?: number | undefined;
  keepWorkspaces?: boolean | undefined;
  ks?: number[] | undefined;
  /** --baseline-from DIR: reuse that folder's baseline arm (fingerprints must match) */
  baselineFrom?: string | undefined;
  /** --allow-drift: reuse it even when fingerprints differ, recording the differences */
  allowDrift?: boolean | undefined;
  /** --margin: the verdict's non-inferiority margin on Δ pass rate (kept in metadata.json) */
  margin?: number | undefined;
  /** --judge / --no-judge, --judge-model, --judge-base-url, --judge-samples */
  judgeFlags?: JudgeFlags | undefined;
  /** --interaction-mode, --max-turns, --simulator-prompt, --decision-pattern */
  interaction?:
    | {
        mode?: string | undefined;
        maxTurns?: number | undefined;
        simulatorPrompt?: string | undefined;
        decisionPatterns?: readonly string[] | undefined;
      }
    | undefined;
  /** Write summary.html / comparison_report.html (default true). */
  html?: boolean | undefined;
  /** --sandbox local|bwrap|docker|auto (default: the suite's `sandbox`, else auto) */
  sandbox?: SandboxChoice | undefined;
  /** --simulator-model */
  simulatorModel?: string | undefined;
  hostEnv?: Record<string, string | undefined>;
  cwd?: string;
  /** First Ctrl-C: no new runs start. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: running agents are killed. */
  killSignal?: AbortSignal;
  onWarning?: (w: SuiteWarning) => void;
  onProgress?: (e: ProgressEvent) => void;
  /** Extra environment for a run's subject agent (the telemetry trace context, docs/telemetry.md). */
  agentEnv?: (run: {
    experimentId: string;
    runId: string;
    agent: string;
  }) => Record<string, string>;
  /**
   * Hooks for distributed runs (src/queue). `dispatch` runs the planned runs elsewhere instead
   * of the local pool and returns the reports it stored; a worker passes the suite it received
   * (`suite`), the one run to execute (`only`), the coordinator's scripted model (`scripted`),
   * and skips the experiment reports.
   */
  queue?: {
    dispatch?: (args: DispatchArgs) => Promise<RunReport[]>;
    suite?: Suite;
    only?: string[];
    /** The coordinator's experiment id (a worker's runs carry it). */
    experimentId?: string;
    scripted?: { url: string; hasJudge: boolean; scriptId: string };
    writeReports?: boolean;
    /** A worker's own count of the scripted model's answers (its tap, src/queue/model-tap.ts). */
    modelApi?: (run: { task: string; treatment: string; rep: number }) => ModelApiRecord;
    /** Extra secret values to redact (e.g. the queue URL's password). */
    secrets?: string[];
  };
}

/** What a dispatcher gets: the runs to do and where their records go. */
export interface DispatchArgs {
  toRun: RunSpec[];
  experimentId: string;
  outDir: string;
  suite: Suite;
  ctx: RunContext;
  /** The scripted model server this coordinator started (null: the workers' own endpoint). */
  scripted: { url: string; hasJudge: boolean; scriptId: string } | null;
  stop?: AbortSignal | undefined;
  onProgress?: ((e: ProgressEvent) => void) | undefined;
}

export type ProgressEvent =
  | {
      type: "plan";
      total: number;
      toRun: number;
      reused: number;
      outDir: string;
      experimentId: string;
    }
  | { type: "start"; run: RunSpec }
  | { type: "end"; run: RunSpec; report: RunReport | null }
  | { type: "note"; message: string };

export interface RunSummary {
  outDir: string;
  experimentId: string;
  planned: RunSpec[];
  reports: RunReport[];
  /** Runs that were planned but not completed (cancelled). */
  incomplete: RunSpec[];
  files: string[];
}

function experimentIdNow(): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${randomBytes(3).toString("hex")}`;
}

/** The simulator prompt file named by BENCH_SIMULATOR_PROMPT_FILE: a missing file is an input error. */
async function readPromptFile(
  name: string | undefined,
  cwd: string,
  field: string,
): Promise<string | null> {
  if (!name) return null;
  const file = path.resolve(cwd, name);
  try {
    return await readFile(file, "utf8");
  } catch {
    throw new InputError(`${field}=${name}: cannot read ${file}`, { file, field });
  }
}

/** Fail before any agent runs: every planned run must have a profile and a renderable prompt. */
function preflight(
  suite: Suite,
  planned: RunSpec[],
  profileOverride: string | null,
  profiles: Record<string, RubricProfile>,
  interaction: RunOptions["interaction"],
): void {
  const checked = new Set<string>();
  for (const r of planned) {
    const key = `${r.task}\0${r.treatment}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const task = suite.tasks.find((t) => t.name === r.task);
    const tr = suite.treatments.find((t) => t.name === r.treatment);
    if (!task || !tr) continue;
    const profile = profileOverride ?? tr.profile ?? task.evaluation.inferred_profile;
    try {
      resolveProfile(profile, profiles);
    } catch (e) {
      if (profileOverride)
        throw new InputError(`--profile ${profileOverride}: ${errorMessage(e)}`, {
          field: "--profile",
        });
      throw new InputError(`${task.rel_dir}/task.toml: [evaluation].profile: ${errorMessage(e)}`, {
        file: `${task.rel_dir}/task.toml`,
        field: "[evaluation].profile",
      });
    }
    renderInstruction(task, { run_id: "00000000-0000-4000-8000-000000000000" });
    resolveInteraction({
      profile,
      task: taskInteractionSettings(task.interaction),
      cli: interaction,
    });
  }
}

/** Folders copied into workspaces (environment/, Skill folders) must not link outside the suite. */
async function refuseSymlinksOut(suite: Suite, planned: RunSpec[]): Promise<void> {
  for (const name of new Set(planned.map((r) => r.task))) {
    const t = suite.tasks.find((x) => x.name === name);
    if (t?.environment_dir)
      await refuseEscapingSymlinks(t.environment_dir, [suite.root], `${t.rel_dir}/environment`);
  }
  for (const name of new Set(planned.map((r) => r.treatment))) {
    const tr = suite.treatments.find((x) => x.name === name);
    for (const sk of tr?.skills ?? [])
      if (sk.path)
        await refuseEscapingSymlinks(
          sk.path,
          [suite.root, sk.path],
          `treatment ${name}: skill ${sk.name}`,
        );
  }
}

function positiveInt(name: string, v: unknown, file?: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw new InputError(
      `${file ? `${file}: ` : ""}${name}: expected a positive whole number, got ${JSON.stringify(v)}`,
      { field: name },
    );
  return v;
}

/**
 * A results folder belongs to one suite: `--resume` into another suite's folder, and `--out` into
 * a non-empty folder that is not a results folder (no metadata.json), are bad input.
 */
async function checkOutDir(
  outDir: string,
  metadataFile: string,
  suite: Suite,
  resume: boolean,
): Promise<void> {
  // What `skillbench eval` puts there before the run (the compiled suite, the manifest, the
  // task generator's transcripts) is ours.
  const entries = (await readdir(outDir).catch(() => [] as string[])).filter((e) => {
    if (e === "eval.yaml" || e === "generation") return false;
    const rel = path.relative(path.join(outDir, e), suite.root);
    return !(rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel)));
  });
  if (entries.length === 0) return;
  const prev: unknown = await readJsonFile(metadataFile).catch(() => null);
  if (prev === null || typeof prev !== "object" || !("experiment_id" in prev))
    throw new InputError(
      `${outDir} is not empty and is not a skillbench results folder (no metadata.json): choose a new or empty --out`,
      { file: outDir, field: "--out" },
    );
  if (!resume) return;
  const stored = "suite" in prev && typeof prev.suite === "object" ? prev.suite : null;
  const storedPath =
    stored && "path" in stored && typeof stored.path === "string" ? stored.path : null;
  const storedHash =
    stored && "hash" in stored && typeof stored.hash === "string" ? stored.hash : null;
  if (storedPath !== null && path.resolve(storedPath) !== path.resolve(suite.root)) {
    if (storedHash !== suite.hash)
      throw new InputError(
        `--resume: ${outDir} holds the results of another suite (${storedPath}), not of ${suite.root}: resume it with that suite, or choose another --out`,
        { file: path.join(outDir, "metadata.json"), field: "suite.path" },
      );
  }
}

/** Run a suite: plan, run every run (isolated, concurrent), then write the experiment's reports. */
export async function runSuite(opts: RunOptions): Promise<RunSummary> {
  const hostEnv = opts.hostEnv ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const suite: Suite =
    opts.queue?.suite ??
    (await loadSuite(path.resolve(cwd, opts.suite), {
      onWarning: opts.onWarning,
      taskFilter: opts.task,
    }));
  const cfg = suite.config;
  const count =
    positiveInt("--count", opts.count) ?? positiveInt("count", cfg.count, "skillbench.yaml") ?? 1;
  const concurrency =
    positiveInt("--concurrency", opts.concurrency) ??
    positiveInt("concurrency", cfg.concurrency, "skillbench.yaml") ??
    1;
  const taskNames = selectNames(
    "task",
    suite.tasks.map((t) => t.name),
    opts.task ?? cfg.task ?? undefined,
  );
  const treatmentFilterText = opts.treatment ?? cfg.treatment ?? undefined;
  const treatmentFilter = treatmentFilterText
    ? selectNames(
        "treatment",
        suite.treatments.map((t) => t.name),
        treatmentFilterText,
      )
    : null;
  const plannedAll = planRuns({
    tasks: suite.tasks
      .filter((t) => taskNames.includes(t.name))
      .map((t) => ({ name: t.name, default_treatments: t.metadata.default_treatments })),
    treatments: suite.treatments.map((t) => t.name),
    treatmentFilter,
    count,
  });

  // --baseline-from DIR: the baseline arm comes from an earlier results folder, not from agents.
  const frozen = opts.baselineFrom
    ? await loadFrozenBaseline(path.resolve(cwd, opts.baselineFrom), taskNames)
    : null;
  const planned = frozen ? plannedAll.filter((r) => r.treatment !== frozen.treatment) : plannedAll;
  const seen = new Set<string>();
  for (const r of planned) {
    if (seen.has(r.run_id))
      throw new InputError(
        `two runs would share the id ${r.run_id}: rename a task or treatment so that <task>-<TREATMENT> is unique`,
        { field: "task" },
      );
    seen.add(r.run_id);
  }
  const suiteProfiles = await loadSuiteProfiles(suite.profiles);
  preflight(suite, planned, opts.profile ?? cfg.profile ?? null, suiteProfiles, opts.interaction);
  await refuseSymlinksOut(suite, planned);

  const agentName = opts.agent ?? "claude";
  const driver = opts.driver ?? agentDriver(agentName);
  if (driver === null)
    throw new InputError(`unknown agent "${agentName}": use one of ${AGENT_NAMES.join(", ")}`, {
      field: "--agent",
    });
  const bin = driver.resolveBinary({ agentBin: opts.agentBin, env: hostEnv });
  if ("error" in bin) throw new InputError(bin.error, { field: "--agent-bin" });
  const simulatorName = opts.simulatorAgent ?? "claude";
  const simulatorDriver = agentDriver(simulatorName);
  if (simulatorDriver === null)
    throw new InputError(`unknown agent "${simulatorName}": use one of ${AGENT_NAMES.join(", ")}`, {
      field: "--simulator-agent",
    });
  const simulatorBin =
    simulatorDriver === driver && opts.driver === undefined
      ? bin
      : simulatorDriver.resolveBinary({ env: hostEnv });
  const simulatorAgent =
    "error" in simulatorBin ? simulatorBin : { driver: simulatorDriver, bin: simulatorBin };

  let experimentId = opts.queue?.experimentId ?? experimentIdNow();
  const outOpt = opts.out ?? cfg.out ?? undefined;
  if (opts.resume && !outOpt)
    throw new InputError("--resume needs --out DIR: the results folder of the interrupted run", {
      field: "--resume",
    });
  const outDir = outOpt
    ? path.resolve(cwd, outOpt)
    : path.resolve(cwd, ".skillbench", "runs", experimentId);
  const paths = experimentPaths(outDir);
  let reused: RunReport[] = [];
  let firstStartedAt: string | null = null;
  let keptRoles: ExperimentMetadata["comparison_roles"] = undefined;
  let keptOutside: RunReport[] = [];
  let keptMargin: number | undefined = undefined;
  await checkOutDir(outDir, paths.metadata, suite, Boolean(opts.resume));
  if (opts.resume) {
    const prev = await readMetadata(paths.metadata);
    if (prev) {
      experimentId = prev.experiment_id;
      firstStartedAt = prev.started_at;
      keptRoles = prev.comparison_roles;
      keptMargin = prev.margin;
    }
    const wanted = new Set(planned.map((r) => r.run_id));
    // A stored run is reused only when its task and skills are unchanged.
    const current = (r: RunReport): boolean => {
      const task = suite.tasks.find((t) => t.name === r.task);
      const tr = suite.treatments.find((t) => t.name === r.treatment);
      if (!task || !tr || r.hashes.task !== task.hash) return false;
      const want = tr.skills.map((s) => `${s.name}@${s.hash}`).join(",");
      return r.skill_sources.map((s) => `${s.name}@${s.hash}`).join(",") === want;
    };
    const stored = (await readReports(outDir).catch(() => ({ reports: [] as RunReport[] })))
      .reports;
    reused = stored.filter((r) => wanted.has(r.run_id) && r.status !== "errored" && current(r));
    const stale = stored.filter(
      (r) => wanted.has(r.run_id) && r.status !== "errored" && !current(r),
    );
    if (stale.length > 0)
      opts.onProgress?.({
        type: "note",
        message: `${stale.length} stored run(s) are for a changed task or skill and will run again`,
      });
    // --resume never shrinks an experiment: complete stored runs outside this request (a smaller
    // --count, a narrower --task/--treatment) stay in the reports (docs/statistics.md §10).
    keptOutside = stored.filter(
      (r) => !wanted.has(r.run_id) && r.status !== "errored" && current(r),
    );
    const droppedStale = stored.filter(
      (r) => !wanted.has(r.run_id) && r.status !== "errored" && !current(r),
    );
    if (keptOutside.length > 0)
      opts.onProgress?.({
        type: "note",
        message: `${keptOutside.length} complete stored run(s) outside this --count/--task/--treatment are kept in the reports (an experiment never shrinks on --resume)`,
      });
    if (droppedStale.length > 0)
      opts.onProgress?.({
        type: "note",
        message: `${droppedStale.length} stored run(s) outside this request are for a changed task or skill and are left out of the reports: ${droppedStale.map((r) => r.run_id).join(", ")}`,
      });
  }
  if (!opts.resume) {
    const existing = await readdir(path.join(outDir, "runs")).catch(() => [] as string[]);
    if (existing.length > 0)
      throw new InputError(
        `${outDir} already holds runs: pass --resume to complete it, or choose another --out`,
        { file: outDir, field: "--out" },
      );
  }
  await mkdir(outDir, { recursive: true });
  // Containers and temporary folders of skillbench processes that died (kill -9) go first.
  const left = await removeLeftovers({ tmpDirs: [os.tmpdir()] });
  if (left.containers.length + left.folders.length > 0)
    opts.onProgress?.({
      type: "note",
      message: `removed what skillbench processes that are gone left behind: ${left.containers.length} container(s), ${left.folders.length} temporary folder(s)`,
    });
  const done = new Set(reused.map((r) => r.run_id));
  const only = opts.queue?.only ? new Set(opts.queue.only) : null;
  const toRun = planned.filter((r) => !done.has(r.run_id) && (!only || only.has(r.run_id)));

  const declaredEnv = { ...cfg.env, ...(opts.env ?? {}) };
  const passEnv = [...new Set([...cfg.pass_env, ...(opts.passEnv ?? [])])];
  // Every credential-like host variable and declared value is redacted from saved files.
  const redact = makeRedactor([
    ...secretsFromEnv(hostEnv),
    ...secretsFromEnv(declaredEnv),
    ...(opts.queue?.secrets ?? []),
  ]);

  // The model endpoint, in this order (docs/model-script.md): --model-script; else an explicit
  // ANTHROPIC_BASE_URL in the environment; else skillbench.yaml's model_script; else the
  // agent's default endpoint. The start-up line names the one in use and where it came from.
  const envBaseUrl = hostEnv.ANTHROPIC_BASE_URL;
  const suiteScriptIgnored = !opts.modelScript && Boolean(cfg.model_script) && Boolean(envBaseUrl);
  const scriptFile =
    opts.modelScript ?? (suiteScriptIgnored ? undefined : cfg.model_script) ?? undefined;
  const scriptSource = opts.modelScript ? "--model-script" : "skillbench.yaml model_script";
  let server: ModelServer | null = null;
  let scriptHasJudge = false;
  let scriptId = "";
  let tracker: ModelApiTracker | null = null;
  const model = opts.model ?? cfg.model ?? hostEnv.ANTHROPIC_MODEL ?? null;
  let endpoint: RunContext["endpoint"];
  const scripted = opts.queue?.scripted;
  if (scripted) {
    // A worker: the coordinator's scripted model serves every run.
    scriptHasJudge = scripted.hasJudge;
    scriptId = scripted.scriptId;
    endpoint = (run, role): Endpoint => ({
      baseUrl: runBaseUrl(scripted.url, { ...run, role }),
      apiKey: "sk-skillbench-scripted",
    });
  } else if (scriptFile) {
    const script = await loadModelScript(path.resolve(cwd, scriptFile));
    scriptHasJudge = scriptServesRole(script, "judge");
    scriptId = sha256(await readFile(path.resolve(cwd, scriptFile)));
    const t = createModelApiTracker();
    tracker = t;
    server = await startModelServer({
      script,
      scriptFile: path.resolve(cwd, scriptFile),
      recordFile: paths.modelLog,
      onRequest: (run) => {
        t.onRequest(run);
      },
      onExchange: (entry) => {
        t.onExchange(entry);
      },
      secrets: redact.secrets,
    });
    const url = server.url;
    opts.onProgress?.({
      type: "note",
      message: `model endpoint: skillbench's scripted model server ${url} playing ${path.resolve(cwd, scriptFile)} (from ${scriptSource}) — ${SCRIPTED_MODEL_LABEL}`,
    });
    endpoint = (run, role): Endpoint => ({
      baseUrl: runBaseUrl(url, { ...run, role }),
      apiKey: "sk-skillbench-scripted",
    });
  } else if (driver.api !== "anthropic") {
    const live = liveEndpoint(driver.api, hostEnv);
    if (!live.apiKey && !opts.queue?.dispatch)
      throw new InputError(
        `no model endpoint for ${driver.displayName}: set ${driver.api === "gemini" ? "GEMINI_API_KEY (and GOOGLE_GEMINI_BASE_URL)" : "OPENAI_API_KEY (and OPENAI_BASE_URL)"}, or pass --model-script FILE`,
        { field: "--model-script" },
      );
    endpoint = (): Endpoint => live;
  } else {
    // A coordinator needs no credentials: its workers take theirs from their own environment.
    if (!opts.queue?.dispatch && !hostEnv.ANTHROPIC_API_KEY && !hostEnv.ANTHROPIC_AUTH_TOKEN)
      throw new InputError(
        "no model endpoint: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (and ANTHROPIC_BASE_URL), or pass --model-script FILE",
        { field: "--model-script" },
      );
    opts.onProgress?.({
      type: "note",
      message: envBaseUrl
        ? `model endpoint: ${envBaseUrl} (from ANTHROPIC_BASE_URL in the environment)${suiteScriptIgnored ? "; skillbench.yaml model_script is ignored because ANTHROPIC_BASE_URL is set (pass --model-script to use the script)" : ""}`
        : "model endpoint: the agent's default (Anthropic API; ANTHROPIC_BASE_URL is not set)",
    });
    endpoint = (_run, role): Endpoint => ({
      baseUrl:
        role === "simulator"
          ? (hostEnv.SKILLBENCH_SIMULATOR_BASE_URL ?? hostEnv.ANTHROPIC_BASE_URL)
          : hostEnv.ANTHROPIC_BASE_URL,
      apiKey: hostEnv.ANTHROPIC_API_KEY,
      authToken: hostEnv.ANTHROPIC_AUTH_TOKEN,
    });
  }

  const version = await driver.version(
    bin.path,
    { PATH: hostEnv.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
    cwd,
  );
  let baselineDrift: string[] = [];
  if (frozen) {
    baselineDrift = fingerprintDrift(
      frozen.reports,
      suiteFingerprint(suite, {
        agentVersion: version,
        model,
        sandbox: opts.sandbox ?? null,
        profileOverride: opts.profile ?? cfg.profile ?? null,
        treatment: frozen.treatment,
      }),
    );
    if (baselineDrift.length > 0 && !opts.allowDrift)
      throw new InputError(
        `--baseline-from ${frozen.dir}: the frozen ${frozen.treatment} runs do not match this run:\n  - ${baselineDrift.join("\n  - ")}\nRun the baseline again, or pass --allow-drift to compare anyway (the differences are recorded in the reports).`,
        { file: frozen.dir, field: "--baseline-from" },
      );
    await mkdir(outDir, { recursive: true });
    await copyFrozenRuns(frozen, outDir);
    opts.onProgress?.({
      type: "note",
      message: `baseline ${frozen.treatment}: ${frozen.reports.length} frozen run(s) reused from ${frozen.dir}${baselineDrift.length > 0 ? ` despite ${baselineDrift.length} difference(s) (--allow-drift): ${baselineDrift.join("; ")}` : " (fingerprints match)"}`,
    });
  }
  const kill = opts.killSignal ?? new AbortController().signal;
  // --sandbox, else the task's [environment] sandbox, else the suite's, else auto.
  const choices = planned.map(
    (r) =>
      opts.sandbox ??
      suite.tasks.find((t) => t.name === r.task)?.environment.sandbox ??
      cfg.sandbox ??
      "auto",
  );
  const needsProbe = choices.some((c) => c !== "local");
  const judge = setupJudge({
    flags: opts.judgeFlags ?? {},
    hostEnv,
    suiteSection: cfg.judge,
    outDir,
    scriptedServerUrl: server?.url ?? scripted?.url ?? null,
    scriptHasJudge,
    scriptId,
  });
  if (judge.config.enabled)
    opts.onProgress?.({
      type: "note",
      message:
        "skipped" in judge.config
          ? `LLM judge skipped: ${judge.config.skipped}`
          : `LLM judge on: ${judge.config.model} via ${judge.config.transport}`,
    });
  const ctx: RunContext = {
    experimentId,
    outDir,
    suite,
    driver,
    bin,
    agentVersion: version,
    agentRetries: opts.agentRetries,
    simulatorAgent,
    endpoint,
    model,
    profileOverride: opts.profile ?? cfg.profile ?? null,
    suiteProfiles,
    declaredEnv,
    agentEnv: opts.agentEnv,
    passEnv,
    hostEnv,
    redact,
    timeoutSecOverride: opts.timeoutSec ?? cfg.timeout_sec ?? null,
    keepWorkspaces: opts.keepWorkspaces ?? false,
    interaction: {
      cli: opts.interaction ?? {},
      envPromptFileText: await readPromptFile(
        hostEnv.BENCH_SIMULATOR_PROMPT_FILE,
        cwd,
        "BENCH_SIMULATOR_PROMPT_FILE",
      ),
      suitePromptFileText: suite.simulatorInstructionFile
        ? await readFile(suite.simulatorInstructionFile, "utf8")
        : null,
      simulatorModel: opts.simulatorModel ?? null,
    },
    sandbox: {
      cli: opts.sandbox ?? null,
      suite: cfg.sandbox ?? null,
      probe: needsProbe ? await probeSandboxes() : null,
    },
    note: (() => {
      const said = new Set<string>();
      return (message: string): void => {
        if (said.has(message)) return;
        said.add(message);
        opts.onProgress?.({ type: "note", message });
      };
    })(),
    judgeFor: judge.judgeFor,
    judgeCache: judge.cache,
    modelApi: tracker ? (run) => tracker.recordFor(run) : opts.queue?.modelApi,
    signal: kill,
  };
  const startedAt = firstStartedAt ?? new Date().toISOString();
  const margin = opts.margin ?? keptMargin;
  const frozenReports = (frozen?.reports ?? []).filter(
    (r) => !keptOutside.some((k) => k.run_id === r.run_id),
  );
  const resumeKept = keptOutside.length;
  keptOutside = [...keptOutside, ...frozenReports];
  const keptSpecs: RunSpec[] = keptOutside.map((r) => ({
    run_id: r.run_id,
    task: r.task,
    treatment: r.treatment,
    rep: r.rep,
  }));
  const experimentMatrix: RunSpec[] = [...planned, ...keptSpecs];
  const askedText = [
    `--count ${count}`,
    `${taskNames.length} task(s)`,
    `treatments ${[...new Set(planned.map((r) => r.treatment))].join(", ")}`,
    `${planned.length} run(s)`,
  ].join(", ");
  const metadata: ExperimentMetadata = {
    schema: METADATA_SCHEMA,
    experiment_id: experimentId,
    started_at: startedAt,
    completed_at: null,
    suite: { path: suite.root, hash: suite.hash },
    tasks: [...new Set(experimentMatrix.map((r) => r.task))],
    treatments: [...new Set(experimentMatrix.map((r) => r.treatment))],
    count: Math.max(count, ...experimentMatrix.map((r) => r.rep)),
    concurrency,
    matrix: experimentMatrix,
    // What this invocation asked for; the matrix (and every report) may hold more on --resume.
    last_invocation: {
      asked: askedText,
      runs: planned.length,
      kept_outside_request: resumeKept,
    },
    model,
    profile: ctx.profileOverride,
    ...(margin !== undefined ? { margin } : {}),
    ...(frozen
      ? {
          baseline_from: {
            dir: frozen.dir,
            treatment: frozen.treatment,
            runs: frozen.reports.map((r) => r.run_id),
            drift: baselineDrift,
          },
        }
      : {}),
    model_script: scriptFile ? path.resolve(cwd, scriptFile) : null,
    versions: {
      skillbench: SKILLBENCH_VERSION,
      claude: driver.name === "claude" ? version : null,
      node: process.version,
    },
    agent: { name: reportAgentName(driver.name), version },
    agent_bin: { path: bin.path, source: bin.source },
    total_runs: experimentMatrix.length,
    total_passed: null,
    /** --decision-pattern: added to every task's decision_patterns. */
    decision_patterns: [...(opts.interaction?.decisionPatterns ?? [])],
    ...(keptRoles !== undefined ? { comparison_roles: keptRoles } : {}),
  };
  await writeMetadata(paths.metadata, metadata);
  await writeSuiteSnapshot(outDir, suite);
  opts.onProgress?.({
    type: "plan",
    total: experimentMatrix.length,
    toRun: toRun.length,
    reused: reused.length + keptOutside.length,
    outDir,
    experimentId,
  });

  const fresh: RunReport[] = [];
  // A full disk stops new runs; the running ones finish what they can (docs/sandbox.md).
  const diskStop = new AbortController();
  let diskFullFile: string | null = null;
  const dispatch = opts.queue?.dispatch;
  try {
    if (dispatch)
      fresh.push(
        ...(await dispatch({
          toRun,
          experimentId,
          outDir,
          suite,
          ctx,
          scripted: server ? { url: server.url, hasJudge: scriptHasJudge, scriptId } : null,
          stop: opts.stopSignal,
          onProgress: opts.onProgress,
        })),
      );
    else
      await runPool(
        toRun,
        concurrency,
        async (spec) => {
          opts.onProgress?.({ type: "start", run: spec });
          const report = await executeRun(ctx, spec).catch((e: unknown) => {
            if (!isDiskFull(e)) throw e;
            diskFullFile ??= errorPath(e) ?? outDir;
            diskStop.abort();
            return null;
          });
          if (report) fresh.push(report);
          opts.onProgress?.({ type: "end", run: spec, report });
        },
        {
          stop: opts.stopSignal
            ? AbortSignal.any([opts.stopSignal, diskStop.signal])
            : diskStop.signal,
          onError: (spec, e) =>
            opts.onProgress?.({ type: "note", message: `${spec.run_id}: ${String(e)}` }),
        },
      );
  } finally {
    await server?.close();
  }
  // diskFullFile is set by a run's callback while the pool is awaited (the rule cannot see it).
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  if (diskFullFile !== null) {
    // Whatever still fits; the message names the file that did not.
    await writeMetadata(paths.metadata, metadata).catch(() => undefined);
    await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html }).catch(() => undefined);
    throw new DiskFullError(diskFullFile, outDir);
  }
  const byId = new Map([...reused, ...keptOutside, ...fresh].map((r) => [r.run_id, r]));
  const reports = experimentMatrix
    .map((r) => byId.get(r.run_id))
    .filter((r): r is RunReport => r !== undefined);
  const incomplete = experimentMatrix.filter((r) => !byId.has(r.run_id));
  metadata.completed_at = incomplete.length === 0 ? new Date().toISOString() : null;
  metadata.total_passed = reports.filter((r) => r.passed).length;
  await writeMetadata(paths.metadata, metadata);
  const files =
    opts.queue?.writeReports === false
      ? []
      : await writeExperimentReports(outDir, { ks: opts.ks, html: opts.html });
  return { outDir, experimentId, planned: experimentMatrix, reports, incomplete, files };
}

/** The model endpoint of a non-Anthropic agent from the host's environment (no scripted server). */
export function liveEndpoint(
  api: AgentDriver["api"],
  hostEnv: Record<string, string | undefined>,
): AgentEndpoint {
  return api === "gemini"
    ? { baseUrl: hostEnv.GOOGLE_GEMINI_BASE_URL, apiKey: hostEnv.GEMINI_API_KEY }
    : { baseUrl: hostEnv.OPENAI_BASE_URL, apiKey: hostEnv.OPENAI_API_KEY };
}
