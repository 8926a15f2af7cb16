import { InvalidArgumentError, type Command } from "commander";
import {
  drainQueue,
  InputError,
  parseQueueUrl,
  pauseQueue,
  queueStatus,
  renderQueueStatus,
  resumeQueue,
  serveQueueMetrics,
  startWorker,
  type QueueUrl,
} from "../../index.js";
import { agentChoices } from "../agent-help.js";
import { collect, intArg, portArg, serveUntilInterrupted } from "../args.js";

/**
 * `--queue [url]`: the URL, or with no value the SKILLBENCH_QUEUE_URL variable (which keeps a
 * password off the command line, where other users of the host could read it).
 */
export function queueUrlFrom(v: string | boolean | undefined): QueueUrl | null {
  if (v === undefined || v === false) return null;
  if (v === true) {
    const env = process.env.SKILLBENCH_QUEUE_URL;
    if (!env)
      throw new InputError("--queue without a URL reads SKILLBENCH_QUEUE_URL, which is not set", {
        field: "--queue",
      });
    return parseQueueUrl(env, "SKILLBENCH_QUEUE_URL");
  }
  return parseQueueUrl(v);
}

function requiredUrl(v: string | boolean | undefined): QueueUrl {
  return queueUrlFrom(v ?? true) as QueueUrl;
}

/** What an operator command waits for (an unreachable queue, retried), on stderr. */
const say = (line: string): void => void process.stderr.write(`skillbench queue: ${line}\n`);

const QUEUE_HELP = "the queue: redis://[:password@]host:port/db (no value: $SKILLBENCH_QUEUE_URL)";

export function registerQueue(program: Command, ctx: { exitCode: number }): void {
  program
    .command("worker")
    .description("Take runs from a queue and execute them on this host (see docs/distributed.md).")
    .option("--queue [url]", QUEUE_HELP)
    .option("-j, --concurrency <n>", "runs at once on this host", intArg("--concurrency"))
    .option("--sandbox <kind>", "isolation on this host: local, bwrap, docker or auto", (v) => {
      if (!["local", "bwrap", "docker", "auto"].includes(v))
        throw new InvalidArgumentError("--sandbox must be local, bwrap, docker or auto");
      return v as "local" | "bwrap" | "docker" | "auto";
    })
    .option("--agent <name>", `the agent CLI whose runs to take: ${agentChoices(true)}`)
    .option("--agent-bin <path>", "the agent binary to run")
    .option(
      "--pass-env <NAME>",
      "pass this host's variable to the agent by name (repeatable), e.g. ANTHROPIC_API_KEY",
      collect,
    )
    .option(
      "--cache-dir <dir>",
      "where fetched suites are kept (default ~/.cache/skillbench/bundles)",
    )
    .option("--work-dir <dir>", "scratch folder for runs in progress (default the temp folder)")
    .option(
      "--lock-duration <sec>",
      "a run's lock lifetime; renewed at half of it while the run goes on (default 60)",
      intArg("--lock-duration"),
    )
    .option(
      "--max-result-mb <n>",
      "cap on a run's compressed record (default 32)",
      intArg("--max-result-mb"),
    )
    .option("--name <name>", "this worker's name in the queue (default host:pid)")
    .option(
      "--allow-local-worker",
      "allow runs under --sandbox local (asked for, or auto's fallback): the agent then sees this host's files and environment",
    )
    .action(
      async (f: {
        queue?: string | boolean;
        concurrency?: number;
        sandbox?: "local" | "bwrap" | "docker" | "auto";
        agent?: string;
        agentBin?: string;
        passEnv?: string[];
        cacheDir?: string;
        workDir?: string;
        lockDuration?: number;
        maxResultMb?: number;
        name?: string;
        allowLocalWorker?: boolean;
      }) => {
        const url = requiredUrl(f.queue);
        const log = (line: string): void =>
          void process.stderr.write(`skillbench worker: ${line}\n`);
        const w = await startWorker({
          url,
          concurrency: f.concurrency,
          sandbox: f.sandbox,
          agent: f.agent,
          agentBin: f.agentBin,
          passEnv: f.passEnv,
          cacheDir: f.cacheDir,
          workDir: f.workDir,
          lockDurationMs: f.lockDuration ? f.lockDuration * 1000 : undefined,
          maxResultBytes: f.maxResultMb ? f.maxResultMb * 1024 * 1024 : undefined,
          name: f.name,
          allowLocal: f.allowLocalWorker,
          log,
        });
        // SIGTERM or a first Ctrl-C: drain (the running runs finish, no new one starts);
        // a second: kill the running agents (their runs go back to the queue).
        await new Promise<void>((resolve) => {
          let signals = 0;
          const onSignal = (sig: string): void => {
            signals++;
            if (signals === 1) {
              log(`${sig}: draining: the running runs finish, no new run starts`);
              void w.drain().then(resolve);
            } else {
              log(`${sig} again: killing the running runs (they go back to the queue)`);
              void w.kill().then(resolve);
            }
          };
          process.on("SIGTERM", () => onSignal("SIGTERM"));
          process.on("SIGINT", () => onSignal("SIGINT"));
        });
        log("stopped");
        ctx.exitCode = 0;
      },
    );

  const queue = program
    .command("queue")
    .description("Look at and steer the run queue: status, pause, resume, drain.");
  queue
    .command("status")
    .description("runs waiting, active, completed and failed; connected workers")
    .option("--queue [url]", QUEUE_HELP)
    .option("--json", "print JSON")
    .action(async (f: { queue?: string | boolean; json?: boolean }) => {
      const s = await queueStatus(requiredUrl(f.queue), say);
      process.stdout.write(f.json ? `${JSON.stringify(s, null, 2)}\n` : renderQueueStatus(s));
    });
  queue
    .command("pause")
    .description("workers finish what they run and take no new runs until resume")
    .option("--queue [url]", QUEUE_HELP)
    .action(async (f: { queue?: string | boolean }) => {
      const url = requiredUrl(f.queue);
      await pauseQueue(url, say);
      process.stdout.write(`paused ${url.display}\n`);
    });
  queue
    .command("resume")
    .description("workers take runs again")
    .option("--queue [url]", QUEUE_HELP)
    .action(async (f: { queue?: string | boolean }) => {
      const url = requiredUrl(f.queue);
      await resumeQueue(url, say);
      process.stdout.write(`resumed ${url.display}\n`);
    });
  queue
    .command("drain")
    .description(
      "remove every waiting run (running ones finish); coordinators report them not completed, --resume enqueues them again",
    )
    .option("--queue [url]", QUEUE_HELP)
    .action(async (f: { queue?: string | boolean }) => {
      const url = requiredUrl(f.queue);
      const { removed } = await drainQueue(url, say);
      process.stdout.write(`drained ${url.display}: ${removed} waiting run(s) removed\n`);
    });
  queue
    .command("metrics")
    .description(
      "serve the queue's counts over HTTP for an autoscaler: /metrics (Prometheus), /metrics.json ({backlog, ...})",
    )
    .option("--queue [url]", QUEUE_HELP)
    .option("--port <n>", "port (default: a free one)", portArg)
    .option("--host <addr>", "address to listen on (default 127.0.0.1)")
    .action(async (f: { queue?: string | boolean; port?: number; host?: string }) => {
      await serveUntilInterrupted(
        await serveQueueMetrics(requiredUrl(f.queue), { port: f.port, host: f.host }),
      );
    });
}
