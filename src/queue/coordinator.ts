import type { Job } from "bullmq";
import { hasBudget } from "../cost/budget.js";
import { budgetLimits } from "../runner/budget-setup.js";
import { mkdir, rmdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { createHash } from "node:crypto";
import { defaultAgent } from "../agents/index.js";
import { DiskFullError, errorPath, InputError, isDiskFull } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { RunReport } from "../core/report.js";
import type { DispatchArgs, RunOptions } from "../runner/run-suite.js";
import { isSecretName } from "../util/redact.js";
import { rescoreContext } from "../runner/rescore-context.js";
import { rescoreRun, type RescoreContext } from "../runner/rescore-run.js";
import { readSuiteSnapshot } from "../store/suite-snapshot.js";
import { bundleKey, redisArtifactStore } from "./artifacts.js";
import { packSuiteBundle, uploadBundle } from "./bundle.js";
import {
  bounded,
  connectRedis,
  explainRedisError,
  openQueue,
  queueAddress,
  QueueStopped,
  queueRetryMs,
  shut,
} from "./connect.js";
import {
  isEndpointName,
  JobResultSchema,
  jobIdFor,
  KEY_PREFIX,
  queueNameFor,
  type JobData,
  type JobSettings,
  type RateLimit,
} from "./job.js";
import { macMatches, macOf, QUEUE_KEY_VAR, seal, type QueueKey } from "./sign.js";
import { writeRunRecord } from "./transfer.js";
import type { QueueUrl } from "./url.js";

/**
 * The coordinator's side of `run --queue`: enqueue one job per planned run, follow them,
 * and write each finished run's record into the results folder as it arrives. Plugged into
 * runSuite as its dispatcher, so planning, metadata and the reports are those of a local run.
 */

export interface QueueRunSettings {
  url: QueueUrl;
  /** 1 is served first; default 100. */
  priority?: number | undefined;
  rateLimit?: RateLimit | null | undefined;
  /** Attempts per run before its job fails (a worker lost mid-run uses one). */
  attempts?: number | undefined;
  /** The shared key (SKILLBENCH_QUEUE_KEY): jobs signed, `--env` sealed, records checked. */
  key: QueueKey;
}

const DEFAULT_PRIORITY = 100;
const POLL_MS = 1000;

/** The set of job ids whose records this experiment's coordinator has written. */
const collectedKey = (experimentId: string): string => `${KEY_PREFIX}:collected:${experimentId}`;
/**
 * Set once an experiment's jobs are all enqueued: a job missing while this key is there was
 * drained; missing with it, the server lost its data (restarted without persistence).
 */
const experimentKey = (experimentId: string): string => `${KEY_PREFIX}:experiment:${experimentId}`;
/** How long finished jobs, records and the keys above are kept (a coordinator collects sooner). */
const KEEP_SEC = 14 * 24 * 3600;
/** Completed or failed jobs kept at most, across every experiment of a queue (newest kept). */
const KEEP_JOBS = 20_000;

/**
 * The one agent of a queued experiment (each agent has its own queue and workers): a plan whose
 * treatments pin different agents is refused here, before anything is enqueued.
 */
function queueAgent(args: DispatchArgs): string {
  const agents = [...new Set(args.toRun.map((r) => r.agent))];
  if (agents.length > 1)
    throw new InputError(
      `--queue runs one agent per experiment, and this plan uses ${agents.join(", ")} (treatments pin agents, or --agent lists several): queue one experiment per agent (--treatment), or run it locally`,
      { field: "agent" },
    );
  return agents[0] ?? Object.keys(args.ctx.agent.setups)[0] ?? defaultAgent().name;
}

/**
 * Refuse credentials and model endpoints in a queued run's `--env`, and a judge endpoint (the
 * judge would take the worker's judge credential there), before anything is sent.
 */
export function checkQueuedEnv(
  env: Record<string, string> | undefined,
  judgeBaseUrl?: string,
): void {
  if (judgeBaseUrl !== undefined)
    throw new InputError(
      "--judge-base-url: a queued run may not name the judge's endpoint (the judge runs on each worker with that worker's credential); set BENCH_JUDGE_BASE_URL in each worker's environment",
      { field: "--judge-base-url" },
    );
  for (const name of Object.keys(env ?? {})) {
    if (isSecretName(name))
      throw new InputError(
        `--env ${name}: queued runs never carry credentials; set ${name} in each worker's environment and declare it with --pass-env ${name}`,
        { field: "--env" },
      );
    if (isEndpointName(name))
      throw new InputError(
        `--env ${name}: a queued run may not set a model endpoint, proxy or credential variable (a worker's credentials go only to its own endpoint); set it in each worker's environment`,
        { field: "--env" },
      );
  }
}

/** Worker-side settings of the experiment, the `--env` values sealed under the shared key. */
function jobSettings(
  opts: RunOptions,
  args: DispatchArgs,
  rateLimit: RateLimit | null,
  key: QueueKey,
): JobSettings {
  checkQueuedEnv(opts.env, opts.judgeFlags?.judgeBaseUrl);
  const env = opts.env ?? {};
  const { ctx, settings } = args;
  // The budgets (flags, else skillbench.yaml): every worker shares them (budget-counter.ts).
  const limits = budgetLimits(opts, args.suite.config);
  return {
    agent: queueAgent(args),
    agent_retries: opts.agentRetries ?? null,
    simulator_agent: opts.simulatorAgent ?? null,
    model: settings.model,
    profile: settings.profileOverride,
    timeout_sec: settings.timeoutSecOverride,
    env_sealed: Object.keys(env).length > 0 ? seal(key, env) : null,
    pass_env: ctx.env.pass,
    judge: Object.fromEntries(
      Object.entries(opts.judgeFlags ?? {}).filter(([, v]) => v !== undefined),
    ),
    interaction: Object.fromEntries(
      Object.entries(settings.interaction.cli ?? {}).filter(([, v]) => v !== undefined),
    ),
    simulator_model: settings.interaction.simulatorModel ?? null,
    sandbox: settings.sandbox.cli,
    scripted: args.scripted
      ? {
          url: args.scripted.url,
          has_judge: args.scripted.hasJudge,
          script_id: args.scripted.scriptId,
        }
      : null,
    rate_limit: rateLimit,
    ...(hasBudget(limits)
      ? { budget: { usd: limits.usd, tokens: limits.tokens, run_usd: limits.runUsd } }
      : {}),
  };
}

/** A signed job: the HMAC covers the experiment, the bundle's hash, the run and its settings. */
function signedJob(key: QueueKey, unsigned: Omit<JobData, "sig">): JobData {
  return { ...unsigned, sig: macOf(key, "job", unsigned) };
}

/** The lines a worker writes into its job's log (worker.ts): one per attempt started or failed. */
const AttemptLogSchema = z.discriminatedUnion("event", [
  z.object({
    event: z.literal("start"),
    attempt: z.number().int(),
    worker: z.string(),
    at: z.string(),
  }),
  z.object({
    event: z.literal("error"),
    attempt: z.number().int(),
    worker: z.string(),
    message: z.string(),
  }),
]);
type AttemptLog = z.infer<typeof AttemptLogSchema>;

function parseAttemptLogs(lines: string[]): AttemptLog[] {
  const out: AttemptLog[] = [];
  for (const l of lines) {
    try {
      const p = AttemptLogSchema.safeParse(JSON.parse(l));
      if (p.success) out.push(p.data);
    } catch {
      /* a log line of another kind */
    }
  }
  return out;
}

/** A run's record that failed its signature check: refused, its job removed (--resume reruns it). */
class RecordRefused extends Error {}

export function queueDispatcher(
  opts: RunOptions,
  q: QueueRunSettings,
): (args: DispatchArgs) => Promise<RunDigest[]> {
  return async (args) => {
    const stop = args.stop;
    const where = queueAddress(q.url);
    // Setting up (the bundle, the jobs) waits at most the retry bound for an absent server;
    // following waits as long as it takes (the workers go on), but never past a stop.
    const setup = <T>(p: Promise<T>, what: string): Promise<T> =>
      bounded(p, { signal: stop, ms: queueRetryMs(), what });
    const follow = <T>(p: Promise<T>): Promise<T> => bounded(p, { signal: stop });
    const redis = await connectRedis(q.url);
    const store = redisArtifactStore(redis);
    const queueName = queueNameFor(queueAgent(args));
    const queue = await openQueue(redis, queueName);
    const eventsConn = await connectRedis(q.url);
    const note = (message: string): void => args.onProgress?.({ type: "note", message });
    const reports: RunDigest[] = [];
    const skillPaths = new Map(
      args.suite.treatments.flatMap((t) =>
        t.skills.flatMap((s) => (s.path ? [[`${s.name}\0${s.hash}`, s.path] as const] : [])),
      ),
    );
    let wake: (() => void) | null = null;
    const poke = (): void => wake?.();
    // An outage is said once when it starts and once when it ends, not per reconnect.
    let down = false;
    redis.on("error", (e: unknown) => {
      if (down) return;
      down = true;
      note(
        `lost the queue at ${where}: ${explainRedisError(e).cause}; waiting for it to return (Ctrl-C stops following; the runs stay queued and --resume --queue collects them)`,
      );
    });
    redis.on("ready", () => {
      if (!down) return;
      down = false;
      note(`the queue at ${where} answers again`);
    });
    let recheck: Promise<RescoreContext> | null = null;
    let listening = true;

    /**
     * The queue's event stream (BullMQ's `<prefix>:<queue>:events`), read on a connection of its
     * own: a job's state changes wake the poll at once, and a stalled job (its worker lost) is
     * said. Not BullMQ's QueueEvents: during an outage its loop waits 5 s at a time on timers no
     * close can cancel, which held a stopped coordinator that long; here disconnecting ends it.
     */
    async function listen(name: string, on: (event: string, jobId: string) => void): Promise<void> {
      const key = `${KEY_PREFIX}:${name}:events`;
      const last = await eventsConn.xrevrange(key, "+", "-", "COUNT", 1).catch(() => []);
      let id = last[0]?.[0] ?? "0-0";
      while (listening) {
        const got = await eventsConn
          .xread("COUNT", 100, "BLOCK", 1000, "STREAMS", key, id)
          .catch((): "failed" => "failed");
        // A failing read (not an outage: those wait in the client) tries again a little later.
        if (got === "failed") {
          await new Promise<void>((resolve) => setTimeout(resolve, 250).unref());
          continue;
        }
        for (const [, entries] of got ?? [])
          for (const [entryId, fields] of entries) {
            id = entryId;
            const f = new Map<string, string>();
            for (let i = 0; i + 1 < fields.length; i += 2)
              f.set(fields[i] ?? "", fields[i + 1] ?? "");
            on(f.get("event") ?? "", f.get("jobId") ?? "");
          }
      }
    }
    try {
      const settings = jobSettings(opts, args, q.rateLimit ?? null, q.key);
      // The runs folder exists from the start, as in a local run, even before a record arrives.
      await mkdir(path.join(args.outDir, "runs"), { recursive: true });
      const bundle = await packSuiteBundle(args.suite);
      const outstanding = new Map(
        args.toRun.map((s) => [jobIdFor(args.experimentId, s.run_id), s]),
      );
      const enqueued = await enqueue(settings, bundle, outstanding).catch((e: unknown): null => {
        if (e instanceof QueueStopped) return null;
        throw e;
      });
      if (enqueued === null) {
        note("stopped before the experiment was enqueued: nothing of it is left in the queue");
        return reports;
      }
      void listen(queueName, (event, jobId) => {
        if (event === "stalled") {
          const spec = outstanding.get(jobId);
          if (spec) note(`${spec.run_id}: its worker was lost; the run goes back to the queue`);
        }
        if (["active", "completed", "failed", "removed", "stalled"].includes(event)) poke();
      });
      stop?.addEventListener("abort", poke);
      const started = new Set<string>();
      try {
        while (outstanding.size > 0 && !stop?.aborted) {
          const waiting = new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, POLL_MS).unref();
          });
          const ids = [...outstanding.keys()];
          const states = await follow(Promise.all(ids.map((id) => queue.getJobState(id))));
          for (const [i, id] of ids.entries()) {
            const spec = outstanding.get(id);
            const state = states[i];
            if (!spec) continue;
            if (state === "active" && !started.has(id)) {
              started.add(id);
              args.onProgress?.({ type: "start", run: spec });
            } else if (state === "completed") {
              const job = await follow(queue.getJob(id));
              if (!job) continue;
              if (!started.has(id)) args.onProgress?.({ type: "start", run: spec });
              const report = await collect(job, spec.run_id).catch(async (e: unknown) => {
                if (e instanceof QueueStopped) throw e;
                // A full disk ends the experiment as a local run's does, naming the real folder.
                if (isDiskFull(e))
                  throw new DiskFullError(errorPath(e) ?? args.outDir, args.outDir);
                if (e instanceof RecordRefused) {
                  note(`${spec.run_id}: ${e.message}: refused; --resume runs it again`);
                  // Gone from the queue, so that --resume enqueues the run afresh.
                  await follow(job.remove()).catch(() => undefined);
                } else
                  note(
                    `${spec.run_id}: its record could not be written: ${String(e)}; --resume runs it again`,
                  );
                return null;
              });
              outstanding.delete(id);
              if (report) reports.push(digestOf(report));
              args.onProgress?.({ type: "end", run: spec, report });
            } else if (state === "failed") {
              const job = await follow(queue.getJob(id));
              note(
                `${spec.run_id}: failed on the queue after ${job?.attemptsMade ?? "?"} attempt(s): ${job?.failedReason ?? "unknown"}; --resume runs it again`,
              );
              outstanding.delete(id);
              args.onProgress?.({ type: "end", run: spec, report: null });
            } else if (state === "unknown") {
              const drained = (await follow(redis.exists(experimentKey(args.experimentId)))) === 1;
              note(
                drained
                  ? `${spec.run_id}: removed from the queue (drained) before it ran; --resume runs it again`
                  : `${spec.run_id}: lost from the queue (its Redis server lost its data: restarted without persistence, or flushed); --resume runs it again`,
              );
              outstanding.delete(id);
              args.onProgress?.({ type: "end", run: spec, report: null });
            }
          }
          if (outstanding.size > 0) await waiting;
        }
      } catch (e) {
        if (!(e instanceof QueueStopped)) throw e;
      }
      if (outstanding.size > 0)
        note(
          `${outstanding.size} run(s) are still in the queue; their workers go on. Collect them with --resume --queue`,
        );
      return reports;
    } finally {
      wake = null;
      listening = false;
      // Never wait long for a server that is not there: a stopped coordinator exits.
      eventsConn.disconnect();
      redis.disconnect();
      await shut(queue);
      // The staging folder goes once empty (a record being moved in keeps it).
      await rmdir(path.join(args.outDir, ".incoming")).catch(() => undefined);
    }

    /**
     * Upload the bundle and add the experiment's jobs, all or nothing: on a failure half-way
     * (Redis out of memory, gone, a stop) what this call added is removed again, and the error
     * says so. Jobs left from an earlier coordinator of this experiment are re-attached, with
     * this coordinator's settings (its scripted model's address) and a fresh signature.
     */
    async function enqueue(
      settings: JobSettings,
      bundle: Awaited<ReturnType<typeof packSuiteBundle>>,
      outstanding: Map<string, DispatchArgs["toRun"][number]>,
    ): Promise<void> {
      const added: string[] = [];
      let bundleFresh = false;
      try {
        const stored = await setup(uploadBundle(store, bundle), "storing the suite bundle");
        bundleFresh = stored === "uploaded";
        note(
          `queue ${q.url.display}: suite bundle ${bundle.hash.slice(0, 12)} (${bundle.files} files, ${bundle.compressed.length} bytes) ${stored === "replaced" ? "replaced: the stored copy did not match its hash" : stored}`,
        );
        const collected = new Set(
          await setup(redis.smembers(collectedKey(args.experimentId)), "reading the experiment"),
        );
        const dataOf = (spec: DispatchArgs["toRun"][number]): JobData =>
          signedJob(q.key, {
            schema: "skillbench.queue-job.v2",
            experiment_id: args.experimentId,
            bundle: bundle.hash,
            run: { run_id: spec.run_id, task: spec.task, treatment: spec.treatment, rep: spec.rep },
            settings,
          });
        // A job left from an earlier attempt at this experiment is reused unless it is over
        // (already written, failed, or for another version of the suite): then it goes again.
        const fresh: Array<DispatchArgs["toRun"][number]> = [];
        let reattached = 0;
        for (const [id, spec] of outstanding) {
          const job = await setup(queue.getJob(id), "reading the experiment's jobs");
          if (!job) {
            fresh.push(spec);
            continue;
          }
          const state = await setup(job.getState(), "reading the experiment's jobs");
          const data = job.data as Partial<JobData>;
          const over = state === "completed" || state === "failed";
          if (over && (collected.has(id) || state === "failed" || data.bundle !== bundle.hash)) {
            await setup(job.remove(), "removing a finished job");
            await setup(redis.srem(collectedKey(args.experimentId), id), "updating the experiment");
            fresh.push(spec);
          } else {
            reattached++;
            // Not yet run, or running: its next attempt uses this coordinator's model server
            // (the one it named may have died with its coordinator; the worker gives such an
            // attempt back, worker.ts).
            if (state !== "completed")
              await setup(job.updateData(dataOf(spec)), "updating a re-attached job");
            // One waiting for its coordinator (worker.ts) goes now, not at its next look.
            if (state === "delayed")
              await setup(job.promote(), "promoting a re-attached job").catch(() => undefined);
          }
        }
        if (reattached > 0) note(`re-attached to ${reattached} run(s) already in the queue`);
        added.push(...fresh.map((s) => jobIdFor(args.experimentId, s.run_id)));
        await setup(
          queue.addBulk(
            fresh.map((spec) => ({
              name: spec.run_id,
              data: dataOf(spec),
              opts: {
                jobId: jobIdFor(args.experimentId, spec.run_id),
                priority: q.priority ?? DEFAULT_PRIORITY,
                attempts: q.attempts ?? 3,
                backoff: { type: "fixed", delay: 1000 },
                // Bounded: a coordinator collects a record within seconds, or on --resume
                // within the record's lifetime (KEEP_SEC).
                removeOnComplete: { age: KEEP_SEC, count: KEEP_JOBS },
                removeOnFail: { age: KEEP_SEC, count: KEEP_JOBS },
              },
            })),
          ),
          "adding the experiment's jobs",
        );
        await setup(
          redis.set(experimentKey(args.experimentId), bundle.hash, "EX", KEEP_SEC),
          "marking the experiment enqueued",
        );
      } catch (e) {
        const left = await undo(added, bundleFresh ? bundle.hash : null);
        if (e instanceof QueueStopped) throw e;
        const { cause } = explainRedisError(e);
        throw new InputError(
          `the queue at ${where} did not take the experiment: ${cause}; ${
            left.length === 0
              ? "nothing of it was left in the queue"
              : `${left.length} job(s) could not be removed (${left.join(", ")}): remove them with queue drain`
          }`,
          { field: "--queue" },
        );
      }
    }

    /** Remove what a failed enqueue added (the bundle first: it frees the most memory). */
    async function undo(ids: string[], bundleHash: string | null): Promise<string[]> {
      const quick = <T>(p: Promise<T>): Promise<T | null> =>
        bounded(p, { ms: 3000 }).catch(() => null);
      if (bundleHash) await quick(store.delete(bundleKey(bundleHash)));
      const left: string[] = [];
      for (const id of ids) {
        await quick(queue.remove(id));
        const still = await quick(queue.getJob(id));
        if (still) left.push(id);
      }
      return left;
    }

    async function collect(job: Job, runId: string): Promise<RunReport> {
      const parsed = JobResultSchema.safeParse(job.returnvalue);
      if (!parsed.success)
        throw new RecordRefused(
          "its record came back unsigned or in another format (a worker without the current skillbench, or a forged result)",
        );
      const result = parsed.data;
      const { sig, ...signed } = result;
      if (result.job_id !== job.id || !macMatches(q.key, "record", signed, sig))
        throw new RecordRefused(
          `its record from worker ${result.worker} fails its signature check (${QUEUE_KEY_VAR} differs, or the result was changed in the queue)`,
        );
      const data = await follow(store.get(result.artifact));
      if (!data) throw new Error(`the record ${result.artifact} is no longer in the queue's store`);
      if (createHash("sha256").update(data).digest("hex") !== result.sha256) {
        await follow(store.delete(result.artifact)).catch(() => undefined);
        throw new RecordRefused(
          `its record from worker ${result.worker} was changed in the queue's store (its bytes do not match the signed hash)`,
        );
      }
      const logs = await follow(queue.getJobLogs(job.id ?? "", 0, -1, true));
      const entries = parseAttemptLogs(logs.logs);
      const starts = entries.flatMap((e) => (e.event === "start" ? [e] : []));
      const final = starts.at(-1);
      const lost = starts
        .filter((s) => s !== final)
        .map((s) => {
          const err = entries.find(
            (e) => e.event === "error" && e.attempt === s.attempt && e.worker === s.worker,
          );
          return {
            attempt: s.attempt,
            worker: s.worker,
            started_at: s.at,
            reason:
              err?.event === "error"
                ? `the attempt failed on its worker: ${err.message}; the run was retried`
                : "the worker stopped before finishing (killed, lost, or its lock expired); the run was retried",
          };
        });
      recheck ??= readSuiteSnapshot(args.outDir).then(async (snapshot) => ({
        ...(await rescoreContext(
          args.outDir,
          snapshot,
          {},
          {},
          {
            url: null,
            scriptHasJudge: false,
            scriptId: "",
          },
        )),
        redact: args.ctx.env.redact,
      }));
      const ctx = await recheck;
      const { report, claimed } = await writeRunRecord({
        outDir: args.outDir,
        runId,
        compressed: data,
        queue: {
          job_id: job.id ?? "",
          worker: result.worker,
          attempts: Math.max(1, starts.length),
          lost_attempts: lost,
        },
        redact: args.ctx.env.redact,
        skillPaths,
        recheck: (stagingRoot) => rescoreRun({ ...ctx, outDir: stagingRoot }, runId),
      });
      if (claimed !== report.status || result.status !== report.status)
        note(
          `${runId}: its worker reported ${result.status}, its stored evidence says ${report.status}: the evidence counts`,
        );
      await follow(redis.sadd(collectedKey(args.experimentId), job.id ?? ""));
      await follow(store.delete(result.artifact));
      return report;
    }
  };
}
