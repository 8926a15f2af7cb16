/**
 * The agent seam (docs/agents.md). Everything that differs between coding-agent CLIs lives
 * behind `AgentDriver`: where its binary is and which version it is, the private state folder
 * and environment of a run, where a treatment's Skills and memory file go in the workspace, the
 * command line of a first and of a resumed turn, the one decoder from its event stream to the
 * common `Evidence`, and how a finished process is classified. The runner, the simulated user
 * and the judge only talk to this interface.
 */
import type { EvidenceOptions, LineDecoder } from "../evidence/default-decoder.js";
import type { AgentHooks } from "../core/hooks.js";
import type { ToolVocabulary } from "../evidence/derive.js";
import type { Action } from "../model/script.js";
import type { DialectFacts, ToolCallSpec, WireApi } from "../model/dialect-types.js";
import type { Launcher } from "../sandbox/types.js";
import type { RedactingLineWriter } from "../util/redacting-writer.js";

/**
 * A driver's name (`--agent`): one of the registry's (src/agents/registry.ts). A plain string,
 * not a union, so that a new agent is one folder and one registry line, not an edit here too.
 */
export type AgentName = string;

export interface ResolvedBinary {
  path: string;
  /** Where it was found: the flag, the agent's SKILLBENCH_<AGENT>_BIN variable, the npm package or PATH. */
  source: string;
}

/** How one agent process ended. Each failure mode is distinct and recorded. */
export type TurnOutcome =
  | "completed" // exit 0 and a final event that is not an error
  | "agent_error" // a final event that reports an error, or a non-zero exit after a final event
  | "crashed" // killed by a signal we did not send, or a non-zero exit with no final event
  | "no_result" // exit 0 but the stream has no final event
  | "empty_output" // the process printed nothing on stdout
  | "timeout" // killed by skillbench after the timeout
  | "aborted" // killed because the run was cancelled (Ctrl-C)
  | "spawn_error"; // the binary could not be started

/** Why an `agent_error` turn failed, the same words on every agent. */
export type ErrorKind = "api_error" | "max_turns" | "agent_error";

/** The model endpoint and credential one agent process is given. */
export interface AgentEndpoint {
  /** Root URL of the model server for this run and role (the driver appends its API's path). */
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  authToken?: string | undefined;
}

/** The private folders of one agent process (made by the caller; the driver fills them). */
interface AgentStateDirs {
  home: string;
  config: string;
  tmp: string;
}

export interface AgentEnvRequest {
  hostEnv: Record<string, string | undefined>;
  dirs: AgentStateDirs;
  endpoint: AgentEndpoint;
  model?: string | undefined;
  /** `--env KEY=VALUE` and the suite's `env:` (applied last). */
  declared?: Record<string, string>;
  /** `--pass-env NAME`: host variables passed through by name. */
  passEnv?: string[];
  /**
   * Retries the CLI makes on a failing model request; undefined keeps the CLI's own default
   * (minutes of back-off on most agents: tests set it low).
   */
  maxRetries?: number | undefined;
  /** No tools at all (the judge) or no file/shell tools (the simulated user). */
  tools?: "all" | "none" | "talk-only";
}

export interface TurnRequest {
  bin: string;
  workspace: string;
  prompt: string;
  /** From `prepare()`. */
  env: Record<string, string>;
  /** Extra arguments from `prepare()` (e.g. Codex's provider `-c` flags). */
  baseArgs?: string[] | undefined;
  resume?: string | undefined;
  model?: string | undefined;
  appendSystemPrompt?: string | undefined;
  extraArgs?: string[];
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  stdout: RedactingLineWriter;
  stderr: RedactingLineWriter;
  /** Runs the agent inside a sandbox (src/sandbox); absent: spawned directly. */
  launcher?: Launcher | undefined;
}

export interface TurnResult {
  outcome: TurnOutcome;
  /** For `agent_error`: an API failure, the turn limit, or anything else the agent reported. */
  error_kind?: ErrorKind | null | undefined;
  exit_code: number | null;
  signal: string | null;
  session_id: string | null;
  result_text: string | null;
  is_error: boolean | null;
  lines: number;
  duration_ms: number;
  /** The raw (redacted) stdout and stderr files this turn appended to. */
  stdout_file: string;
  stderr_file: string;
  /** Why, in words, for the report. */
  detail: string;
}

/**
 * Options every decoder takes (paths are made relative to the workspace), and one streaming
 * decoder (lines of the agent's stdout in, `Evidence` out; pure): evidence/'s own types, which
 * its entry points (parseEvidence, parseEvidenceFile) take from every driver.
 */
export type DecodeOptions = EvidenceOptions;
export type StreamDecoder = LineDecoder;

/** The command line of one turn: arguments after the binary, and text for stdin if any. */
interface TurnCommand {
  args: string[];
  stdin?: string | undefined;
}

export interface PreparedAgent {
  env: Record<string, string>;
  /** Arguments every turn of this process needs (before the turn's own). */
  baseArgs: string[];
}

/**
 * How the scripted model (src/model) plays this agent: which tools mark a request as this
 * agent's, and an agent-neutral action (run, read, write, edit, skill) as its tool call.
 */
export interface ScriptedTools {
  /** Tool names whose presence in a request says it is this agent's (agents tried in registry order). */
  marks: readonly string[];
  /** Wire APIs that mean this agent when no tool of any agent's marks is offered. */
  fallbackFor: readonly WireApi[];
  call(a: Action, f: DialectFacts): ToolCallSpec;
}

/** A Skill the agent chose in a trigger probe, and how it showed (docs/triggers.md). */
export interface SkillDecision {
  skill: string;
  via: "skill_tool" | "skill_files" | "slash_command";
}

export interface WatchedProbe {
  /** The first Skill chosen, or null. */
  decision: SkillDecision | null;
  /** `subtype` of the result event (`success`, `error_max_turns`, …), null before it. */
  resultSubtype: string | null;
}

export interface TriggerProbeInput {
  bin: string;
  workspace: string;
  prompt: string;
  env: Record<string, string>;
  /** From `prepare()`: arguments every turn of this process needs (Codex's `exec --json`). */
  baseArgs?: string[] | undefined;
  model?: string | undefined;
  maxTurns: number;
  timeoutMs: number;
  /** Aborted on the second Ctrl-C. */
  signal: AbortSignal;
  stdoutFile: string;
  stderrFile: string;
  redact: (s: string) => string;
  launcher?: Launcher | undefined;
}

export interface TriggerProbeResult {
  turn: TurnResult;
  watched: WatchedProbe;
  /** The process was stopped by the probe because the decision was known. */
  stoppedEarly: boolean;
  /**
   * The process was stopped because the agent spent the probe's tool-call budget without
   * choosing a Skill (agents without a turn-limit flag of their own): "nothing triggered".
   */
  budgetSpent?: boolean;
}

/** A driver's default figure for one run (`AgentDriver.typicalRun`): tokens by kind and seconds. */
export interface TypicalRun {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_write: number;
  readonly seconds: number;
}

export interface AgentDriver {
  name: AgentName;
  /** Other spellings `--agent` and stored reports accept (e.g. the report name). */
  aliases: readonly string[];
  /** The name a run's report gives this agent (`agent.name` in report.json; the schema's enum). */
  reportName: string;
  /** For people: "Claude Code", "Codex CLI", ... */
  displayName: string;
  /** The npm package that brings the binary (pinned in package.json), or null. */
  packageName: string | null;
  /** The wire API the CLI speaks to the model (docs/model-script.md, section 7). */
  api: "anthropic" | "openai-responses" | "gemini";
  /** Workspace-relative folder where a treatment's Skills are installed (`<dir>/<name>/SKILL.md`). */
  skillsDir: string;
  /**
   * Dot-folders whose `skills/<name>/` the CLI discovers Skills in (`claude` for
   * `.claude/skills/`): evidence counts a path under any registered agent's folder as a Skill's.
   */
  skillFolders: readonly string[];
  /** Workspace-relative memory file a treatment's `claude_md` is written to. */
  memoryFile: string;
  /**
   * Merges a treatment's `hooks:` (and those its Skills ask for) into the agent's project
   * settings in the workspace; absent: the agent takes no hooks and none are written.
   */
  installHooks?: ((workspace: string, hooks: AgentHooks[]) => Promise<void>) | undefined;
  /** OpenTelemetry's `gen_ai.provider.name` of the model API the CLI speaks; null: not one. */
  telemetryProvider: string | null;
  /**
   * The variables that switch on the CLI's own OpenTelemetry tracing, which then exports to the
   * `OTEL_*` endpoint and nests its spans under TRACEPARENT: `--otel` gives it the collector's
   * environment (docs/telemetry.md). Absent: the CLI does not, and gets nothing.
   */
  spanEnv?: Readonly<Record<string, string>>;
  /**
   * The final event's subtype with which the CLI says its own spending cap stopped it (Claude
   * Code's `--max-budget-usd`: `error_max_budget_usd`): such a run is recorded as stopped by a
   * budget, as skillbench's own budgets stop runs (docs/budgets.md). Absent: the CLI has none.
   */
  ownBudgetStop?: string | undefined;
  scriptedTools: ScriptedTools;
  /**
   * What each of the CLI's tools does (command, read, write, ...), as its decoder reads its
   * stream: trajectory steps name these neutral kinds (src/trajectory, docs/trajectory.md).
   */
  toolVocabulary: ToolVocabulary;
  /** Environment variables and settings that bound the CLI's retries, for the docs and doctor. */
  retryKnobs: string[];
  /**
   * What one ordinary run of this agent uses, for a cost estimate with no earlier runs and no
   * pilot to go on (src/cost/estimate.ts, docs/cost.md): a rough figure of the order of
   * magnitude, not a measurement. Absent: the estimate says it has nothing to go on.
   */
  typicalRun?: TypicalRun | undefined;
  resolveBinary(opts: {
    agentBin?: string | undefined;
    env?: Record<string, string | undefined>;
  }): ResolvedBinary | { error: string };
  /** `<bin> --version`, reduced to the version number; null when it cannot be run. */
  version(bin: string, env: Record<string, string>, cwd: string): Promise<string | null>;
  /** Write the private state (settings files) into `dirs` and build the process environment. */
  prepare(r: AgentEnvRequest): Promise<PreparedAgent>;
  /** The arguments of a first turn (no `resume`) or of a resumed one. */
  command(
    r: Pick<TurnRequest, "prompt" | "resume" | "model" | "appendSystemPrompt" | "extraArgs">,
  ): TurnCommand;
  decoder(opts?: DecodeOptions): StreamDecoder;
  /**
   * The stream names the agent's cwd itself (Claude Code's init event), so a rescore decodes it
   * without the workspace events.json recorded; absent: it does not.
   */
  cwdInStream?: boolean;
  /** Spawn one turn and classify how it ended; never throws. */
  runTurn(r: TurnRequest): Promise<TurnResult>;
  /**
   * Trigger detection (`skillbench triggers`): one turn stopped as soon as the agent has chosen
   * a Skill. Absent: the agent cannot be probed for triggers.
   */
  probeTrigger?(i: TriggerProbeInput): Promise<TriggerProbeResult>;
}
