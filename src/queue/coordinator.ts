import type { Job } from "bullmq";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { RunReport } from "../core/report.js";
import type { DispatchArgs, RunOptions } from "../runner/run-suite.js";
import { isSecretName } from "../util/redact.js";
import { redisArtifactStore } from "./artifacts.js";
import { packSuiteBundle, uploadBundle } from "./bundle.js";
import { connectRedis, openQueue, queueLibs } from "./connect.js";
import {
  JobResultSchema,
  jobIdFor,
  KEY_PREFIX,
  queueNameFor,
  type JobData,
  type JobSettings,
  type RateLimit,
} from "./job.js";
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
}

const DEFAULT_PRIORITY = 100;
const POLL_MS = 1000;

/** The set of job ids whose records this experiment's coordinator has written. */
const collectedKey = (experimentId: string): string => `${KEY_PREFIX}:collected:${experimentId}`;

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
  return agents[0] ?? Object.keys(args.ctx.agent.setups)[0] ?? "claude";
}

/** Worker-side settings of the experiment; refuses credentials in `--env`. */
function jobSettings(
  opts: RunOptions,
  args: DispatchArgs,
  rateLimit: RateLimit | null,
): JobSettings {
  for (const name of Object.keys(opts.env ?? {}))
    if (isSecretName(name))
      throw new InputError(
        `--env ${name}: queued runs never carry credentials; set ${name} in each worker's environment and declare it with --pass-env ${name}`,
        { field: "--env" },
      );
  const { ctx, settings } = args;
  return {
    agent: queueAgent(args),
    agent_retries: opts.agentRetries ?? null,
    simulator_agent: opts.simulatorAgent ?? null,
    model: settings.model,
    profile: settings.profileOverride,
    timeout_sec: settings.timeoutSecOverride,
    env: opts.env ?? {},
    pass_env: ctx.env.pass,
    judge: Object.fromEntries(
      Object.entries(opts.judgeFlags ?? {}).filter(([, v]) => v !== undefined),
    ),
    interaction: Object.fromEntries(
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
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
  };
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

export function queueDispatcher(
  opts: RunOptions,
  q: QueueRunSettings,
): (args: DispatchArgs) => Promise<RunDigest[]> {
  return async (args) => {
    const redis = await connectRedis(q.url);
    const store = redisArtifactStore(redis);
    const queueName = queueNameFor(queueAgent(args));
    const queue = await openQueue(redis, queueName);
    const eventsConn = await connectRedis(q.url);
    const { QueueEvents } = await queueLibs();
    const events = new QueueEvents(queueName, { connection: eventsConn, prefix: KEY_PREFIX });
    const note = (message: string): void => args.onProgress?.({ type: "note", message });
    const reports: RunDigest[] = [];
    const skillPaths = new Map(
      args.suite.treatments.flatMap((t) =>
        t.skills.flatMap((s) => (s.path ? [[`${s.name}\0${s.hash}`, s.path] as const] : [])),
      ),
    );
    let wake: (() => void) | null = null;
    const poke = (): void => wake?.();
    try {
      const settings = jobSettings(opts, args, q.rateLimit ?? null);
      // The runs folder exists from the start, as in a local run, even before a record arrives.
      await mkdir(path.join(args.outDir, "runs"), { recursive: true });
      const bundle = await packSuiteBundle(args.suite);
      const fresh = await uploadBundle(store, bundle);
      note(
        `queue ${q.url.display}: suite bundle ${bundle.hash.slice(0, 12)} (${bundle.files} files, ${bundle.compressed.length} bytes) ${fresh ? "uploaded" : "already stored"}`,
      );
      const outstanding = new Map(
        args.toRun.map((s) => [jobIdFor(args.experimentId, s.run_id), s]),
      );
      const collected = new Set(await redis.smembers(collectedKey(args.experimentId)));
      // A job left from an earlier attempt at this experiment is reused unless it is over
      // (already written, failed, or for another version of the suite): then it goes again.
      let reattached = 0;
      for (const [id] of outstanding) {
        const job = await queue.getJob(id);
        if (!job) continue;
        const state = await job.getState();
        const data = job.data as Partial<JobData>;
        const over = state === "completed" || state === "failed";
        if (over && (collected.has(id) || state === "failed" || data.bundle !== bundle.hash)) {
          await job.remove();
          await redis.srem(collectedKey(args.experimentId), id);
        } else reattached++;
      }
      if (reattached > 0) note(`re-attached to ${reattached} run(s) already in the queue`);
      await queue.addBulk(
        args.toRun.map((spec) => {
          const data: JobData = {
            schema: "skillbench.queue-job.v1",
            experiment_id: args.experimentId,
            bundle: bundle.hash,
            run: { run_id: spec.run_id, task: spec.task, treatment: spec.treatment, rep: spec.rep },
            settings,
          };
          return {
            name: spec.run_id,
            data,
            opts: {
              jobId: jobIdFor(args.experimentId, spec.run_id),
              priority: q.priority ?? DEFAULT_PRIORITY,
              attempts: q.attempts ?? 3,
              backoff: { type: "fixed", delay: 1000 },
              removeOnComplete: false,
              removeOnFail: false,
            },
          };
        }),
      );
      for (const ev of ["active", "completed", "failed", "removed", "stalled"] as const)
        events.on(ev, poke);
      events.on("stalled", ({ jobId }) => {
        const spec = outstanding.get(jobId);
        if (spec) note(`${spec.run_id}: its worker was lost; the run goes back to the queue`);
      });
      args.stop?.addEventListener("abort", poke);
      const started = new Set<string>();
      while (outstanding.size > 0 && !args.stop?.aborted) {
        const waiting = new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, POLL_MS).unref();
        });
        const ids = [...outstanding.keys()];
        const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
        for (const [i, id] of ids.entries()) {
          const spec = outstanding.get(id);
          const state = states[i];
          if (!spec) continue;
          if (state === "active" && !started.has(id)) {
            started.add(id);
            args.onProgress?.({ type: "start", run: spec });
          } else if (state === "completed") {
            const job = await queue.getJob(id);
            if (!job) continue;
            if (!started.has(id)) args.onProgress?.({ type: "start", run: spec });
            const report = await collect(job, spec.run_id).catch((e: unknown) => {
              note(
                `${spec.run_id}: its record could not be written: ${String(e)}; --resume runs it again`,
              );
              return null;
            });
            outstanding.delete(id);
            if (report) reports.push(digestOf(report));
            args.onProgress?.({ type: "end", run: spec, report });
          } else if (state === "failed") {
            const job = await queue.getJob(id);
            note(
              `${spec.run_id}: failed on the queue after ${job?.attemptsMade ?? "?"} attempt(s): ${job?.failedReason ?? "unknown"}; --resume runs it again`,
            );
            outstanding.delete(id);
            args.onProgress?.({ type: "end", run: spec, report: null });
          } else if (state === "unknown") {
            note(
              `${spec.run_id}: removed from the queue (drained) before it ran; --resume runs it again`,
            );
            outstanding.delete(id);
            args.onProgress?.({ type: "end", run: spec, report: null });
          }
        }
        if (outstanding.size > 0) await waiting;
      }
      if (outstanding.size > 0)
        note(
          `${outstanding.size} run(s) are still in the queue; their workers go on. Collect them with --resume --queue`,
        );
      return reports;
    } finally {
      wake = null;
      await events.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
      eventsConn.disconnect();
      redis.disconnect();
    }

    async function collect(job: Job, runId: string): Promise<RunReport> {
      const result = JobResultSchema.parse(job.returnvalue);
      const data = await store.get(result.artifact);
      if (!data) throw new Error(`the record ${result.artifact} is no longer in the queue's store`);
      const logs = await queue.getJobLogs(job.id ?? "", 0, -1, true);
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
      const report = await writeRunRecord({
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
      });
      await redis.sadd(collectedKey(args.experimentId), job.id ?? "");
      await store.delete(result.artifact);
      return report;
    }
  };
}
