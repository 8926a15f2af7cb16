import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveClaudeBinary } from '../agents/claude/binary.js';
import { InputError } from '../core/errors.js';
import type { RunReport } from '../core/report.js';
import { loadModelScript, runBaseUrl, startModelServer, type ModelServer } from '../model/index.js';
import { planRuns, type RunSpec } from '../plan/matrix.js';
import { experimentPaths } from '../store/layout.js';
import { readReports } from '../store/read.js';
import { loadSuite, selectNames, type Suite, type SuiteWarning } from '../suite/index.js';
import { readJsonFile, writeJsonAtomic } from '../util/fs.js';
import { makeRedactor, secretsFromEnv } from '../util/redact.js';
import { agentVersion } from './agent-version.js';
import type { Endpoint, RunContext } from './context.js';
import { writeExperimentReports } from './finish.js';
import { runPool } from './pool.js';
import { executeRun } from './run-one.js';

export const SKILLBENCH_VERSION = '0.1.0';

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
  resume?: boolean | undefined;
  modelScript?: string | undefined;
  /** --env KEY=VALUE */
  env?: Record<string, string> | undefined;
  /** --pass-env NAME */
  passEnv?: string[] | undefined;
  timeoutSec?: number | undefined;
  keepWorkspaces?: boolean | undefined;
  ks?: number[] | undefined;
  hostEnv?: Record<string, string | undefined>;
  cwd?: string;
  /** First Ctrl-C: no new runs start. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: running agents are killed. */
  killSignal?: AbortSignal;
  onWarning?: (w: SuiteWarning) => void;
  onProgress?: (e: ProgressEvent) => void;
}

export type ProgressEvent =
  | { type: 'plan'; total: number; toRun: number; reused: number; outDir: string; experimentId: string }
  | { type: 'start'; run: RunSpec }
  | { type: 'end'; run: RunSpec; report: RunReport | null }
  | { type: 'note'; message: string };

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
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${randomBytes(3).toString('hex')}`;
}

function positiveInt(name: string, v: unknown, file?: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new InputError(`${file ? `${file}: ` : ''}${name}: expected a positive whole number, got ${JSON.stringify(v)}`, { field: name });
  return v;
}

/** Run a suite: plan, run every run (isolated, concurrent), then write the experiment's reports. */
export async function runSuite(opts: RunOptions): Promise<RunSummary> {
  const hostEnv = opts.hostEnv ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const suite: Suite = await loadSuite(path.resolve(cwd, opts.suite), { onWarning: opts.onWarning });
  const cfg = suite.config;
  const count = positiveInt('--count', opts.count) ?? positiveInt('count', cfg.count, 'skillbench.yaml') ?? 1;
  const concurrency = positiveInt('--concurrency', opts.concurrency) ?? positiveInt('concurrency', cfg.concurrency, 'skillbench.yaml') ?? 1;
  const taskNames = selectNames('task', suite.tasks.map((t) => t.name), opts.task ?? cfg.task ?? undefined);
  const treatmentFilterText = opts.treatment ?? cfg.treatment ?? undefined;
  const treatmentFilter = treatmentFilterText
    ? selectNames('treatment', suite.treatments.map((t) => t.name), treatmentFilterText)
    : null;
  const planned = planRuns({
    tasks: suite.tasks
      .filter((t) => taskNames.includes(t.name))
      .map((t) => ({ name: t.name, default_treatments: t.metadata.default_treatments })),
    treatments: suite.treatments.map((t) => t.name),
    treatmentFilter,
    count,
  });

  const bin = resolveClaudeBinary({ agentBin: opts.agentBin, env: hostEnv });
  if ('error' in bin) throw new InputError(bin.error, { field: '--agent-bin' });

  let experimentId = experimentIdNow();
  const outOpt = opts.out ?? cfg.out ?? undefined;
  if (opts.resume && !outOpt) throw new InputError('--resume needs --out DIR: the results folder of the interrupted run', { field: '--resume' });
  const outDir = outOpt ? path.resolve(cwd, outOpt) : path.resolve(cwd, '.skillbench', 'runs', experimentId);
  const paths = experimentPaths(outDir);
  let reused: RunReport[] = [];
  if (opts.resume) {
    const prev = await readJsonFile(paths.metadata).catch(() => null);
    if (prev && typeof prev === 'object' && 'experiment_id' in prev && typeof prev.experiment_id === 'string')
      experimentId = prev.experiment_id;
    const wanted = new Set(planned.map((r) => r.run_id));
    reused = (await readReports(outDir).catch(() => ({ reports: [] as RunReport[] }))).reports.filter(
      (r) => wanted.has(r.run_id) && r.status !== 'errored',
    );
  }
  if (!opts.resume) {
    const existing = await readdir(path.join(outDir, 'runs')).catch(() => [] as string[]);
    if (existing.length > 0)
      throw new InputError(
        `${outDir} already holds runs: pass --resume to complete it, or choose another --out`,
        { file: outDir, field: '--out' },
      );
  }
  await mkdir(outDir, { recursive: true });
  const done = new Set(reused.map((r) => r.run_id));
  const toRun = planned.filter((r) => !done.has(r.run_id));

  // The model endpoint: a scripted server for this run's lifetime, or the environment's.
  const scriptFile = opts.modelScript ?? cfg.model_script ?? undefined;
  let server: ModelServer | null = null;
  const model = opts.model ?? cfg.model ?? hostEnv.ANTHROPIC_MODEL ?? null;
  let endpoint: RunContext['endpoint'];
  if (scriptFile) {
    const script = await loadModelScript(path.resolve(cwd, scriptFile));
    server = await startModelServer({ script, scriptFile: path.resolve(cwd, scriptFile), recordFile: paths.modelLog });
    const url = server.url;
    endpoint = (run, role): Endpoint => ({ baseUrl: runBaseUrl(url, { ...run, role }), apiKey: 'sk-skillbench-scripted' });
  } else {
    if (!hostEnv.ANTHROPIC_API_KEY && !hostEnv.ANTHROPIC_AUTH_TOKEN)
      throw new InputError('no model endpoint: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (and ANTHROPIC_BASE_URL), or pass --model-script FILE', { field: '--model-script' });
    endpoint = (): Endpoint => ({
      baseUrl: hostEnv.ANTHROPIC_BASE_URL,
      apiKey: hostEnv.ANTHROPIC_API_KEY,
      authToken: hostEnv.ANTHROPIC_AUTH_TOKEN,
    });
  }

  const declaredEnv = { ...(cfg.env ?? {}), ...(opts.env ?? {}) };
  const passEnv = [...new Set([...(cfg.pass_env ?? []), ...(opts.passEnv ?? [])])];
  // Every credential-like host variable and declared value is redacted from saved files.
  const redact = makeRedactor([...secretsFromEnv(hostEnv), ...secretsFromEnv(declaredEnv)]);
  const version = await agentVersion(bin.path, { PATH: hostEnv.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() }, cwd);
  const kill = opts.killSignal ?? new AbortController().signal;
  const ctx: RunContext = {
    experimentId,
    outDir,
    suite,
    bin,
    agentVersion: version,
    endpoint,
    model,
    profileOverride: opts.profile ?? cfg.profile ?? null,
    declaredEnv,
    passEnv,
    hostEnv,
    redact,
    timeoutSecOverride: opts.timeoutSec ?? cfg.timeout_sec ?? null,
    keepWorkspaces: opts.keepWorkspaces ?? false,
    signal: kill,
  };
  const startedAt = new Date().toISOString();
  const metadata = {
    schema: 'skillbench.experiment.v1',
    experiment_id: experimentId,
    started_at: startedAt,
    completed_at: null as string | null,
    suite: { path: suite.root, hash: suite.hash },
    tasks: taskNames,
    treatments: [...new Set(planned.map((r) => r.treatment))],
    count,
    concurrency,
    matrix: planned,
    model,
    profile: ctx.profileOverride,
    model_script: scriptFile ? path.resolve(cwd, scriptFile) : null,
    versions: { skillbench: SKILLBENCH_VERSION, claude: version, node: process.version },
    agent_bin: { path: bin.path, source: bin.source },
    total_runs: planned.length,
    total_passed: null as number | null,
  };
  await writeJsonAtomic(paths.metadata, metadata);
  opts.onProgress?.({ type: 'plan', total: planned.length, toRun: toRun.length, reused: reused.length, outDir, experimentId });

  const fresh: RunReport[] = [];
  try {
    await runPool(
      toRun,
      concurrency,
      async (spec) => {
        opts.onProgress?.({ type: 'start', run: spec });
        const report = await executeRun(ctx, spec);
        if (report) fresh.push(report);
        opts.onProgress?.({ type: 'end', run: spec, report });
      },
      { stop: opts.stopSignal, onError: (spec, e) => opts.onProgress?.({ type: 'note', message: `${spec.run_id}: ${String(e)}` }) },
    );
  } finally {
    await server?.close();
  }
  const byId = new Map([...reused, ...fresh].map((r) => [r.run_id, r]));
  const reports = planned.map((r) => byId.get(r.run_id)).filter((r): r is RunReport => r !== undefined);
  const incomplete = planned.filter((r) => !byId.has(r.run_id));
  metadata.completed_at = incomplete.length === 0 ? new Date().toISOString() : null;
  metadata.total_passed = reports.filter((r) => r.passed).length;
  await writeJsonAtomic(paths.metadata, metadata);
  const files = await writeExperimentReports(outDir, { ks: opts.ks });
  return { outDir, experimentId, planned, reports, incomplete, files };
}
