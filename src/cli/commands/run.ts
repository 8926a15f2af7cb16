import { InvalidArgumentError, type Command } from "commander";
import {
  holdResultsFolder,
  parseThresholds,
  planSuite,
  renderPlan,
  runSuite,
  runSuiteOnQueue,
  runUntilDecided,
  InputError,
  type RateLimit,
  type ProgressEvent,
  type RunOptions,
  type RunDigest,
  type RunSummary,
  type SuiteWarning,
  type Comparison,
  verdictLines,
} from "../../index.js";
import {
  collect,
  intArg,
  marginArg,
  parseEnvPairs,
  parseKs,
  SANDBOX_HELP,
  sandboxArg,
} from "../args.js";
import { agentChoices, defaultAgentName } from "../agent-help.js";
import { ciOutputs, judgeFlags, withCiOptions } from "../ci.js";
import { noteInterrupt } from "../interrupt.js";
import { makeProgress } from "../progress.js";
import { queueUrlFrom, rateLimitArg } from "./queue.js";
import { RunTelemetry, withTelemetryOptions, type TelemetryFlags } from "../telemetry.js";

export interface RunFlags extends TelemetryFlags {
  task?: string;
  treatment?: string;
  count?: number;
  concurrency?: number;
  out?: string;
  profile?: string;
  model?: string;
  agentBin?: string;
  agent?: string;
  agentRetries?: number;
  simulatorAgent?: string;
  resume?: boolean;
  wait?: boolean;
  modelScript?: string;
  env?: string[];
  passEnv?: string[];
  timeout?: number;
  keepWorkspaces?: boolean;
  ks?: number[];
  margin?: number;
  baselineFrom?: string;
  allowDrift?: boolean;
  exitZero?: boolean;
  judge?: boolean;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeSamples?: number;
  judgeAgent?: string;
  interactionMode?: string;
  maxTurns?: number;
  simulatorPrompt?: string;
  decisionPattern?: string[];
  simulatorModel?: string;
  sandbox?: "local" | "bwrap" | "docker" | "auto";
  html?: boolean;
  junit?: string;
  failUnder?: string[];
}

/**
 * The matrix, agent, sandbox and output options of `run`; `eval` takes the same ones.
 * (The CI options, --html/--junit/--fail-under, come from withCiOptions.)
 */
export function withRunOptions(cmd: Command): Command {
  return withTelemetryOptions(cmd)
    .option("--task <list>", "tasks to run: comma-separated names, * as a wildcard")
    .option("--treatment <list>", "treatments to run: comma-separated names, * as a wildcard")
    .option("-n, --count <n>", "repetitions per task × treatment", intArg("--count"))
    .option("-j, --concurrency <n>", "runs at once", intArg("--concurrency"))
    .option("--out <dir>", "results folder (default .skillbench/runs/<experiment-id>)")
    .option("--profile <name>", "rubric profile for every run")
    .option("--model <id>", "model id passed to the agent")
    .option(
      "--agent <name>",
      `the coding agent: ${agentChoices(true)}, or a comma list to run every treatment that pins none on each (docs/agents.md)`,
    )
    .option("--agent-bin <path>", "the agent's binary (default: the pinned npm package, then PATH)")
    .option(
      "--agent-retries <n>",
      "retries the agent CLI makes on a failing model request (default: the CLI's own)",
      (v: string): number => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 10)
          throw new InvalidArgumentError("--agent-retries must be a whole number from 0 to 10");
        return n;
      },
    )
    .option(
      "--simulator-agent <name>",
      `the simulated user's agent in auto_user mode (default ${defaultAgentName()})`,
    )
    .option(
      "--resume",
      "with --out of an interrupted run: run only the runs with no complete record",
    )
    .option(
      "--wait",
      "when another skillbench writes the results folder, wait for it to end instead of refusing",
    )
    .option("--model-script <file>", "serve the model from this script (offline, deterministic)")
    .option("--env <KEY=VALUE>", "set a variable for the agent (repeatable)", collect)
    .option("--pass-env <NAME>", "pass a host variable to the agent by name (repeatable)", collect)
    .option(
      "--timeout <sec>",
      "agent timeout per run, overriding the task's timeout_sec",
      intArg("--timeout"),
    )
    .option("--keep-workspaces", "keep each run's temporary workspace for debugging")
    .option("--ks <list>", "k values for pass@k / pass^k, e.g. 1,2,5", parseKs)
    .option(
      "--baseline-from <dir>",
      "reuse the baseline arm of an earlier results folder when its fingerprints match (agent, model, endpoint, judge, tasks, sandbox, profile, interaction) and its reports agree with their stored evidence; only the candidate runs",
    )
    .option("--allow-drift", "with --baseline-from: reuse it despite differences, recording them")
    .option(
      "--margin <x>",
      "non-inferiority margin on Δ pass rate for the verdict band (default 0.05)",
      marginArg,
    )
    .option("--exit-zero", "exit 0 even when some runs fail (bad input still exits 2)")
    .option("--sandbox <kind>", SANDBOX_HELP, sandboxArg)
    .option(
      "--interaction-mode <mode>",
      "none (single turn) or auto_user (the subject plus a simulated user)",
    )
    .option("--max-turns <n>", "subject turns at most in auto_user mode", intArg("--max-turns"))
    .option(
      "--simulator-prompt <text>",
      "the simulated user's instructions (overrides the task's and the profile's)",
    )
    .option(
      "--decision-pattern <text>",
      "text that marks a decision point in auto_user mode, added to the task's decision_patterns (repeatable)",
      collect,
    )
    .option(
      "--simulator-model <id>",
      "model for the simulated user (endpoint: SKILLBENCH_SIMULATOR_BASE_URL, default the subject's)",
    )
    .option(
      "--judge",
      "add the LLM judge overlay (also BENCH_LLM_JUDGE=1 or a judge section in skillbench.yaml)",
    )
    .option("--no-judge", "no LLM judge, whatever the environment or suite says")
    .option("--judge-model <id>", "the judge model (BENCH_JUDGE_MODEL)")
    .option("--judge-base-url <url>", "the judge endpoint (BENCH_JUDGE_BASE_URL)")
    .option(
      "--judge-agent <name>",
      `carry the judge through this agent's CLI: ${agentChoices(false)} (docs/judge.md)`,
    )
    .option(
      "--judge-samples <n>",
      "ask the judge N times and record mean and spread",
      intArg("--judge-samples"),
    );
}

/** The run's library options from the parsed flags (everything but the suite and the callbacks). */
export function runOptionsFromFlags(f: RunFlags) {
  return {
    task: f.task,
    treatment: f.treatment,
    count: f.count,
    concurrency: f.concurrency,
    out: f.out,
    profile: f.profile,
    model: f.model,
    agentBin: f.agentBin,
    agent: f.agent,
    agentRetries: f.agentRetries,
    simulatorAgent: f.simulatorAgent,
    resume: f.resume,
    waitForLock: f.wait,
    modelScript: f.modelScript,
    env: parseEnvPairs(f.env ?? []),
    passEnv: f.passEnv,
    timeoutSec: f.timeout,
    keepWorkspaces: f.keepWorkspaces,
    ks: f.ks,
    margin: f.margin,
    baselineFrom: f.baselineFrom,
    allowDrift: f.allowDrift,
    judgeFlags: judgeFlags(f),
    interaction: {
      mode: f.interactionMode,
      maxTurns: f.maxTurns,
      simulatorPrompt: f.simulatorPrompt,
      decisionPatterns: f.decisionPattern,
    },
    simulatorModel: f.simulatorModel,
    sandbox: f.sandbox,
    html: f.html,
  } satisfies Partial<RunOptions>;
}

export function printWarning(w: SuiteWarning): void {
  process.stderr.write(`warning: ${w.file}${w.field ? `: ${w.field}` : ""}: ${w.message}\n`);
}

/** The console progress display. */
export function defaultProgress(): (e: ProgressEvent) => void {
  return makeProgress(process.stderr, process.stderr.isTTY && !process.env.CI);
}

/**
 * Run with Ctrl-C handling: the first SIGINT stops new runs from starting, a second kills
 * the running ones.
 */
export async function runWithSignals(
  opts: RunOptions,
  run: (o: RunOptions) => Promise<RunSummary> = runSuite,
): Promise<RunSummary> {
  const stop = new AbortController();
  const kill = new AbortController();
  const onSigint = (): void => {
    noteInterrupt("SIGINT");
    if (!stop.signal.aborted) {
      process.stderr.write(
        "\nskillbench: stopping — no new runs start; press Ctrl-C again to kill the running ones\n",
      );
      stop.abort();
    } else kill.abort();
  };
  const onSigterm = (): void => {
    noteInterrupt("SIGTERM");
    stop.abort();
    kill.abort();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  try {
    const o: RunOptions = {
      ...opts,
      stopSignal: stop.signal,
      killSignal: kill.signal,
      onWarning: opts.onWarning ?? printWarning,
      onProgress: opts.onProgress ?? defaultProgress(),
    };
    // The folder's lock for the whole command (every round of --until-decided, calibration.json).
    return await holdResultsFolder(o, () => run(o));
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
  }
}

export interface SequentialFlags {
  untilDecided?: boolean;
  maxCount?: number;
}

/** --until-decided and --max-count (`run` and `eval`; docs/statistics.md §12). */
export function withSequentialOptions(cmd: Command): Command {
  return cmd
    .option(
      "--until-decided",
      "add repetitions in rounds (--count each) until the verdict band is decided, with α spent across the looks (docs/statistics.md §12)",
    )
    .option(
      "--max-count <n>",
      "with --until-decided: the most repetitions per task and treatment",
      intArg("--max-count"),
    );
}

/** The sequential settings of the flags (null: not sequential); bad combinations are bad input. */
export function sequentialFrom(
  f: SequentialFlags & { count?: number },
): { maxCount: number } | null {
  if (f.untilDecided && f.maxCount === undefined)
    throw new InputError(
      "--until-decided needs --max-count N (the most repetitions per task and treatment)",
      { field: "--max-count" },
    );
  if (!f.untilDecided && f.maxCount !== undefined)
    throw new InputError("--max-count is for --until-decided", { field: "--max-count" });
  if (f.count !== undefined && f.maxCount !== undefined && f.count > f.maxCount)
    throw new InputError(`--count ${f.count} is more than --max-count ${f.maxCount}`, {
      field: "--count",
    });
  return f.untilDecided && f.maxCount !== undefined ? { maxCount: f.maxCount } : null;
}

interface QueueFlags {
  queue?: string | boolean;
  priority?: number;
  rateLimit?: RateLimit;
}

/** Registers its command(s) on the program; `ctx.exitCode` is the process's exit code. */
export function registerRun(program: Command, ctx: { exitCode: number }): void {
  withSequentialOptions(
    withRunOptions(
      withCiOptions(program.command("run"))
        .description(
          "Run a suite: tasks × treatments × repetitions, each in its own workspace, then write the reports.",
        )
        .argument("<suite>", "suite folder (with tasks/), or a single task folder"),
    ),
  )
    .option(
      "--dry-run",
      "print the planned runs (profile, sandbox, timeout, interaction); start nothing",
    )
    .option(
      "--queue [url]",
      "run on workers through this queue: redis://[:password@]host:port/db (no value: $SKILLBENCH_QUEUE_URL); see docs/distributed.md",
    )
    .option("--priority <n>", "with --queue: 1 is served first (default 100)", intArg("--priority"))
    .option(
      "--rate-limit <n/unit>",
      "with --queue: model requests per window across all workers, e.g. 50/min",
      rateLimitArg,
    )
    .action(
      async (suite: string, f: RunFlags & QueueFlags & SequentialFlags & { dryRun?: boolean }) => {
        // A bad threshold is bad input: say so before any agent runs.
        parseThresholds(f.failUnder ?? []);
        const queueUrl = queueUrlFrom(f.queue);
        if (!queueUrl && (f.priority !== undefined || f.rateLimit !== undefined))
          throw new InputError("--priority and --rate-limit need --queue", { field: "--queue" });
        const seq = sequentialFrom(f);
        if (f.dryRun) {
          const plan = await planSuite({
            suite,
            ...runOptionsFromFlags(f),
            onWarning: printWarning,
          });
          process.stdout.write(renderPlan(plan));
          return;
        }
        const opts = runOptionsFromFlags(f);
        const telemetry = await RunTelemetry.open(f, opts.env);
        let reports: RunDigest[] = [];
        try {
          const once = queueUrl
            ? (o: RunOptions) =>
                runSuiteOnQueue(o, {
                  url: queueUrl,
                  priority: f.priority,
                  rateLimit: f.rateLimit ?? null,
                })
            : runSuite;
          const res = await runWithSignals(
            { suite, ...opts, ...telemetry?.hooks(defaultProgress()) },
            seq ? (o) => runUntilDecided(o, seq, once) : once,
          );
          reports = res.reports;
          reportRun(res, f, ctx);
          const ci = await ciOutputs(res.outDir, f);
          if (ci !== 0) ctx.exitCode = ci;
        } finally {
          if (telemetry) ctx.exitCode = await telemetry.close(reports, ctx.exitCode);
        }
      },
    );
}

/** The verdict block `run` and `eval` print (report/comparison/console.ts), or nothing without a comparison. */
export function verdictBlock(comparison: Comparison | null | undefined): string {
  if (!comparison) return "";
  return `\nVerdict (${comparison.roles.candidate} vs ${comparison.roles.baseline}):\n${verdictLines(
    comparison,
  )
    .map((l) => `  ${l}`)
    .join("\n")}\n`;
}

function reportRun(res: RunSummary, f: RunFlags, ctx: { exitCode: number }): void {
  const passed = res.reports.filter((r) => r.passed).length;
  process.stdout.write(
    `\n${passed}/${res.planned.length} runs passed` +
      (res.incomplete.length
        ? `, ${res.incomplete.length} not completed (rerun with --resume --out ${res.outDir})`
        : "") +
      "\n" +
      verdictBlock(res.comparison) +
      `\nResults: ${res.outDir}\n${res.files.map((f) => `  ${f}`).join("\n")}\n`,
  );
  ctx.exitCode = passed === res.planned.length || f.exitZero ? 0 : 1;
}
