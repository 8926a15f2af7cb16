import type { Command } from "commander";
import {
  holdResultsFolder,
  parseThresholds,
  planSuite,
  renderPlan,
  runSuite,
  runSuiteOnQueue,
  runUntilDecided,
  runWithPilot,
  InputError,
  type ProgressEvent,
  type RunOptions,
  type RunSummary,
  type SuiteWarning,
  type Comparison,
  verdictLines,
} from "../../index.js";
import { parseEnvPairs } from "../args.js";
import { judgeFlags } from "../ci.js";
import { withStopSignals } from "../interrupt.js";
import { makeProgress } from "../progress.js";
import { queueUrlFrom } from "./queue.js";
import { dollars } from "../../util/format.js";
import {
  addFlags,
  RUN_FLAGS,
  RUN_ONLY_FLAGS,
  SEQUENTIAL_FLAGS,
  type FlagValues,
} from "../flags.js";
import { runReported } from "../reporters.js";
import { planEstimateText } from "../estimate.js";

/** The flags `run`, `eval` and `calibrate` share, as commander parses them (cli/flags.ts). */
export type RunFlags = FlagValues<typeof RUN_FLAGS>;

/** The run's library options from the parsed flags (everything but the suite and the callbacks). */
export function runOptionsFromFlags(f: RunFlags) {
  return {
    task: f.task,
    treatment: f.treatment,
    count: f.count,
    shard: f.shard,
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
    reuse: f.reuse,
    history: f.history,
    judgeFlags: judgeFlags(f),
    interaction: {
      mode: f.interactionMode,
      maxTurns: f.maxTurns,
      simulatorPrompt: f.simulatorPrompt,
      decisionPatterns: f.decisionPattern,
    },
    simulatorModel: f.simulatorModel,
    sandbox: f.sandbox,
    preflight: f.preflight,
    healthRepeats: f.healthRepeats,
    html: f.html,
    budget:
      f.budgetUsd !== undefined || f.budgetTokens !== undefined || f.maxRunUsd !== undefined
        ? { usd: f.budgetUsd ?? null, tokens: f.budgetTokens ?? null, runUsd: f.maxRunUsd ?? null }
        : undefined,
    cost: { estimateFrom: f.estimateFrom, pricing: f.pricing, pilot: f.pilot },
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
export function runWithSignals(
  opts: RunOptions,
  run: (o: RunOptions) => Promise<RunSummary> = runSuite,
): Promise<RunSummary> {
  return withStopSignals("runs", ({ stop, kill }) => {
    const o: RunOptions = {
      ...opts,
      stopSignal: stop,
      killSignal: kill,
      onWarning: opts.onWarning ?? printWarning,
      onProgress: opts.onProgress ?? defaultProgress(),
    };
    // The folder's lock for the whole command (every round of --until-decided, calibration.json).
    return holdResultsFolder(o, () => run(o));
  });
}

export type SequentialFlags = FlagValues<typeof SEQUENTIAL_FLAGS>;

/** The sequential settings of the flags (null: not sequential); bad combinations are bad input. */
export function sequentialFrom(
  f: SequentialFlags & { count?: number; shard?: unknown },
): { maxCount: number } | null {
  // Each round decides on the runs so far: a shard's slice would decide on part of them.
  if (f.untilDecided && f.shard !== undefined)
    throw new InputError(
      "--until-decided decides on every run of the experiment: run it without --shard",
      { field: "--shard" },
    );
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

/** Registers its command(s) on the program; `ctx.exitCode` is the process's exit code. */
export function registerRun(program: Command, ctx: { exitCode: number }): void {
  addFlags(
    program
      .command("run")
      .description(
        "Run a suite: tasks × treatments × repetitions, each in its own workspace, then write the reports.",
      )
      .argument("<suite>", "suite folder (with tasks/), or a single task folder"),
    [...RUN_FLAGS, ...SEQUENTIAL_FLAGS, ...RUN_ONLY_FLAGS],
  ).action(
    async (suite: string, f: RunFlags & SequentialFlags & FlagValues<typeof RUN_ONLY_FLAGS>) => {
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
        process.stdout.write(renderPlan(plan, await planEstimateText(plan, f)));
        return;
      }
      const opts = runOptionsFromFlags(f);
      const once = queueUrl
        ? (o: RunOptions) =>
            runSuiteOnQueue(o, {
              url: queueUrl,
              priority: f.priority,
              rateLimit: f.rateLimit ?? null,
            })
        : runSuite;
      await runReported(f, opts.env, ctx, {
        run: (hooks) =>
          runWithSignals({ suite, ...opts, ...hooks(defaultProgress()) }, (o) =>
            runWithPilot(o, {
              rest: seq ? (x) => runUntilDecided(x, seq, once) : once,
              first: once,
            }),
          ),
        summary: (res) => res,
        settle: (res) => {
          reportRun(res, f, ctx);
          return [];
        },
      });
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

/**
 * The runs line `run`, `eval` and `calibrate` print first: `N/M runs passed`, and how many did
 * not complete with the command that completes them.
 */
export function runsPassedText(
  run: Pick<RunSummary, "reports" | "planned" | "incomplete">,
  outDir: string,
): string {
  const passed = run.reports.filter((r) => r.passed).length;
  return (
    `${passed}/${run.planned.length} runs passed` +
    (run.incomplete.length
      ? `, ${run.incomplete.length} not completed (rerun with --resume --out ${outDir})`
      : "")
  );
}

/** What the budget spent and left, under the runs line (docs/budgets.md). */
function budgetEndLine(res: RunSummary): string {
  const b = res.budget;
  if (!b) return "";
  const stopped = res.reports.filter((r) => r.outcome === "budget").length;
  const unrun = b.refused === null ? 0 : res.incomplete.length;
  return (
    `Budget: spent ${dollars(b.spent_usd)}, ${b.spent_tokens} tokens` +
    // The judge's spend is its own (never a run's `metered`): said apart, as metadata.json has it.
    (b.judge && b.judge.calls + b.judge.refused > 0
      ? `; the judge ${dollars(b.judge.usd)}, ${b.judge.tokens} tokens in ${b.judge.calls} call(s)` +
        (b.judge.refused > 0 ? ` (${b.judge.refused} refused by the budget)` : "")
      : "") +
    (stopped > 0 ? `; ${stopped} run(s) stopped by the budget (invalid, not failures)` : "") +
    (unrun > 0
      ? `; ${unrun} run(s) left unrun (budget): continue with --resume --out ${res.outDir} and a larger budget`
      : "") +
    "\n"
  );
}

function reportRun(res: RunSummary, f: RunFlags, ctx: { exitCode: number }): void {
  const passed = res.reports.filter((r) => r.passed).length;
  process.stdout.write(
    `\n${runsPassedText(res, res.outDir)}\n` +
      (res.budget ? budgetEndLine(res) : "") +
      verdictBlock(res.comparison) +
      `\nResults: ${res.outDir}\n${res.files.map((f) => `  ${f}`).join("\n")}\n`,
  );
  ctx.exitCode = passed === res.planned.length || f.exitZero ? 0 : 1;
}
