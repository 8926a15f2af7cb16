/**
 * Resolve a run's interaction settings (docs/interaction.md §1). Pure: file texts are
 * read by the caller and passed in.
 *
 * Precedence, lowest to highest, for mode and max_turns:
 *   profile default -> task value (only when the task set it) -> CLI flag.
 * Simulator prompt, first non-blank wins:
 *   --simulator-prompt -> BENCH_SIMULATOR_PROMPT_FILE's text -> the task's
 *   simulator_prompt -> simulator-instruction.md beside the suite -> profile default.
 * (The suite's default file is a suite-wide template: as in the original harness it
 * replaces only the profile default, never a task's own prompt; a file named
 * explicitly by BENCH_SIMULATOR_PROMPT_FILE replaces the task's prompt too.)
 */
import { InputError } from "../core/errors.js";
import { DEFAULT_CONTINUE_PROMPT, type TaskSpec } from "../suite/types.js";
import { GENERIC_SIMULATOR_PROMPT, profileInteractionDefaults } from "../scoring/index.js";

export { DEFAULT_CONTINUE_PROMPT };

export type InteractionMode = "none" | "auto_user";

/** The generic default simulator prompt (each profile's lives with it, src/scoring/profiles/). */
export { GENERIC_SIMULATOR_PROMPT };

/** Sent when the simulator (or a deterministic reply) produced no text. */
export const FALLBACK_REPLY = "Yes, please proceed with the recommended option.";

type SettingSource = "cli" | "task" | "profile";
type SimulatorPromptSource = "cli" | "env_file" | "task" | "suite_file" | "profile";

/** The interaction flags (cli/flags.ts), as RunOptions, the plan and `--dry-run` take them. */
export interface InteractionFlags {
  /** `--interaction-mode` (`interactive` is read as `auto_user`). */
  mode?: string | undefined;
  /** `--max-turns` */
  maxTurns?: number | undefined;
  /** `--simulator-prompt` text */
  simulatorPrompt?: string | undefined;
  /** `--decision-pattern` (repeatable): added to the task's `decision_patterns`. */
  decisionPatterns?: readonly string[] | undefined;
}

export interface InteractionInput {
  /** The resolved profile name (after --profile, treatment and task). */
  profile: string;
  task: {
    /** The task's `[interaction].mode` when task.toml sets it; null when it does not. */
    mode: InteractionMode | null;
    /** The task's `[interaction].max_turns` when task.toml sets it; null when it does not. */
    maxTurns: number | null;
    simulatorPrompt: string | null;
    decisionPatterns: readonly string[];
    decisionReply: string | null;
    decisionReplies: readonly string[];
    continuePrompt: string | null;
    freshResumeMarker: string | null;
  };
  cli?: InteractionFlags;
  /** Text of the file named by BENCH_SIMULATOR_PROMPT_FILE, when that variable is set and the file exists. */
  envPromptFileText?: string | null;
  /** Text of `simulator-instruction.md` beside the suite, when present. */
  suitePromptFileText?: string | null;
}

export interface InteractionConfig {
  mode: InteractionMode;
  mode_source: SettingSource;
  max_turns: number;
  max_turns_source: SettingSource;
  /** Never shown to the subject; only the simulator reads it. */
  simulator_prompt: string;
  simulator_prompt_source: SimulatorPromptSource;
  /** The task's `decision_patterns`, then the `--decision-pattern` ones (no empty entry, no repeat). */
  decision_patterns: string[];
  /** Those of `decision_patterns` given with `--decision-pattern`. */
  decision_patterns_cli: string[];
  decision_reply: string | null;
  decision_replies: string[];
  continue_prompt: string;
  fresh_resume_marker: string | null;
}

function parseMode(v: string, what: string): InteractionMode {
  const m = v.trim().toLowerCase();
  if (m === "none") return "none";
  if (m === "auto_user" || m === "interactive") return "auto_user";
  throw new InputError(`${what}: expected "none" or "auto_user", got ${JSON.stringify(v)}`, {
    field: what,
  });
}

function checkTurns(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`${what}: expected a positive integer, got ${String(n)}`, { field: what });
  return n;
}

function nonBlank(s: string | null | undefined): s is string {
  return typeof s === "string" && s.trim() !== "";
}

export function resolveInteraction(input: InteractionInput): InteractionConfig {
  const defaults = profileInteractionDefaults(input.profile);
  const cli = input.cli ?? {};
  const t = input.task;

  let mode = defaults.mode;
  let mode_source: SettingSource = "profile";
  if (t.mode !== null) [mode, mode_source] = [t.mode, "task"];
  if (cli.mode !== undefined)
    [mode, mode_source] = [parseMode(cli.mode, "--interaction-mode"), "cli"];

  let max_turns = defaults.max_turns;
  let max_turns_source: SettingSource = "profile";
  if (t.maxTurns !== null)
    [max_turns, max_turns_source] = [checkTurns(t.maxTurns, "[interaction].max_turns"), "task"];
  if (cli.maxTurns !== undefined)
    [max_turns, max_turns_source] = [checkTurns(cli.maxTurns, "--max-turns"), "cli"];

  const candidates: Array<[string | null | undefined, SimulatorPromptSource]> = [
    [cli.simulatorPrompt, "cli"],
    [input.envPromptFileText, "env_file"],
    [t.simulatorPrompt, "task"],
    [input.suitePromptFileText, "suite_file"],
  ];
  let simulator_prompt = defaults.simulator_prompt;
  let simulator_prompt_source: SimulatorPromptSource = "profile";
  for (const [text, source] of candidates) {
    if (nonBlank(text)) {
      simulator_prompt = text.trim();
      simulator_prompt_source = source;
      break;
    }
  }

  const cliPatterns = [...new Set(cli.decisionPatterns ?? [])];
  for (const p of cliPatterns)
    if (p.trim() === "")
      throw new InputError("--decision-pattern: expected a non-empty text", {
        field: "--decision-pattern",
      });

  return {
    mode,
    mode_source,
    max_turns,
    max_turns_source,
    simulator_prompt,
    simulator_prompt_source,
    decision_patterns: [...new Set([...t.decisionPatterns, ...cliPatterns])].filter(
      (p) => p !== "",
    ),
    decision_patterns_cli: cliPatterns,
    decision_reply: nonBlank(t.decisionReply) ? t.decisionReply : null,
    decision_replies: [...t.decisionReplies],
    continue_prompt: nonBlank(t.continuePrompt) ? t.continuePrompt : DEFAULT_CONTINUE_PROMPT,
    fresh_resume_marker: nonBlank(t.freshResumeMarker) ? t.freshResumeMarker : null,
  };
}

/** The task's `[interaction]` table as resolveInteraction reads it (unset mode and max_turns as null). */
export function taskInteractionSettings(i: TaskSpec["interaction"]): InteractionInput["task"] {
  return {
    mode: i.mode_set ? i.mode : null,
    maxTurns: i.max_turns_set ? i.max_turns : null,
    simulatorPrompt: i.simulator_prompt,
    decisionPatterns: i.decision_patterns,
    decisionReply: i.decision_reply,
    decisionReplies: i.decision_replies,
    continuePrompt: i.continue_prompt,
    freshResumeMarker: i.fresh_resume_marker,
  };
}
