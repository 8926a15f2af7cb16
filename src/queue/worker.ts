import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Job } from "bullmq";
import { agentDriver } from "../agents/index.js";
import { agentNames, defaultAgent } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import { runDir } from "../store/layout.js";
import { runSuite } from "../runner/run-suite.js";
import {
  chooseSandbox,
  keptProbes,
  requestedSandbox,
  type SandboxChoice,
} from "../sandbox/index.js";
import { isSecretName } from "../util/redact.js";
import { resultKey, redisArtifactStore } from "./artifacts.js";
import { BundleCache } from "./bundle.js";
import {
  connectRedis,
  explainRedisError,
  queueAddress,
  queueLibs,
  waitForQueue,
} from "./connect.js";
import {
  isEndpointName,
  JobDataSchema,
  KEY_PREFIX,
  queueNameFor,
  WORKER_TTL_SEC,
  workerKey,
  type JobData,
  type JobResult,
} from "./job.js";
import { startModelTap, type ModelTap } from "./model-tap.js";
import { LIVE_BASE_URLS } from "../model/tap.js";
import { redisSpend } from "./budget-counter.js";
import { macMatches, macOf, requireQueueKey, unseal } from "./sign.js";
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
  /**
   * Run agents under `--sandbox local` (asked for, or what `auto` falls back to): refused
   * without this, since a local agent reads this host's files and environment (the queue's
   * password and key, other credentials).
   */
  allowLocal?: boolean | undefined;
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
/** How often a run whose coordinator's scripted model is gone looks again. */
const COORDINATOR_WAIT_MS = 5000;
/** How long a worker keeps the sandbox probe's answers (src/sandbox/probe.ts keptProbes). */
const PROBE_KEPT_MS = 60_000;

/** Said when a worker may run agents with no isolation (--allow-local-worker). */
const LOCAL_WORKER_WARNING =
  "warning: --sandbox local on a worker: queued agents run as this user, with this host's files, network and environment (the queue's password and key, any credential): only where the host itself is the isolation (a throwaway container or VM)";

/** Does anything listen at the URL's host and port? (The coordinator's scripted model server.) */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const sock = net.connect({ host: u.hostname, port: Number(u.port || 80) });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(2000, () => done(false));
    sock.once("connect", () => done(true));
    sock.once("error", () => done(false));
  });
}

export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const hostEnv = o.hostEnv ?? process.env;
  const log = o.log ?? (() => undefined);
  const name = o.name ?? `${os.hostname()}:${process.pid}`;
  const key = requireQueueKey(hostEnv);
  if (o.sandbox === "local" && !o.allowLocal)
    throw new InputError(
      "--sandbox local on a worker runs queued agents with this host's files and environment (the queue's password and key among them): give --allow-local-worker to accept that (only where the host itself is the isolation), or use bwrap or docker",
      { field: "--sandbox" },
    );
  if (o.allowLocal) log(LOCAL_WORKER_WARNING);
  await waitForQueue(o.url, { log });
  const { UnrecoverableError, DelayedError } = await queueLibs();
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

  const agent = o.agent ?? defaultAgent().name;
  if (!agentNames().includes(agent))
    throw new InputError(`--agent ${agent}: use one of ${agentNames().join(", ")}`, {
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
  /** A job this worker will not run, whoever retries it: failed for good, and said. */
  const refuse = async (job: Job, why: string): Promise<never> => {
    log(`refused ${job.id ?? "?"}: ${why}`);
    await job
      .log(
        JSON.stringify({
          event: "error",
          attempt: job.attemptsStarted,
          worker: name,
          message: `refused: ${why}`,
        }),
      )
      .catch(() => undefined);
    throw new UnrecoverableError(`refused by worker ${name}: ${why}`);
  };
  /** The job's signature checked, its `--env` values opened and checked. */
  const openJob = async (job: Job): Promise<{ data: JobData; env: Record<string, string> }> => {
    const parsed = JobDataSchema.safeParse(job.data);
    if (!parsed.success)
      return refuse(job, "not a signed skillbench job (written by another version, or by hand)");
    const { sig, ...unsigned } = parsed.data;
    if (!macMatches(key, "job", unsigned, sig))
      return refuse(
        job,
        "its signature does not match (SKILLBENCH_QUEUE_KEY differs from the coordinator's, or the job or its bundle's hash was changed in the queue)",
      );
    if (`${unsigned.experiment_id}/${unsigned.run.run_id}` !== job.id)
      return refuse(job, `its signed run ${unsigned.run.run_id} is not the job's`);
    let env: Record<string, string> = {};
    if (unsigned.settings.env_sealed) {
      const opened = (() => {
        try {
          return unseal(key, unsigned.settings.env_sealed);
        } catch {
          return null;
        }
      })();
      if (opened === null || typeof opened !== "object" || Array.isArray(opened))
        return refuse(job, "its --env values do not open under this worker's key");
      env = Object.fromEntries(Object.entries(opened).map(([k, v]) => [k, String(v)]));
    }
    if (unsigned.settings.judge.judgeBaseUrl !== undefined)
      return refuse(job, "--judge-base-url: the judge's endpoint is this worker's, not a job's");
    for (const n of Object.keys(env))
      if (isSecretName(n) || isEndpointName(n))
        return refuse(
          job,
          `--env ${n}: a queued run may not set a credential, endpoint or proxy variable`,
        );
    return { data: parsed.data, env };
  };
  /** The sandbox a job's run would get here; refused when it is local and local is not allowed. */
  const sandboxFor = async (
    data: JobData,
    suite: Awaited<ReturnType<BundleCache["get"]>>,
  ): Promise<SandboxChoice | undefined> => {
    const choice = o.sandbox ?? data.settings.sandbox ?? undefined;
    if (o.allowLocal) return choice;
    const task = suite.tasks.find((t) => t.name === data.run.task);
    const asked = requestedSandbox(choice, task, suite.config.sandbox);
    const kind =
      asked === "auto"
        ? chooseSandbox(
            asked,
            {
              hasDockerfile:
                task?.environment_dir != null &&
                existsSync(path.join(task.environment_dir, "Dockerfile")),
            },
            await probe(),
          ).kind
        : asked;
    if (kind === "local")
      throw new UnrecoverableError(
        `refused by worker ${name}: the run would go under --sandbox local (${asked === "auto" ? "no bubblewrap or Docker usable here" : "asked for"}); start the worker with --allow-local-worker to allow that`,
      );
    return choice;
  };
  /**
   * The coordinator's scripted model does not answer (its coordinator was killed): the job waits
   * (delayed, no attempt spent) until a coordinator resumes the experiment and gives it its own
   * model's address (coordinator.ts), instead of running against a dead server.
   */
  const waitForCoordinator = async (
    job: Job,
    token: string | undefined,
    url: string,
  ): Promise<never> => {
    log(
      `${job.id ?? "?"}: its coordinator's scripted model at ${url} does not answer; the run waits for a coordinator to resume the experiment (run --resume --queue)`,
    );
    await job.moveToDelayed(Date.now() + COORDINATOR_WAIT_MS, token);
    throw new DelayedError();
  };
  const processRun = async (job: Job, token?: string): Promise<JobResult> => {
    const { data, env: jobEnv } = await openJob(job);
    if (data.settings.agent !== agent)
      return refuse(job, `a ${data.settings.agent} run in the ${agent} queue`);
    if (data.settings.scripted && !(await answers(data.settings.scripted.url)))
      return waitForCoordinator(job, token, data.settings.scripted.url);
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
    let tap: ModelTap | null = null;
    let out: string | null = null;
    try {
      const suite = await bundles.get(data.bundle);
      const sandbox = await sandboxFor(data, suite);
      out = await mkdtemp(path.join(workDir, tempStem("job", data.experiment_id, process.pid)));
      let scripted = s.scripted
        ? { url: s.scripted.url, hasJudge: s.scripted.has_judge, scriptId: s.scripted.script_id }
        : undefined;
      let env = hostEnv;
      // Under the scripted model the tap counts the run's requests (its model_api record); with
      // a rate limit it also gates them. It fronts the scripted model, else this host's endpoint
      // for the agent's API.
      const tracker = scripted ? createModelApiTracker() : undefined;
      // With a budget, a live endpoint is tapped too: the run's relay then meters plain http.
      if (scripted || s.rate_limit || s.budget) {
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
        env: jobEnv,
        // A worker's credentials go only to its own endpoint: none to a coordinator's
        // scripted model.
        passEnv: [...s.pass_env, ...(o.passEnv ?? [])].filter((n) => !scripted || !isSecretName(n)),
        timeoutSec: s.timeout_sec ?? undefined,
        judgeFlags: s.judge,
        interaction: s.interaction,
        simulatorModel: s.simulator_model ?? undefined,
        sandbox,
        html: false,
        budget: s.budget
          ? { usd: s.budget.usd, tokens: s.budget.tokens, runUsd: s.budget.run_usd }
          : undefined,
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
          sharedSpend: s.budget ? (id) => redisSpend(redis, id) : undefined,
        },
      });
      const report = res.reports[0];
      // The experiment's budget (all workers together) cannot cover the run: it stays unrun, not
      // retried (--resume with a larger budget runs it).
      if (!report && res.budget?.refused)
        throw new UnrecoverableError(`unrun (budget): ${res.budget.refused}`);
      if (!report) throw new Error(`the run was cancelled on worker ${name}`);
      // The scripted model is the coordinator's: if it is gone (killed; a resumed coordinator
      // serves at another address), this attempt talked to a dead server and goes back.
      if (s.scripted && !(await answers(s.scripted.url)))
        return await waitForCoordinator(job, token, s.scripted.url);
      const packed = await packRunRecord(runDir(out, data.run.run_id), data.run.run_id, maxResult);
      const artifact = resultKey(data.experiment_id, data.run.run_id, attempt);
      // Kept for two weeks at most if no coordinator collects it.
      await store.put(artifact, packed.compressed, 14 * 24 * 3600);
      log(`finished ${tag}: ${report.status}`);
      const result: Omit<JobResult, "sig"> = {
        schema: "skillbench.queue-result.v2",
        job_id: jobId,
        artifact,
        compressed_bytes: packed.compressed.length,
        sha256: createHash("sha256").update(packed.compressed).digest("hex"),
        status: report.status,
        worker: name,
        omitted: packed.omitted,
      };
      return { ...result, sig: macOf(key, "record", result) };
    } catch (e) {
      const message =
        e instanceof DelayedError
          ? "its coordinator's scripted model stopped answering during the run"
          : e instanceof Error
            ? e.message
            : String(e);
      log(`error in ${tag}: ${message}`);
      await job
        .log(JSON.stringify({ event: "error", attempt, worker: name, message }))
        .catch(() => undefined);
      throw e;
    } finally {
      running.delete(jobId);
      void beat();
      await tap?.close();
      if (out !== null) await rm(out, { recursive: true, force: true }).catch(() => undefined);
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
  // An outage is said once when it starts and once when it ends (BullMQ reconnects on its own).
  let down = false;
  const where = queueAddress(o.url);
  const lost = (e: unknown): void => {
    if (down) return;
    down = true;
    log(`lost the queue at ${where}: ${explainRedisError(e).cause}; waiting for it to return`);
  };
  worker.on("error", lost);
  redis.on("error", lost);
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    log(`the queue at ${where} answers again`);
  });
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
