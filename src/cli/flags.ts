/**
 * Every flag of `run`, `eval` and `calibrate` once, in one typed table: its commander spelling,
 * its help, its parser and its group, the heading it is listed under in `--help`
 * (commander's `.optionsGroup()`). The commands' flag types are derived from the table
 * (`FlagValues`), so a flag is written here and read where the command maps it to RunOptions
 * (commands/run.ts `runOptionsFromFlags`).
 */
import { InvalidArgumentError, type Command } from "commander";
import { agentChoices, defaultAgentName } from "./agent-help.js";
import {
  collect,
  intArg,
  marginArg,
  parseKs,
  preflightArg,
  rateLimitArg,
  SANDBOX_HELP,
  sandboxArg,
  shardArg,
  unitArg,
} from "./args.js";

/** The help headings, in the order `--help` lists them. */
export const FLAG_GROUPS = {
  matrix: "Matrix:",
  agent: "Agent and model:",
  sandbox: "Sandbox:",
  statistics: "Statistics:",
  interaction: "Interaction:",
  judge: "Judge:",
  queue: "Queue:",
  budget: "Budget:",
  cost: "Cost:",
  output: "Output and CI:",
  telemetry: "Telemetry:",
} as const;

export type FlagGroup = keyof typeof FLAG_GROUPS;

/** One flag: `key` is commander's attribute name for it (a unit test checks they agree). */
export interface Flag<K extends string = string, V = unknown> {
  readonly key: K;
  /** commander's spelling: "-n, --count <n>", "--langsmith [project]", "--no-judge" */
  readonly flags: string;
  readonly help: string;
  readonly group: FlagGroup;
  /**
   * The argument's parser (commander passes the previous value of a repeatable flag). A method,
   * so that a table of flags of different value types is a `Flag[]`.
   */
  parse?(value: string, previous: V | undefined): V;
  /** The parsed value's type, for `FlagValues` only (never set). */
  readonly value?: V;
}

/** A flag with a text argument. */
const text = <K extends string>(
  key: K,
  flags: string,
  help: string,
  group: FlagGroup,
): Flag<K, string> => ({ key, flags, help, group });
/** A switch (also its `--no-` form). */
const on = <K extends string>(
  key: K,
  flags: string,
  help: string,
  group: FlagGroup,
): Flag<K, boolean> => ({ key, flags, help, group });
/** A switch with an optional text argument (`--langsmith [project]`). */
const onOrText = <K extends string>(
  key: K,
  flags: string,
  help: string,
  group: FlagGroup,
): Flag<K, boolean | string> => ({ key, flags, help, group });
/** A flag whose argument is parsed. */
const parsed = <K extends string, V>(
  key: K,
  flags: string,
  help: string,
  group: FlagGroup,
  parse: (value: string) => V,
): Flag<K, V> => ({ key, flags, help, group, parse });
/** A repeatable flag: every value, in order. */
const list = <K extends string>(
  key: K,
  flags: string,
  help: string,
  group: FlagGroup,
): Flag<K, string[]> => ({ key, flags, help, group, parse: collect });

/** The values of a table's flags as commander parses them (a key's flags merge: --judge/--no-judge). */
export type FlagValues<T extends readonly Flag[]> = {
  [F in T[number] as F["key"]]?: F extends Flag<string, infer V> ? V : never;
};

/** The α a calibration must show for a gate on a judge dimension (also `judge calibrate`'s "may gate" column). */
const JUDGE_ALPHA_MIN_FLAG = parsed(
  "judgeAlphaMin",
  "--judge-alpha-min <x>",
  "the Krippendorff α a judge dimension's calibration must reach to gate (default 0.67)",
  "output",
  unitArg("--judge-alpha-min"),
);

/** --html / --no-html, --junit and --fail-under (also `report`; `compare` takes only --html). */
export const HTML_FLAGS = [
  on("html", "--html", "write summary.html and comparison_report.html (the default)", "output"),
  on("html", "--no-html", "no HTML reports", "output"),
] as const;

export const JUNIT_FLAGS = [
  text("junit", "--junit <file>", "write JUnit XML: one testcase per run", "output"),
  list(
    "failUnder",
    "--fail-under <metric=min>",
    "exit 1 below a threshold, e.g. pass@1=0.8, weighted_score=0.7, WITH_SKILL:pass_rate=0.9, judge.task_completion=0.7 (repeatable)",
    "output",
  ),
  // A gate on a judge dimension needs a judge calibration (docs/judge.md, Calibration).
  text(
    "judgeCalibration",
    "--judge-calibration <file>",
    "a judge-calibration.json vouching for gates on judge dimensions, besides the results folder's own",
    "output",
  ),
  JUDGE_ALPHA_MIN_FLAG,
] as const;

/** `report`: the history store whose judge calibrations vouch for gates too (docs/judge.md). */
export const GATE_HISTORY_FLAGS = [
  text(
    "history",
    "--history <file|url>",
    "also look for judge calibrations in this history store (default: SKILLBENCH_HISTORY_URL, else .skillbench/history.db beside the results)",
    "output",
  ),
  on("history", "--no-history", "look for judge calibrations in no history store", "output"),
] as const;

/** The telemetry flags (also `rescore` and `export`; docs/telemetry.md). */
export const TELEMETRY_FLAGS = [
  text(
    "otelEndpoint",
    "--otel-endpoint <url>",
    "send OpenTelemetry traces (OTLP/HTTP) to this base URL (also OTEL_EXPORTER_OTLP_ENDPOINT)",
    "telemetry",
  ),
  text(
    "otelProtocol",
    "--otel-protocol <protocol>",
    "http/protobuf (default) or http/json (also OTEL_EXPORTER_OTLP_PROTOCOL)",
    "telemetry",
  ),
  list(
    "otelHeader",
    "--otel-header <key=value>",
    "a header for the OTLP endpoint (repeatable)",
    "telemetry",
  ),
  on(
    "otelIncludeContent",
    "--otel-include-content",
    "export prompts, tool inputs and outputs as text (redacted) instead of hash and length",
    "telemetry",
  ),
  on(
    "langfuse",
    "--langfuse",
    "export to Langfuse (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, LANGFUSE_BASE_URL)",
    "telemetry",
  ),
  onOrText(
    "langsmith",
    "--langsmith [project]",
    "export to LangSmith (LANGSMITH_API_KEY; project, default skillbench)",
    "telemetry",
  ),
  on(
    "exportRequired",
    "--export-required",
    "a failed export fails the command (exit 1) instead of a warning",
    "telemetry",
  ),
] as const;

/** The interaction flags (docs/interaction.md): RunOptions.interaction. */
const INTERACTION_FLAGS = [
  text(
    "interactionMode",
    "--interaction-mode <mode>",
    "none (single turn) or auto_user (the subject plus a simulated user)",
    "interaction",
  ),
  parsed(
    "maxTurns",
    "--max-turns <n>",
    "subject turns at most in auto_user mode",
    "interaction",
    intArg("--max-turns"),
  ),
  text(
    "simulatorPrompt",
    "--simulator-prompt <text>",
    "the simulated user's instructions (overrides the task's and the profile's)",
    "interaction",
  ),
  list(
    "decisionPattern",
    "--decision-pattern <text>",
    "text that marks a decision point in auto_user mode, added to the task's decision_patterns (repeatable)",
    "interaction",
  ),
] as const;

/** The judge flags (docs/judge.md). */
const JUDGE_FLAGS = [
  onOrText(
    "judge",
    "--judge [mode]",
    "add the LLM judge overlay (also BENCH_LLM_JUDGE=1 or a judge section in skillbench.yaml); --judge pairwise judges candidate against baseline, positions swapped",
    "judge",
  ),
  on("judge", "--no-judge", "no LLM judge, whatever the environment or suite says", "judge"),
  on(
    "judgeIndependent",
    "--judge-independent",
    "refuse (exit 2) a judge of the same model family as the agent (docs/judge.md)",
    "judge",
  ),
  text("judgeModel", "--judge-model <id>", "the judge model (BENCH_JUDGE_MODEL)", "judge"),
  text(
    "judgeBaseUrl",
    "--judge-base-url <url>",
    "the judge endpoint (BENCH_JUDGE_BASE_URL)",
    "judge",
  ),
  text(
    "judgeAgent",
    "--judge-agent <name>",
    `carry the judge through this agent's CLI: ${agentChoices(false)} (docs/judge.md)`,
    "judge",
  ),
  parsed(
    "judgeSamples",
    "--judge-samples <n>",
    "ask the judge N times and record mean and spread",
    "judge",
    intArg("--judge-samples"),
  ),
] as const;

/** Where a finished experiment is recorded (docs/history.md). */
const HISTORY_FLAGS = [
  text(
    "history",
    "--history <file|url>",
    "record the experiment in this history store: a SQLite file or postgres://… (default: SKILLBENCH_HISTORY_URL, else .skillbench/history.db beside the results)",
    "output",
  ),
  on("history", "--no-history", "do not record the experiment in a history store", "output"),
] as const;

/**
 * A budget's amount: a number above zero (docs/budgets.md). Zero or below is refused (exit 2): a
 * budget of nothing would start no run, which is never what was meant.
 */
export function budgetArg(name: string, whole: boolean): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n)))
      throw new InvalidArgumentError(
        `${name} must be ${whole ? "a whole number" : "a number"} above 0, got ${JSON.stringify(v)}`,
      );
    return n;
  };
}

/** The budgets (docs/budgets.md): the experiment's dollars and tokens, one run's dollars. */
const BUDGET_FLAGS = [
  parsed(
    "budgetUsd",
    "--budget-usd <x>",
    "the experiment's budget in dollars, metered as responses stream: no run starts that the rest cannot cover at its estimate, a run that crosses it is stopped (invalid, cause budget)",
    "budget",
    budgetArg("--budget-usd", false),
  ),
  parsed(
    "budgetTokens",
    "--budget-tokens <n>",
    "the experiment's budget in tokens (every kind together), held as --budget-usd is",
    "budget",
    budgetArg("--budget-tokens", true),
  ),
  parsed(
    "maxRunUsd",
    "--max-run-usd <x>",
    "one run's cap in dollars: a run that crosses it is stopped (invalid, cause budget)",
    "budget",
    budgetArg("--max-run-usd", false),
  ),
] as const;

/** The cost estimate's flags (docs/cost.md): RunOptions.cost. */
const COST_FLAGS = [
  list(
    "estimateFrom",
    "--estimate-from <dir>",
    "estimate tokens, cost and time from this earlier results folder's runs of the same task, treatment, agent and model (repeatable; default: the folder being resumed and the history store's folders)",
    "cost",
  ),
  text(
    "pricing",
    "--pricing <file>",
    "the pricing table (model → $ per million tokens) instead of the one shipped (data/pricing.yaml)",
    "cost",
  ),
  parsed(
    "pilot",
    "--pilot <n>",
    "run N runs per task and treatment first (they count), then estimate the rest from them and go on",
    "cost",
    intArg("--pilot"),
  ),
] as const;

/** The flags `run`, `eval` and `calibrate` share: the matrix, agent, sandbox and output. */
export const RUN_FLAGS = [
  ...HTML_FLAGS,
  ...JUNIT_FLAGS,
  ...TELEMETRY_FLAGS,
  ...HISTORY_FLAGS,
  text("task", "--task <list>", "tasks to run: comma-separated names, * as a wildcard", "matrix"),
  text(
    "treatment",
    "--treatment <list>",
    "treatments to run: comma-separated names, * as a wildcard",
    "matrix",
  ),
  parsed(
    "count",
    "-n, --count <n>",
    "repetitions per task × treatment",
    "matrix",
    intArg("--count"),
  ),
  parsed(
    "shard",
    "--shard <i/n>",
    "run only shard I of N of the plan (whole task × repetition pairs, dealt round-robin); join the shards' folders with `skillbench merge` (docs/distributed.md)",
    "matrix",
    shardArg,
  ),
  parsed("concurrency", "-j, --concurrency <n>", "runs at once", "queue", intArg("--concurrency")),
  text("out", "--out <dir>", "results folder (default .skillbench/runs/<experiment-id>)", "output"),
  text("profile", "--profile <name>", "rubric profile for every run", "matrix"),
  text(
    "model",
    "--model <id>",
    "model id passed to the agent, or a comma list to run every treatment that pins no model: on each (docs/agents.md)",
    "agent",
  ),
  text(
    "agent",
    "--agent <name>",
    `the coding agent: ${agentChoices(true)}, or a comma list to run every treatment that pins none on each (docs/agents.md)`,
    "agent",
  ),
  text(
    "agentBin",
    "--agent-bin <path>",
    "the agent's binary (default: the pinned npm package, then PATH)",
    "agent",
  ),
  parsed(
    "agentRetries",
    "--agent-retries <n>",
    "retries the agent CLI makes on a failing model request (default: the CLI's own)",
    "agent",
    (v: string): number => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 10)
        throw new InvalidArgumentError("--agent-retries must be a whole number from 0 to 10");
      return n;
    },
  ),
  text(
    "simulatorAgent",
    "--simulator-agent <name>",
    `the simulated user's agent in auto_user mode (default ${defaultAgentName()})`,
    "interaction",
  ),
  on(
    "resume",
    "--resume",
    "with --out of an interrupted run: run only the runs with no complete record",
    "output",
  ),
  on(
    "wait",
    "--wait",
    "when another skillbench writes the results folder, wait for it to end instead of refusing",
    "output",
  ),
  text(
    "modelScript",
    "--model-script <file>",
    "serve the model from this script (offline, deterministic)",
    "agent",
  ),
  list("env", "--env <KEY=VALUE>", "set a variable for the agent (repeatable)", "agent"),
  list(
    "passEnv",
    "--pass-env <NAME>",
    "pass a host variable to the agent by name (repeatable)",
    "agent",
  ),
  parsed(
    "timeout",
    "--timeout <sec>",
    "agent timeout per run, overriding the task's timeout_sec",
    "matrix",
    intArg("--timeout"),
  ),
  on(
    "keepWorkspaces",
    "--keep-workspaces",
    "keep each run's temporary workspace for debugging",
    "sandbox",
  ),
  parsed("ks", "--ks <list>", "k values for pass@k / pass^k, e.g. 1,2,5", "statistics", parseKs),
  text(
    "baselineFrom",
    "--baseline-from <dir>",
    "reuse the baseline arm of an earlier results folder when its fingerprints match (agent, model, endpoint, judge, tasks, sandbox, profile, interaction) and its reports agree with their stored evidence; only the candidate runs",
    "matrix",
  ),
  on(
    "allowDrift",
    "--allow-drift",
    "with --baseline-from: reuse it despite differences, recording them",
    "matrix",
  ),
  list(
    "reuse",
    "--reuse <dir>",
    "take finished runs of an earlier results folder whose content key equals the planned run's instead of running them (docs/reuse.md; repeatable; the word history: every folder the history store knows)",
    "matrix",
  ),
  parsed(
    "margin",
    "--margin <x>",
    "non-inferiority margin on Δ pass rate for the verdict band (default 0.05)",
    "statistics",
    marginArg,
  ),
  on(
    "exitZero",
    "--exit-zero",
    "exit 0 even when some runs fail (bad input still exits 2)",
    "output",
  ),
  parsed("sandbox", "--sandbox <kind>", SANDBOX_HELP, "sandbox", sandboxArg),
  // Task health before the runs (docs/health.md): its own block, beside the sandbox it uses.
  parsed(
    "preflight",
    "--preflight <level>",
    "check the tasks before any agent runs: quick (the default: reference solution, untouched workspace, repeated validators; starts no agent), full (adds what starts an agent), off; unsound tasks are left out of the verdict (health.json)",
    "sandbox",
    preflightArg,
  ),
  parsed(
    "healthRepeats",
    "--health-repeats <n>",
    "how many times the preflight runs the validators on each workspace (default 3)",
    "sandbox",
    intArg("--health-repeats"),
  ),
  ...INTERACTION_FLAGS,
  text(
    "simulatorModel",
    "--simulator-model <id>",
    "model for the simulated user (endpoint: SKILLBENCH_SIMULATOR_BASE_URL, default the subject's)",
    "interaction",
  ),
  ...JUDGE_FLAGS,
  ...BUDGET_FLAGS,
  ...COST_FLAGS,
] as const;

/** --until-decided and --max-count (`run` and `eval`; docs/statistics.md §12). */
export const SEQUENTIAL_FLAGS = [
  on(
    "untilDecided",
    "--until-decided",
    "add repetitions in rounds (--count each) until the verdict band is decided, with α spent across the looks (docs/statistics.md §12)",
    "statistics",
  ),
  parsed(
    "maxCount",
    "--max-count <n>",
    "with --until-decided: the most repetitions per task and treatment",
    "statistics",
    intArg("--max-count"),
  ),
] as const;

const DRY_RUN_FLAG = on(
  "dryRun",
  "--dry-run",
  "print the planned runs (profile, sandbox, timeout, interaction) and their estimated tokens, cost and wall time; start nothing",
  "output",
);

/** `run`'s own: the queue (docs/distributed.md) and --dry-run. */
export const RUN_ONLY_FLAGS = [
  DRY_RUN_FLAG,
  onOrText(
    "queue",
    "--queue [url]",
    "run on workers through this queue: redis://[:password@]host:port/db (no value: $SKILLBENCH_QUEUE_URL); see docs/distributed.md",
    "queue",
  ),
  parsed(
    "priority",
    "--priority <n>",
    "with --queue: 1 is served first (default 100)",
    "queue",
    intArg("--priority"),
  ),
  parsed(
    "rateLimit",
    "--rate-limit <n/unit>",
    "with --queue: model requests per window across all workers, e.g. 50/min",
    "queue",
    rateLimitArg,
  ),
] as const;

/** `eval`'s own: where its tasks come from (docs/manifest.md) and --dry-run. */
export const EVAL_ONLY_FLAGS = [
  on("quick", "--quick", "one smoke task instead of the manifest's tasks", "matrix"),
  on(
    "generate",
    "--generate",
    "a Skill with no tasks: the agent writes 2-4, frozen and reused by later evals (docs/manifest.md)",
    "matrix",
  ),
  on(
    "regenerate",
    "--regenerate",
    "write the generated tasks again, replacing the frozen ones",
    "matrix",
  ),
  text(
    "generatedDir",
    "--generated-dir <dir>",
    "where generated tasks are frozen (default SKILL_DIR/.skillbench/generated)",
    "matrix",
  ),
  on(
    "acceptEdited",
    "--accept-edited",
    "run frozen generated tasks edited by hand (refused otherwise), labelled as edited",
    "matrix",
  ),
  text(
    "changedSince",
    "--changed-since <ref>",
    "with a folder of Skills: evaluate only those whose folder or manifest differs from this git ref; the others are carried over with their last stored verdict (docs/reuse.md)",
    "matrix",
  ),
  DRY_RUN_FLAG,
] as const;

/** `calibrate`'s own. */
export const CALIBRATE_ONLY_FLAGS = [
  DRY_RUN_FLAG,
  parsed(
    "splits",
    "--splits <n>",
    "random splits of the runs into two arms (default 200)",
    "statistics",
    intArg("--splits"),
  ),
] as const;

/** `judge calibrate`'s own (docs/judge.md, Calibration). */
export const JUDGE_CALIBRATE_FLAGS = [
  text(
    "labels",
    "--labels <file>",
    "human labels, JSONL: {run_id, dimension, label: 0..1, rater?} or {task, repetition, preferred, rater?} per line",
    "judge",
  ),
  parsed(
    "levels",
    "--levels <n>",
    "ordered levels on 0..1 that the judge's scores and the labels are mapped to (default 3: 0, 0.5, 1)",
    "judge",
    (v: string): number => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 2 || n > 11)
        throw new InvalidArgumentError("--levels must be a whole number from 2 to 11");
      return n;
    },
  ),
  JUDGE_ALPHA_MIN_FLAG,
  // Where the calibration is also kept, for later experiments' gates (docs/judge.md, Calibration).
  text(
    "history",
    "--history <file|url>",
    "also record the calibration in this history store: a SQLite file or postgres://… (default: SKILLBENCH_HISTORY_URL, else .skillbench/history.db beside the results)",
    "output",
  ),
  on("history", "--no-history", "do not record the calibration in a history store", "output"),
] as const;

/**
 * Add the flags to a command. `grouped`: listed under their groups' headings, in the groups'
 * order (commander lists a group where its first option was added); otherwise in table order,
 * under commander's one "Options:" heading.
 */
export function addFlags(cmd: Command, flags: readonly Flag[], grouped = true): Command {
  const order = Object.keys(FLAG_GROUPS);
  const sorted = grouped
    ? [...flags].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group))
    : flags;
  for (const f of sorted) {
    if (grouped) cmd.optionsGroup(FLAG_GROUPS[f.group]);
    const parse = f.parse?.bind(f);
    if (parse) cmd.option(f.flags, f.help, parse);
    else cmd.option(f.flags, f.help);
  }
  // The options a command adds after these go under commander's "Options:" heading.
  if (grouped) cmd.optionsGroup("");
  return cmd;
}
