import type { AfterLast, Count, Role, StopReason } from "./script-schema.js";

/** The normalised, validated script the server plays (built by `normalizeScript`). */

export type TextMatcher =
  | { kind: "contains"; value: string }
  | { kind: "equals"; value: string }
  | { kind: "regex"; re: RegExp };

export type IntMatcher =
  | { kind: "values"; values: number[] }
  | { kind: "every"; every: number; offset: number }
  | { kind: "range"; min: number | null; max: number | null };

export interface When {
  task?: string[];
  treatment?: string[];
  /** The request's `model` (exact), any of the list. */
  model?: string[];
  rep?: IntMatcher;
  role?: Role[];
  position?: IntMatcher;
  /** Any-of lists. */
  user_text?: TextMatcher[];
  tool_result?: TextMatcher[];
  system?: TextMatcher[];
  /** All-of lists. */
  tool?: string[];
  skill?: string[];
}

/**
 * An agent-neutral action (run a command, write a file, invoke a Skill, read a file): the
 * server turns it into the tool call of whichever agent asked (model/dialect.ts).
 */
export type Action =
  | { action: "run"; command: string }
  | { action: "write"; path: string; content: string }
  | { action: "edit"; path: string; old: string; new: string }
  | { action: "skill"; skill: string }
  | { action: "read"; path: string };

export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id: string | null }
  | ({ type: "action"; id: string | null } & Action);

export interface Usage {
  input_tokens: number;
  output_tokens: number | null;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

interface FaultBase {
  /** Wait before playing the fault. */
  delayMs: number;
  /** Attempts this fault covers; null = every remaining attempt. */
  times: number | null;
}
export type Fault =
  | (FaultBase & {
      kind: "status";
      status: number;
      errorType: string;
      message: string;
      /** Raw body to send instead of the Anthropic-style error JSON. */
      body: unknown;
      headers: Record<string, string>;
    })
  | (FaultBase & { kind: "cut"; afterEvents: number | null; clean: boolean })
  | (FaultBase & { kind: "hang" });

export interface Step {
  content: Block[];
  stopReason: StopReason | null;
  usage: Partial<Usage>;
  model: string | null;
  delayMs: number;
  faults: Fault[];
}

export type RuleStep = { kind: "plain"; step: Step } | { kind: "by_rep"; alternatives: Step[] };

export interface Rule {
  index: number;
  /** `name` from the file, else `rules[<index>]`. */
  name: string;
  when: When;
  steps: RuleStep[];
  count: Count;
  afterLast: AfterLast;
}

export interface ModelScript {
  defaults: { model: string | null; usage: Usage };
  rules: Rule[];
  /** The file it was loaded from, if any (for messages). */
  source: string | null;
}

export type { Role, StopReason };

/** Does some rule of the script name this role explicitly (e.g. a `role: judge` rule)? */
export function scriptServesRole(script: ModelScript, role: Role): boolean {
  return script.rules.some((r) => r.when.role?.includes(role) ?? false);
}
