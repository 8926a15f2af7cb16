/**
 * The agent seam (docs/agents.md). Everything that differs between coding-agent CLIs lives
 * behind `AgentDriver`: where its binary is and which version it is, the private state folder
 * and environment of a run, where a treatment's Skills and memory file go in the workspace, the
 * command line of a first and of a resumed turn, the one decoder from its event stream to the
 * common `Evidence`, and how a finished process is classified. The runner, the simulated user
 * and the judge only talk to this interface.
 */
import type { Evidence } from "../core/evidence.js";
import type { Launcher } from "../sandbox/types.js";
import type { RedactingLineWriter } from "../util/redacting-writer.js";

export const AGENT_NAMES = ["claude", "codex", "gemini", "opencode"] as const;
/** The agents a user can pick with `--agent`; `replay` is for tests and re-plays. */
export type AgentName = (typeof AGENT_NAMES)[number] | "replay";

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
export interface AgentStateDirs {
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

/** Options every decoder takes (paths are made relative to the workspace). */
export interface DecodeOptions {
  workspace?: string;
  preexisting?: ReadonlySet<string>;
  toolTextBudget?: number;
}

/** One streaming decoder: lines of the agent's stdout in, `Evidence` out. Pure. */
export interface StreamDecoder {
  pushLine(line: string): void;
  finish(opts?: { truncated?: boolean }): Evidence;
}

/** The command line of one turn: arguments after the binary, and text for stdin if any. */
export interface TurnCommand {
  args: string[];
  stdin?: string | undefined;
}

export interface PreparedAgent {
  env: Record<string, string>;
  /** Arguments every turn of this process needs (before the turn's own). */
  baseArgs: string[];
}

export interface AgentDriver {
  name: AgentName;
  /** For people: "Claude Code", "Codex CLI", ... */
  displayName: string;
  /** The npm package that brings the binary (pinned in package.json), or null. */
  packageName: string | null;
  /** The wire API the CLI speaks to the model (docs/model-script.md, section 7). */
  api: "anthropic" | "openai-responses" | "gemini";
  /** Workspace-relative folder where a treatment's Skills are installed (`<dir>/<name>/SKILL.md`). */
  skillsDir: string;
  /** Workspace-relative memory file a treatment's `claude_md` is written to. */
  memoryFile: string;
  /** Environment variables and settings that bound the CLI's retries, for the docs and doctor. */
  retryKnobs: string[];
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
  /** Spawn one turn and classify how it ended; never throws. */
  runTurn(r: TurnRequest): Promise<TurnResult>;
}
