/**
 * The dual-agent `auto_user` loop (docs/interaction.md §2): the subject runs the task, and at
 * every decision point a reply (deterministic, or from the simulated user) is fed
 * back with `--resume`. The agent calls are injected, so the loop itself only
 * decides what to send next and records what happened. See docs/interaction.md.
 */
import type { TurnOutcome, TurnResult } from "../agents/types.js";
import { errorMessage } from "../core/errors.js";
import { FALLBACK_REPLY, type InteractionConfig, type InteractionMode } from "./config.js";
import { decisionReason, isCompletion } from "./detect.js";

/** Limits for one agent call, derived from the loop's deadline and signal. */
export interface CallContext {
  /** Milliseconds left before the loop's deadline; undefined when the loop has none (use your own limit). */
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
}

type SubjectTurn = (
  prompt: string,
  resumeSession: string | null,
  turn: number,
  ctx: CallContext,
) => Promise<TurnResult>;

export interface SimulatorReply {
  text: string | null;
  session_id: string | null;
  outcome: TurnOutcome;
  detail: string;
}

export type Simulate = (input: string, turn: number, ctx: CallContext) => Promise<SimulatorReply>;

type EndReason =
  | "completed"
  | "max_turns"
  | "empty_result"
  | "subject_error"
  | "simulator_error"
  | "timeout"
  | "decision_queue_exhausted"
  | "aborted"
  /** mode `none`: the one turn ran (whatever its result text). */
  | "single_turn";

/** Where a turn's prompt came from. */
type PromptSource = "task" | "continue" | "decision_reply" | "simulator" | "nudge";

interface SimulatorCall {
  session_id: string | null;
  outcome: TurnOutcome;
  detail: string;
  /** The simulator answered with blank text, so FALLBACK_REPLY was sent instead. */
  fallback: boolean;
}

interface TurnRecord {
  turn: number;
  /** The prompt sent to the subject (at most TEXT_LIMIT characters). */
  prompt: string;
  prompt_source: PromptSource;
  session_id: string | null;
  /** The turn ran with `--resume <session>`. */
  resumed: boolean;
  /** The turn's result text (at most TEXT_LIMIT characters). */
  result_text: string | null;
  outcome: TurnOutcome;
  detail: string;
  duration_ms: number;
  /** The decision rule that fired on the result text (see decisionReason), or null. */
  decision: string | null;
  completion: boolean;
  /** The result text contained the fresh-resume marker. */
  fresh_resume: boolean;
  /** The simulator call that answered this turn's decision point, if any. */
  simulator: SimulatorCall | null;
}

export interface InteractionRecord {
  mode: InteractionMode;
  max_turns: number;
  /** The substrings that counted as decision points besides the built-in ones (docs/interaction.md). */
  decision_patterns: string[];
  /** Those of them given on the command line (`--decision-pattern`). */
  decision_patterns_cli: string[];
  /** Subject turns started. */
  actual_turns: number;
  decision_points: number;
  /** Replies from decision_replies or decision_reply that a subject turn received. */
  deterministic_replies: number;
  /** Simulator replies (including fallbacks for a blank answer) that a subject turn received. */
  simulated_replies: number;
  completion_signals: number;
  /** Continue prompts a subject turn received because the previous result was neither complete nor a decision point. */
  nudges: number;
  fresh_resume_boundaries: number;
  /** Distinct session ids per role, in first-seen order. */
  role_sessions: { subject: string[]; simulator: string[] };
  end_reason: EndReason;
  /** Why, in words. */
  end_detail: string;
  turns: TurnRecord[];
}

export interface InteractionLoopOptions {
  config: InteractionConfig;
  taskPrompt: string;
  subjectTurn: SubjectTurn;
  simulate: Simulate;
  signal?: AbortSignal | undefined;
  /** The clock `deadlineMs` is on (default Date.now). */
  now?: () => number;
  /** Absolute time (on `now`'s clock) by which the whole loop must end. */
  deadlineMs?: number | undefined;
  /** Progress lines (`[loop] ...`, as the original driver logs them), e.g. for the run's stderr. */
  log?: (line: string) => void;
}

/** Longest prompt or result text kept per turn in the record. */
const TEXT_LIMIT = 4000;
/** How much of the subject's message the simulator sees. */
const SIMULATOR_CONTEXT_CHARS = 3000;

/** The simulator's input: its instructions, then the subject's last message (docs/interaction.md §2, step 7). */
export function simulatorInput(simulatorPrompt: string, subjectText: string): string {
  return `${simulatorPrompt}\n\nAssistant's message:\n"""\n${subjectText.slice(0, SIMULATOR_CONTEXT_CHARS)}\n"""`;
}

function clip(s: string | null): string | null {
  return s === null ? null : s.slice(0, TEXT_LIMIT);
}

function pushUnique(list: string[], id: string | null): void {
  if (id !== null && id !== "" && !list.includes(id)) list.push(id);
}

function failedTurn(outcome: TurnOutcome, detail: string): TurnResult {
  return {
    outcome,
    exit_code: null,
    signal: null,
    session_id: null,
    result_text: null,
    is_error: null,
    lines: 0,
    duration_ms: 0,
    stdout_file: "",
    stderr_file: "",
    detail,
  };
}

export async function runInteractionLoop(opts: InteractionLoopOptions): Promise<InteractionRecord> {
  const { config } = opts;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const maxTurns = config.mode === "none" ? 1 : config.max_turns;
  const rec: InteractionRecord = {
    mode: config.mode,
    max_turns: config.max_turns,
    decision_patterns: [...config.decision_patterns],
    decision_patterns_cli: [...config.decision_patterns_cli],
    actual_turns: 0,
    decision_points: 0,
    deterministic_replies: 0,
    simulated_replies: 0,
    completion_signals: 0,
    nudges: 0,
    fresh_resume_boundaries: 0,
    role_sessions: { subject: [], simulator: [] },
    end_reason: "max_turns",
    end_detail: "",
    turns: [],
  };
  const end = (reason: EndReason, detail: string): InteractionRecord => {
    rec.end_reason = reason;
    rec.end_detail = detail;
    log(`[loop] finished after ${rec.actual_turns} turns (${reason})`);
    return rec;
  };
  /** The limits for the next call, or why no call may start. */
  const callContext = (): CallContext | { stop: EndReason; detail: string } => {
    if (opts.signal?.aborted) return { stop: "aborted", detail: "run cancelled" };
    if (opts.deadlineMs === undefined) return { timeoutMs: undefined, signal: opts.signal };
    const left = opts.deadlineMs - now();
    if (left <= 0) return { stop: "timeout", detail: "loop deadline reached" };
    return { timeoutMs: left, signal: opts.signal };
  };
  const pastDeadline = (): boolean => opts.deadlineMs !== undefined && now() >= opts.deadlineMs;

  let session: string | null = null;
  let prompt = opts.taskPrompt;
  let source: PromptSource = "task";
  let queueIndex = 0;

  for (let turn = 1; turn <= maxTurns; turn++) {
    const ctx = callContext();
    if ("stop" in ctx) return end(ctx.stop, ctx.detail);
    log(`[loop] turn ${turn}/${maxTurns}`);
    rec.actual_turns = turn;
    // A reply counts once a turn delivers it.
    if (source === "decision_reply") rec.deterministic_replies++;
    else if (source === "simulator") rec.simulated_replies++;
    else if (source === "nudge") rec.nudges++;
    const resumed = session !== null;
    let res: TurnResult;
    try {
      res = await opts.subjectTurn(prompt, session, turn, ctx);
    } catch (e) {
      res = failedTurn("spawn_error", `subject turn threw: ${errorMessage(e)}`);
    }
    const text = res.result_text ?? "";
    const entry: TurnRecord = {
      turn,
      prompt: clip(prompt) ?? "",
      prompt_source: source,
      session_id: res.session_id,
      resumed,
      result_text: clip(res.result_text),
      outcome: res.outcome,
      detail: res.detail,
      duration_ms: res.duration_ms,
      decision: null,
      completion: false,
      fresh_resume: false,
      simulator: null,
    };
    rec.turns.push(entry);
    pushUnique(rec.role_sessions.subject, res.session_id);
    if (res.session_id) log(`[loop] role-session subject ${res.session_id}`);

    if (res.outcome !== "completed") {
      log(`[loop] subject turn ${turn} failed (${res.outcome})`);
      if (res.outcome === "aborted") return end("aborted", res.detail);
      if (res.outcome === "timeout") return end("timeout", `subject turn ${turn}: ${res.detail}`);
      return end("subject_error", `subject turn ${turn} ${res.outcome}: ${res.detail}`);
    }
    session = res.session_id ?? session;

    if (config.mode === "none") {
      entry.decision = decisionReason(text, config.decision_patterns);
      entry.completion = text.trim() !== "" && isCompletion(text);
      if (entry.decision !== null) rec.decision_points++;
      if (entry.completion) rec.completion_signals++;
      return end("single_turn", "single-turn mode: one subject turn");
    }

    if (text.trim() === "") {
      log("[loop] no result text; ending");
      return end("empty_result", `subject turn ${turn} returned no result text`);
    }

    const last = turn === maxTurns;
    if (config.fresh_resume_marker !== null && text.includes(config.fresh_resume_marker)) {
      log("[loop] fresh resume boundary detected; starting a new subject session");
      entry.fresh_resume = true;
      rec.fresh_resume_boundaries++;
      session = null;
      prompt = config.continue_prompt;
      source = "continue";
      continue;
    }

    if (isCompletion(text)) {
      log("[loop] workflow completion detected; ending");
      entry.completion = true;
      rec.completion_signals++;
      return end("completed", `subject turn ${turn} reported completion`);
    }

    const reason = decisionReason(text, config.decision_patterns);
    entry.decision = reason;
    if (reason !== null) {
      rec.decision_points++;
      log(`[loop] decision point detected (${reason})`);
      // No turn is left to receive a reply: do not spend one.
      if (last) break;
      if (config.decision_replies.length > 0) {
        const next = config.decision_replies[queueIndex];
        if (next === undefined) {
          log("[loop] deterministic decision reply queue exhausted");
          return end(
            "decision_queue_exhausted",
            `decision point at turn ${turn} after all ${config.decision_replies.length} decision_replies were used`,
          );
        }
        queueIndex++;
        prompt = next.trim() === "" ? FALLBACK_REPLY : next;
        source = "decision_reply";
        log("[loop] deterministic decision reply applied");
      } else if (config.decision_reply !== null) {
        prompt = config.decision_reply;
        source = "decision_reply";
        log("[loop] deterministic decision reply applied");
      } else {
        const simCtx = callContext();
        if ("stop" in simCtx) return end(simCtx.stop, simCtx.detail);
        let sim: SimulatorReply;
        try {
          sim = await opts.simulate(simulatorInput(config.simulator_prompt, text), turn, simCtx);
        } catch (e) {
          sim = {
            text: null,
            session_id: null,
            outcome: "spawn_error",
            detail: `simulator threw: ${errorMessage(e)}`,
          };
        }
        const blank = sim.text === null || sim.text.trim() === "";
        entry.simulator = {
          session_id: sim.session_id,
          outcome: sim.outcome,
          detail: sim.detail,
          fallback: sim.outcome === "completed" && blank,
        };
        pushUnique(rec.role_sessions.simulator, sim.session_id);
        if (sim.session_id) log(`[loop] role-session simulator ${sim.session_id}`);
        if (sim.outcome !== "completed") {
          log(`[loop] simulator turn failed (${sim.outcome})`);
          if (sim.outcome === "aborted") return end("aborted", sim.detail);
          if (sim.outcome === "timeout" && pastDeadline())
            return end("timeout", `simulator at turn ${turn}: ${sim.detail}`);
          return end("simulator_error", `simulator at turn ${turn} ${sim.outcome}: ${sim.detail}`);
        }
        prompt = blank || sim.text === null ? FALLBACK_REPLY : sim.text;
        source = "simulator";
        log(`[loop] simulated reply (${prompt.length} chars)`);
      }
      continue;
    }

    if (last) break;
    log("[loop] no decision point and not complete; nudging to continue");
    prompt = config.continue_prompt;
    source = "nudge";
  }
  return end("max_turns", `stopped after max_turns (${maxTurns}) subject turns`);
}
