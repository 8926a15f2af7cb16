import type { AgentDriver } from "../agents/index.js";
import type { RunDigest } from "../core/digest.js";
import type { ModelApiRecord, RunReport } from "../core/report.js";
import type { RunSpec } from "../plan/matrix.js";
import type { Shard } from "../plan/shard.js";
import type { PlanSettings } from "../plan/run-plan.js";
import type { ProbeOptions, SandboxChoice, SandboxProbe } from "../sandbox/index.js";
import type { Suite, SuiteWarning } from "../suite/index.js";
import type { RunContext } from "./context.js";
import type { Comparison } from "../report/comparison/index.js";
import type { ComparisonSource } from "../report/comparison/write.js";
import type { CalibrationSettings } from "../report/calibration/types.js";
import type { JudgeFlags } from "./judge-setup.js";
import type { InteractionFlags } from "../interaction/config.js";
import type { BudgetLimits } from "../cost/budget.js";
import type { SharedSpend } from "./budget.js";

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
  /** `--reuse DIR`: results folders whose finished runs with an equal content key are taken (docs/reuse.md). */
  reuse?: string[] | undefined;
  /**
   * `--history FILE|URL` / `--no-history` (false): the store `--reuse history` and the estimate
   * read earlier runs from (history/results-folders.ts); absent: the default beside the results.
   */
  history?: string | boolean | undefined;
  /** --shard I/N: run only that slice of the plan (plan/shard.ts; docs/distributed.md) */
  shard?: Shard | undefined;
  /** --margin: the verdict's non-inferiority margin on Δ pass rate (kept in metadata.json) */
  margin?: number | undefined;
  /** --judge / --no-judge, --judge-model, --judge-base-url, --judge-samples */
  judgeFlags?: JudgeFlags | undefined;
  /** --interaction-mode, --max-turns, --simulator-prompt, --decision-pattern */
  interaction?: InteractionFlags | undefined;
  /** Write summary.html / comparison_report.html (default true). */
  html?: boolean | undefined;
  /**
   * An A/A calibration of the runs (`calibrate`, runner/calibrate.ts): calibration.json is
   * written with these settings at the experiment's end, before the reports that show it.
   */
  calibration?: CalibrationSettings | undefined;
  /** --sandbox local|bwrap|docker|auto (default: the suite's `sandbox`, else auto) */
  sandbox?: SandboxChoice | undefined;
  /** --preflight: the task health check before the runs (docs/health.md); default quick. */
  preflight?: "quick" | "full" | "off" | undefined;
  /** --health-repeats: the preflight's validator runs per workspace (default 3). */
  healthRepeats?: number | undefined;
  /** --simulator-model */
  simulatorModel?: string | undefined;
  /** --budget-usd, --budget-tokens, --max-run-usd (docs/budgets.md); absent: no budget, no metering. */
  budget?: BudgetLimits | undefined;
  /** The cost estimate (docs/cost.md): `--estimate-from DIR…`, `--pricing FILE`, `--pilot N`. */
  cost?: CostOptions | undefined;
  hostEnv?: Record<string, string | undefined>;
  cwd?: string;
  /** First Ctrl-C: no new runs start. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: running agents are killed. */
  killSignal?: AbortSignal;
  /**
   * `--wait`: when another skillbench writes the results folder, wait for it to end instead of
   * refusing (store/lock.ts).
   */
  waitForLock?: boolean | undefined;
  /** The command named in the folder's lock file (default `skillbench run`; never its arguments, which may hold secrets). */
  lockCommand?: string | undefined;
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
   * of the local pool and returns the digests of the reports it stored; a worker passes the suite it received
   * (`suite`), the one run to execute (`only`), the coordinator's scripted model (`scripted`),
   * and skips the experiment reports.
   */
  queue?: {
    dispatch?: (args: DispatchArgs) => Promise<RunDigest[]>;
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
    /**
     * The experiment's spend shared by every worker and the coordinator (the budgets;
     * src/queue/budget-counter.ts), for the experiment's id (a resumed one keeps its own).
     */
    sharedSpend?: (experimentId: string) => SharedSpend;
    /** A worker's sandbox probe, its answers kept between jobs (keptProbes, src/sandbox/probe.ts). */
    probe?: (o?: ProbeOptions) => Promise<SandboxProbe>;
  };
}

/** What a budget spent and left unrun (metadata.json `budget`, the reports, the console's end line). */
export interface BudgetAccount {
  spent_usd: number;
  spent_tokens: number;
  /** Why runs stopped starting (the first refusal); null when every run started. */
  refused: string | null;
  /** The judge's own spend, apart from the runs' (only when a judge call was asked for). */
  judge?: { calls: number; refused: number; usd: number; tokens: number } | undefined;
}

/** The cost estimate's inputs (runner/estimate-sources.ts). */
export interface CostOptions {
  /** Results folders of earlier runs to estimate from (the resumed folder is one by default). */
  estimateFrom?: string[] | undefined;
  /** A pricing table instead of data/pricing.yaml. */
  pricing?: string | undefined;
  /** Run N runs per task and treatment first, then estimate the rest from them. */
  pilot?: number | undefined;
  /** The resumed folder's runs are this experiment's pilot (runner/pilot.ts), not earlier runs. */
  fromPilot?: boolean | undefined;
}

/** What a dispatcher gets: the runs to do and where their records go. */
export interface DispatchArgs {
  toRun: RunSpec[];
  experimentId: string;
  outDir: string;
  suite: Suite;
  ctx: RunContext;
  /** The experiment-wide settings the runs' plans were settled from (a worker settles its own). */
  settings: PlanSettings;
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
      /** The cost estimate of the runs to run, in one line (docs/cost.md); absent: none made. */
      estimate?: string | undefined;
    }
  | { type: "start"; run: RunSpec }
  | { type: "end"; run: RunSpec; report: RunReport | null }
  | { type: "note"; message: string };

export interface RunSummary {
  outDir: string;
  experimentId: string;
  planned: RunSpec[];
  /**
   * The completed runs, as digests (core/digest.ts): each whole report is in its run folder
   * (`readReports(outDir)`) and was handed to onProgress when its run ended, so that an
   * experiment of 100,000 runs is not held in memory. Digests read back from the results folder
   * are packed (store/packed-digests.ts): their fields are getters, so a spread or `Object.keys`
   * shows nothing; `compactDigest(d)` gives a plain object, `JSON.stringify(d)` the plain JSON.
   */
  reports: RunDigest[];
  /** Runs that were planned but not completed (cancelled, or left unrun by the budget). */
  incomplete: RunSpec[];
  /** The budget's account, when a budget was given (docs/budgets.md). */
  budget?: BudgetAccount | undefined;
  files: string[];
  /** The comparison the reports were written from (null: fewer than two treatments, or none written). */
  comparison?: Comparison | null | undefined;
  /**
   * The one reading of the results folder the reports were written from (absent: none written),
   * handed on to the reporters at the end of a command (runner/lifecycle.ts) so that they do
   * not read the folder again.
   */
  source?: ComparisonSource | undefined;
}
