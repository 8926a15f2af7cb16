import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Job } from "bullmq";
import { agentDriver } from "../agents/index.js";
import { AGENT_NAMES } from "../agents/types.js";
import { InputError } from "../core/errors.js";
import { runDir } from "../store/layout.js";
import { runSuite } from "../runner/run-suite.js";
import { keptProbes, type SandboxChoice } from "../sandbox/index.js";
import { resultKey, redisArtifactStore } from "./artifacts.js";
import { BundleCache } from "./bundle.js";
import { connectRedis, queueLibs } from "./connect.js";
import {
  JobDataSchema,
  KEY_PREFIX,
  queueNameFor,
  WORKER_TTL_SEC,
  workerKey,
  type JobData,
  type JobResult,
} from "./job.js";
import { startModelTap, type ModelTap } from "./model-tap.js";
import { createModelApiTracker } from "../runner/model-api.js";
import { DEFAULT_MAX_RESULT_BYTES, packRunRecord } from "./transfer.js";
import type { QueueUrl } from "./url.js";
import { tempStem } from "../util/temp-names.js";

/**
 * `skillbench worker`: take runs from the queue and execute them here, with this host's agent
 * binary, sandbox and credentials. A job names its suite by content hash (fetched once, cached
 * under the cache folder); the run executes exactly as in a local run (runSuite, limited to that
 * one run, in a scratch results folder) and its record goes back compressed and capped.
 */

export interface WorkerOptions {
  url: QueueUrl;
  concurrency?: number | undefined;
  /** Overrides the experiment's --sandbox on this host. */
  sandbox?: SandboxChoice | undefined;
  agentBin?: string | undefined;
  /** The agent CLI whose runs this worker takes (default claude): one queue per agent. */
  agent?: string | undefined;
  /** Extra variable names passed from this host's environment (beyond the experiment's). */
  passEnv?: string[] | undefined;
  /** Where unpacked suites are kept (default ~/.cache/skillbench/bundles). */
  cacheDir?: string | undefined;
  /** Scratch folder for runs in progress (default the system temp folder). */
  workDir?: string | undefined;
  /** How long a run's lock lasts without renewal; the worker renews it at half that. */
  lockDurationMs?: number | undefined;
  /** How often workers look for runs whose lock expired (their worker lost). */
  stalledIntervalMs?: number | undefined;
  maxResultBytes?: number | undefined;
  name?: string | undefined;
  hostEnv?: Record<string, string | undefined>;
  /** One line for the operator (start, end, notes). */
  log?: (line: string) => void;
}

export interface RunningWorker {
  name: string;
  /** Stop taking runs; resolves when the running ones have finished and been sent. */
  drain(): Promise<void>;
  /** Kill the running agents (their runs go back to the queue), then stop. */
  kill(): Promise<void>;
}

const DEFAULT_LOCK_MS = 60_000;
/** How long a worker keeps the sandbox probe's answers (src/sandbox/probe.ts keptProbes). */
const PROBE_KEPT_MS = 60_000;

/** The variable naming each model API's endpoint, and its default. */
const LIVE_BASE_URLS = {
  anthropic: ["ANTHROPIC_BASE_URL", "https://api.anthropic.com"],
  "openai-responses": ["OPENAI_BASE_URL", "https://api.openai.com/v1"],
  gemini: ["GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com"],
} as const;

export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const hostEnv = o.hostEnv ?? process.env;
  const log = o.log ?? (() => undefined);
  const name = o.name ?? `${os.hostname()}:${process.pid}`;
  const redis = await connectRedis(o.url);
  const workerConn = await connectRedis(o.url);
  const { Worker } = await queueLibs();
  const store = redisArtifactStore(redis);
  const cacheDir =
    o.cacheDir ??
    path.join(hostEnv.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "skillbench", "bundles");
  await mkdir(cacheDir, { recursive: true });
  const workDir = o.workDir ?? os.tmpdir();
  await mkdir(workDir, { recursive: true });
  const bundles = new BundleCache(cacheDir, store);
  const kill = new AbortController();
  const maxResult = o.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;

  const agent = o.agent ?? "claude";
  if (!(AGENT_NAMES as readonly string[]).includes(agent))
    throw new InputError(`--agent ${agent}: use one of ${AGENT_NAMES.join(", ")}`, {
      field: "--agent",
    });
  const running = new Set<string>();
  const startedAt = new Date().toISOString();
  const concurrency = o.concurrency ?? 1;
  // A presence record for `queue status`, refreshed while the worker lives.
  const beat = (): Promise<unknown> =>
    redis
      .set(
        workerKey(name),
        JSON.stringify({
          name,
          host: os.hostname(),
          pid: process.pid,
          concurrency,
          agent,
          started_at: startedAt,
          running: [...running],
          seen_at: new Date().toISOString(),
        }),
        "EX",
        WORKER_TTL_SEC,
      )
      .catch(() => undefined);

  // What the machine offers (bubblewrap, docker) is asked once a minute, not for every job.
  const probe = keptProbes(PROBE_KEPT_MS);
  const processRun = async (job: Job): Promise<JobResult> => {
    const data: JobData = JobDataSchema.parse(job.data);
    if (data.settings.agent !== agent)
      throw new Error(`a ${data.settings.agent} run in the ${agent} queue`);
    const attempt = job.attemptsStarted;
    const jobId = job.id ?? data.run.run_id;
    running.add(jobId);
    void beat();
    await job.log(
      JSON.stringify({ event: "start", attempt, worker: name, at: new Date().toISOString() }),
    );
    const tag = `${data.run.run_id} (${data.experiment_id}, attempt ${attempt})`;
    log(`started ${tag}`);
    const s = data.settings;
    const suite = await bundles.get(data.bundle);
    const out = await mkdtemp(path.join(workDir, tempStem("job", data.experiment_id, process.pid)));
    let tap: ModelTap | null = null;
    try {
      let scripted = s.scripted
        ? { url: s.scripted.url, hasJudge: s.scripted.has_judge, scriptId: s.scripted.script_id }
        : undefined;
      let env = hostEnv;
      // Under the scripted model the tap counts the run's requests (its model_api record); with
      // a rate limit it also gates them. It fronts the scripted model, else this host's endpoint
      // for the agent's API.
      const tracker = scripted ? createModelApiTracker() : undefined;
      if (scripted || s.rate_limit) {
        const api = agentDriver(s.agent)?.api ?? "anthropic";
        const [baseVar, defaultBase] = LIVE_BASE_URLS[api];
        tap = await startModelTap({
          upstream: scripted?.url ?? hostEnv[baseVar] ?? defaultBase,
          gate: s.rate_limit
            ? { redis, experimentId: data.experiment_id, limit: s.rate_limit }
            : undefined,
          tracker,
        });
        if (scripted) scripted = { ...scripted, url: tap.url };
        else env = { ...hostEnv, [baseVar]: tap.url };
      }
      const res = await runSuite({
        suite: suite.root,
        task: data.run.task,
        treatment: data.run.treatment,
        count: data.run.rep,
        concurrency: 1,
        out,
        profile: s.profile ?? undefined,
        model: s.model ?? undefined,
        agent: s.agent,
        agentRetries: s.agent_retries ?? undefined,
        simulatorAgent: s.simulator_agent ?? undefined,
        agentBin: o.agentBin,
        env: s.env,
        passEnv: [...s.pass_env, ...(o.passEnv ?? [])],
        timeoutSec: s.timeout_sec ?? undefined,
        judgeFlags: s.judge,
        interaction: s.interaction,
        simulatorModel: s.simulator_model ?? undefined,
        sandbox: o.sandbox ?? s.sandbox ?? undefined,
        html: false,
        hostEnv: env,
        cwd: workDir,
        killSignal: kill.signal,
        onProgress: (e) => {
          if (e.type === "note") log(`${data.run.run_id}: ${e.message}`);
        },
        queue: {
          suite,
          only: [data.run.run_id],
          experimentId: data.experiment_id,
          scripted,
          modelApi: tracker ? (run) => tracker.recordFor(run) : undefined,
          writeReports: false,
          secrets: o.url.password ? [o.url.password] : [],
          probe,
        },
      });
      const report = res.reports[0];
      if (!report) throw new Error(`the run was cancelled on worker ${name}`);
      const packed = await packRunRecord(runDir(out, data.run.run_id), data.run.run_id, maxResult);
      const key = resultKey(data.experiment_id, data.run.run_id, attempt);
      // Kept for two weeks at most if no coordinator collects it.
      await store.put(key, packed.compressed, 14 * 24 * 3600);
      log(`finished ${tag}: ${report.status}`);
      return {
        schema: "skillbench.queue-result.v1",
        artifact: key,
        compressed_bytes: packed.compressed.length,
        status: report.status,
        worker: name,
        omitted: packed.omitted,
      };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log(`error in ${tag}: ${message}`);
      await job
        .log(JSON.stringify({ event: "error", attempt, worker: name, message }))
        .catch(() => undefined);
      throw e;
    } finally {
      running.delete(jobId);
      void beat();
      await tap?.close();
      await rm(out, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  const worker = new Worker(queueNameFor(agent), processRun, {
    connection: workerConn,
    prefix: KEY_PREFIX,
    concurrency: o.concurrency ?? 1,
    lockDuration: o.lockDurationMs ?? DEFAULT_LOCK_MS,
    // Dead workers' runs are looked for at least every 5 s (a cheap check in Redis).
    stalledInterval:
      o.stalledIntervalMs ??
      Math.max(1000, Math.min(5000, (o.lockDurationMs ?? DEFAULT_LOCK_MS) / 2)),
    // A run lost to a dead worker is retried up to twice before its job counts as failed.
    maxStalledCount: 2,
    name,
  });
  worker.on("error", (e) => log(`queue error: ${e.message}`));
  await worker.waitUntilReady();
  await beat();
  const beating = setInterval(() => void beat(), (WORKER_TTL_SEC * 1000) / 3);
  beating.unref();
  log(
    `ready: ${name} on ${o.url.display}, ${agent} runs, ${o.concurrency ?? 1} at once, suites cached in ${cacheDir}`,
  );
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await worker.close();
      clearInterval(beating);
      await redis.del(workerKey(name)).catch(() => undefined);
      workerConn.disconnect();
      redis.disconnect();
    })();
    return closing;
  };
  return {
    name,
    drain: close,
    kill: async () => {
      kill.abort();
      await close();
    },
  };
}
