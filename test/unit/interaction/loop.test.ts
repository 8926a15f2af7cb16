import { describe, expect, it } from "vitest";
import type { TurnOutcome, TurnResult } from "../../../src/agents/claude/turn.js";
import { FALLBACK_REPLY, type InteractionConfig } from "../../../src/interaction/config.js";
import {
  runInteractionLoop,
  simulatorInput,
  type CallContext,
  type InteractionRecord,
  type SimulatorReply,
} from "../../../src/interaction/loop.js";

const CONTINUE = "Please continue.";

function config(over: Partial<InteractionConfig> = {}): InteractionConfig {
  return {
    mode: "auto_user",
    mode_source: "profile",
    max_turns: 12,
    max_turns_source: "profile",
    simulator_prompt: "SIM-PROMPT",
    simulator_prompt_source: "profile",
    decision_patterns: [],
    decision_patterns_cli: [],
    decision_reply: null,
    decision_replies: [],
    continue_prompt: CONTINUE,
    fresh_resume_marker: null,
    ...over,
  };
}

/** One scripted subject turn: its result text, and optionally its outcome and session. */
interface FakeTurn {
  text: string | null;
  outcome?: TurnOutcome;
  session?: string | null;
  throws?: boolean;
}

interface Calls {
  subject: Array<{ prompt: string; resume: string | null; turn: number; ctx: CallContext }>;
  simulator: Array<{ input: string; turn: number; ctx: CallContext }>;
}

async function drive(opts: {
  config?: Partial<InteractionConfig>;
  turns: FakeTurn[];
  sims?: Array<Partial<SimulatorReply> & { throws?: boolean }>;
  deadlineMs?: number;
  /** Clock advance per agent call. */
  step?: number;
  signal?: AbortSignal;
}): Promise<{ rec: InteractionRecord; calls: Calls; log: string[] }> {
  const calls: Calls = { subject: [], simulator: [] };
  const log: string[] = [];
  let clock = 0;
  let sessionCounter = 0;
  let current: string | null = null;
  const rec = await runInteractionLoop({
    config: config(opts.config),
    taskPrompt: "TASK",
    now: () => clock,
    deadlineMs: opts.deadlineMs,
    signal: opts.signal,
    log: (l) => log.push(l),
    subjectTurn: async (prompt, resume, turn, ctx) => {
      calls.subject.push({ prompt, resume, turn, ctx });
      clock += opts.step ?? 0;
      const t = opts.turns[turn - 1];
      if (!t) throw new Error(`no scripted turn ${turn}`);
      if (t.throws) throw new Error("boom");
      if (resume === null) current = `s${++sessionCounter}`;
      const outcome = t.outcome ?? "completed";
      const r: TurnResult = {
        outcome,
        exit_code: outcome === "completed" ? 0 : 1,
        signal: null,
        session_id: t.session === undefined ? current : t.session,
        result_text: t.text,
        is_error: outcome !== "completed",
        lines: 3,
        duration_ms: 10,
        stdout_file: "stdout.jsonl",
        stderr_file: "stderr.txt",
        detail: outcome,
      };
      return r;
    },
    simulate: async (input, turn, ctx) => {
      calls.simulator.push({ input, turn, ctx });
      clock += opts.step ?? 0;
      const s = opts.sims?.[calls.simulator.length - 1] ?? {};
      if (s.throws) throw new Error("sim boom");
      return {
        text: s.text === undefined ? "Sure, go ahead." : s.text,
        session_id: s.session_id === undefined ? `sim${calls.simulator.length}` : s.session_id,
        outcome: s.outcome ?? "completed",
        detail: s.detail ?? "completed",
      };
    },
  });
  // Every turn after the first received exactly one reply, nudge or continue prompt.
  const continues = rec.turns.filter((t) => t.prompt_source === "continue").length;
  expect(rec.deterministic_replies + rec.simulated_replies + rec.nudges + continues).toBe(
    Math.max(0, rec.actual_turns - 1),
  );
  expect(rec.turns).toHaveLength(rec.actual_turns);
  return { rec, calls, log };
}

describe("runInteractionLoop", () => {
  it("runs three turns: a simulated reply, a nudge, then completion", async () => {
    const { rec, calls } = await drive({
      turns: [
        { text: "Which name do you prefer?" },
        { text: "Design written." },
        { text: "Workflow is complete" },
      ],
    });
    expect(rec).toMatchObject({
      mode: "auto_user",
      max_turns: 12,
      actual_turns: 3,
      decision_points: 1,
      deterministic_replies: 0,
      simulated_replies: 1,
      completion_signals: 1,
      nudges: 1,
      fresh_resume_boundaries: 0,
      role_sessions: { subject: ["s1"], simulator: ["sim1"] },
      end_reason: "completed",
    });
    expect(
      rec.turns.map((t) => [
        t.turn,
        t.prompt,
        t.prompt_source,
        t.resumed,
        t.decision,
        t.completion,
      ]),
    ).toEqual([
      [1, "TASK", "task", false, "question", false],
      [2, "Sure, go ahead.", "simulator", true, null, false],
      [3, CONTINUE, "nudge", true, null, true],
    ]);
    expect(calls.subject.map((c) => c.resume)).toEqual([null, "s1", "s1"]);
    expect(calls.simulator).toHaveLength(1);
    expect(calls.simulator[0]?.input).toBe(
      'SIM-PROMPT\n\nAssistant\'s message:\n"""\nWhich name do you prefer?\n"""',
    );
    expect(rec.turns[0]?.simulator).toEqual({
      session_id: "sim1",
      outcome: "completed",
      detail: "completed",
      fallback: false,
    });
  });

  it.each([
    ["nudges only", ["a", "b", "c"], 2],
    ["decisions only", ["a?", "b?", "c?"], 0],
  ])(
    "stops at max_turns (%s) and spends no reply after the last turn",
    async (_n, texts, nudges) => {
      const { rec, calls } = await drive({
        config: { max_turns: 3 },
        turns: texts.map((text) => ({ text })),
      });
      expect(rec.end_reason).toBe("max_turns");
      expect(rec.actual_turns).toBe(3);
      expect(rec.nudges).toBe(nudges);
      expect(calls.subject).toHaveLength(3);
      // the decision point of turn 3 is counted but not answered
      expect(calls.simulator).toHaveLength(nudges === 0 ? 2 : 0);
      expect(rec.decision_points).toBe(nudges === 0 ? 3 : 0);
    },
  );

  it.each([
    ["null", null],
    ["empty", ""],
    ["blank", "  \n "],
  ])("ends on a %s result text", async (_n, text) => {
    const { rec } = await drive({ turns: [{ text: "go on?" }, { text }] });
    expect(rec.end_reason).toBe("empty_result");
    expect(rec.actual_turns).toBe(2);
  });

  it("checks completion before decision", async () => {
    const { rec, calls } = await drive({
      turns: [{ text: "The workflow is complete. Anything else?" }],
    });
    expect(rec.end_reason).toBe("completed");
    expect(rec.decision_points).toBe(0);
    expect(calls.simulator).toHaveLength(0);
  });

  it("does not stop on a negated completion", async () => {
    const { rec } = await drive({
      config: { max_turns: 2 },
      turns: [{ text: "The archive is not complete." }, { text: "x" }],
    });
    expect(rec.end_reason).toBe("max_turns");
    expect(rec.completion_signals).toBe(0);
    expect(rec.turns[0]?.completion).toBe(false);
  });

  it("starts a new session with the continue prompt after a fresh-resume marker, skipping other checks", async () => {
    const { rec, calls } = await drive({
      config: { fresh_resume_marker: "<<FRESH>>" },
      turns: [
        { text: "Paused. <<FRESH>> Workflow is complete?" },
        { text: "Shall we go on?" },
        { text: "archive is complete" },
      ],
    });
    expect(calls.subject.map((c) => [c.prompt, c.resume])).toEqual([
      ["TASK", null],
      [CONTINUE, null],
      ["Sure, go ahead.", "s2"],
    ]);
    expect(rec).toMatchObject({
      fresh_resume_boundaries: 1,
      completion_signals: 1,
      decision_points: 1,
      end_reason: "completed",
      role_sessions: { subject: ["s1", "s2"], simulator: ["sim1"] },
    });
    expect(rec.turns.map((t) => [t.prompt_source, t.resumed, t.fresh_resume])).toEqual([
      ["task", false, true],
      ["continue", false, false],
      ["simulator", true, false],
    ]);
  });

  it("consumes decision_replies in order, then ends when the queue runs out", async () => {
    const { rec, calls } = await drive({
      config: { decision_replies: ["first", "second"], decision_reply: "never" },
      turns: [{ text: "A?" }, { text: "B?" }, { text: "C?" }],
    });
    expect(calls.subject.map((c) => c.prompt)).toEqual(["TASK", "first", "second"]);
    expect(calls.simulator).toHaveLength(0);
    expect(rec).toMatchObject({
      end_reason: "decision_queue_exhausted",
      deterministic_replies: 2,
      decision_points: 3,
      actual_turns: 3,
    });
    expect(rec.turns.map((t) => t.prompt_source)).toEqual([
      "task",
      "decision_reply",
      "decision_reply",
    ]);
  });

  it("uses the fixed decision_reply for every decision point and never the simulator", async () => {
    const { rec, calls } = await drive({
      config: { decision_reply: "yes", max_turns: 3 },
      turns: [{ text: "A?" }, { text: "Please confirm the plan" }, { text: "workflow completed" }],
    });
    expect(calls.subject.map((c) => c.prompt)).toEqual(["TASK", "yes", "yes"]);
    expect(calls.simulator).toHaveLength(0);
    expect(rec).toMatchObject({
      end_reason: "completed",
      deterministic_replies: 2,
      simulated_replies: 0,
    });
    expect(rec.turns.map((t) => t.decision)).toEqual(["question", "request", null]);
  });

  it("counts extra decision patterns only with UNRESOLVED wording", async () => {
    const { rec } = await drive({
      config: { decision_patterns: ["db choice"], max_turns: 3 },
      turns: [{ text: "db choice is blocking." }, { text: "db choice made." }, { text: "x" }],
    });
    expect(rec.turns.map((t) => [t.decision, t.prompt_source])).toEqual([
      ["pattern:db choice", "task"],
      [null, "simulator"],
      [null, "nudge"],
    ]);
  });

  it.each([
    ["null", null],
    ["blank", " \n"],
  ])("falls back to the default reply when the simulator answers %s", async (_n, text) => {
    const { rec, calls } = await drive({
      turns: [{ text: "A?" }, { text: "workflow complete" }],
      sims: [{ text }],
    });
    expect(calls.subject[1]?.prompt).toBe(FALLBACK_REPLY);
    expect(rec.simulated_replies).toBe(1);
    expect(rec.turns[0]?.simulator?.fallback).toBe(true);
    expect(rec.end_reason).toBe("completed");
  });

  it.each([
    ["agent_error", {}, "simulator_error"],
    ["crashed", {}, "simulator_error"],
    ["spawn_error", {}, "simulator_error"],
    ["aborted", {}, "aborted"],
  ] as const)("ends when the simulator fails (%s)", async (outcome, _x, reason) => {
    const { rec } = await drive({
      turns: [{ text: "A?" }, { text: "never" }],
      sims: [{ outcome, text: null }],
    });
    expect(rec.end_reason).toBe(reason);
    expect(rec.actual_turns).toBe(1);
    expect(rec.simulated_replies).toBe(0);
    expect(rec.turns[0]?.simulator?.outcome).toBe(outcome);
  });

  it("turns a throwing simulator into simulator_error", async () => {
    const { rec } = await drive({ turns: [{ text: "A?" }], sims: [{ throws: true }] });
    expect(rec.end_reason).toBe("simulator_error");
    expect(rec.end_detail).toContain("sim boom");
  });

  it.each([
    ["agent_error", "subject_error"],
    ["crashed", "subject_error"],
    ["no_result", "subject_error"],
    ["empty_output", "subject_error"],
    ["spawn_error", "subject_error"],
    ["timeout", "timeout"],
    ["aborted", "aborted"],
  ] as const)("ends when a subject turn fails half-way (%s)", async (outcome, reason) => {
    const { rec } = await drive({ turns: [{ text: "A?" }, { text: "partial", outcome }] });
    expect(rec.end_reason).toBe(reason);
    expect(rec.actual_turns).toBe(2);
    expect(rec.turns[1]).toMatchObject({ outcome, resumed: true, result_text: "partial" });
  });

  it("turns a throwing subject callback into subject_error", async () => {
    const { rec } = await drive({ turns: [{ text: null, throws: true }] });
    expect(rec).toMatchObject({ end_reason: "subject_error", actual_turns: 1 });
    expect(rec.end_detail).toContain("boom");
  });

  it("passes the time left to every call and stops at the deadline", async () => {
    const { rec, calls } = await drive({
      deadlineMs: 250,
      step: 100,
      turns: [{ text: "A?" }, { text: "b" }, { text: "c" }],
    });
    // subject at 0 (left 250), simulator at 100 (150), subject at 200 (50), then 300 >= 250
    expect(calls.subject.map((c) => c.ctx.timeoutMs)).toEqual([250, 50]);
    expect(calls.simulator.map((c) => c.ctx.timeoutMs)).toEqual([150]);
    // the nudge chosen after turn 2 was never delivered
    expect(rec).toMatchObject({
      end_reason: "timeout",
      actual_turns: 2,
      simulated_replies: 1,
      nudges: 0,
    });
  });

  it("passes no limit when there is no deadline", async () => {
    const { calls } = await drive({ turns: [{ text: "done: workflow complete" }] });
    expect(calls.subject[0]?.ctx.timeoutMs).toBeUndefined();
  });

  it.each([
    [50, "timeout"], // the simulator ran into the loop's deadline
    [1000, "simulator_error"], // its own, shorter limit
  ])("a simulator timeout with deadline %i ends as %s", async (deadline, reason) => {
    const { rec } = await drive({
      deadlineMs: deadline,
      step: 40,
      turns: [{ text: "A?" }],
      sims: [{ outcome: "timeout", text: null }],
    });
    expect(rec.end_reason).toBe(reason);
  });

  it("does not start when the signal is already aborted", async () => {
    const ac = new AbortController();
    ac.abort();
    const { rec, calls } = await drive({ signal: ac.signal, turns: [{ text: "x" }] });
    expect(rec).toMatchObject({ end_reason: "aborted", actual_turns: 0, turns: [] });
    expect(calls.subject).toHaveLength(0);
  });

  it("runs one turn in mode none and records what it saw", async () => {
    const { rec, calls } = await drive({
      config: { mode: "none", max_turns: 12 },
      turns: [{ text: "Which one?" }],
    });
    expect(rec).toMatchObject({
      mode: "none",
      max_turns: 12,
      actual_turns: 1,
      end_reason: "single_turn",
      decision_points: 1,
    });
    expect(calls.simulator).toHaveLength(0);
  });

  it("clips prompt and result text to 4000 characters and the simulator context to 3000", async () => {
    const long = `${"x".repeat(5000)}?`;
    const { rec, calls } = await drive({
      turns: [{ text: long }, { text: "workflow complete" }],
      sims: [{ text: "y".repeat(4500) }],
    });
    expect(rec.turns[0]?.result_text).toHaveLength(4000);
    expect(rec.turns[1]?.prompt).toHaveLength(4000);
    expect(calls.subject[1]?.prompt).toHaveLength(4500);
    expect(calls.simulator[0]?.input).toBe(simulatorInput("SIM-PROMPT", "x".repeat(3000)));
  });

  it("logs the original driver lines", async () => {
    const { log } = await drive({ turns: [{ text: "A?" }, { text: "workflow complete" }] });
    expect(log).toEqual([
      "[loop] turn 1/12",
      "[loop] role-session subject s1",
      "[loop] decision point detected (question)",
      "[loop] role-session simulator sim1",
      "[loop] simulated reply (15 chars)",
      "[loop] turn 2/12",
      "[loop] role-session subject s1",
      "[loop] workflow completion detected; ending",
      "[loop] finished after 2 turns (completed)",
    ]);
  });
});
