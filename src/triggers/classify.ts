/**
 * A probe's outcome from what its agent did (docs/triggers.md, "Outcomes"). Pure.
 *
 * A Skill chosen is an answer whatever happened after it (the probe stops there). Without a
 * choice, only a turn that ended normally, or that ran out of its turn budget, says "nothing
 * triggered"; an API error, a timeout or a crash says nothing about triggering and is invalid.
 */
import type { SkillDecision, TurnOutcome } from "../agents/index.js";
import type { ProbeOutcome } from "./types.js";

export interface ProbeEvidence {
  decision: SkillDecision | null;
  /** How the agent process ended (the driver's word). */
  agentOutcome: TurnOutcome;
  /** The result event's subtype, when there was one. */
  resultSubtype: string | null;
  /** The probe stopped the agent once its tool-call budget was spent (agents without a turn flag). */
  budgetSpent?: boolean;
  detail: string;
}

export function classifyProbe(e: ProbeEvidence, target: string): ProbeOutcome {
  if (e.decision) {
    return e.decision.skill === target
      ? { kind: "target", via: e.decision.via }
      : { kind: "other", skill: e.decision.skill, via: e.decision.via };
  }
  if (e.budgetSpent) return { kind: "none", why: "turn_budget" };
  switch (e.agentOutcome) {
    case "completed":
      return { kind: "none", why: "turn_ended" };
    case "agent_error":
      if (e.resultSubtype === "error_max_turns") return { kind: "none", why: "turn_budget" };
      return { kind: "invalid", reason: "api_error", detail: e.detail };
    case "timeout":
      return { kind: "invalid", reason: "timeout", detail: e.detail };
    case "aborted":
      return { kind: "invalid", reason: "harness_error", detail: e.detail };
    case "spawn_error":
      return { kind: "invalid", reason: "harness_error", detail: e.detail };
    case "crashed":
    case "no_result":
    case "empty_output":
      return { kind: "invalid", reason: "crash", detail: e.detail };
  }
}

/** The outcome in one word, for tables and progress lines. */
export function outcomeLabel(o: ProbeOutcome): string {
  switch (o.kind) {
    case "target":
      return "triggered";
    case "other":
      return `other:${o.skill}`;
    case "none":
      return o.why === "turn_budget" ? "nothing (turn budget)" : "nothing";
    case "invalid":
      return `invalid:${o.reason}`;
  }
}
