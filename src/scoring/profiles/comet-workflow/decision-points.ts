import type { WorkflowKind } from "./context.js";
import type { DimensionEvaluation, ScoringInput } from "../../types.js";

/** Tool names that ask the user a question (docs/rubrics.md, decision_point_compliance). */
const ASK_TOOL_NAMES: readonly string[] = ["AskUserQuestion", "ask_user", "AskFollowUpQuestion"];

/** Decision-bearing Comet state mutations per workflow kind (docs/rubrics.md, decision_point_compliance). */
const DECISION_MUTATION_RES: Record<"full" | "preset", readonly RegExp[]> = {
  full: [
    /transition\s+\S+\s+(?:open-complete|design-complete|build-complete|verify-pass|verify-fail|preset-escalate)/g,
    /set\s+\S+\s+(?:build_mode|isolation|tdd_mode|review_mode|build_pause)\s/g,
  ],
  preset: [/transition\s+\S+\s+(?:verify-fail|preset-escalate|archive-reopen)/g],
};

export interface AskCount {
  /** Ask-type tool calls. */
  tools: number;
  /** Replies from the user side: deterministic + simulated (or the turn-count fallback). */
  replies: number;
  total: number;
}

/**
 * How often the subject asked the user. Fixes a weak point of the original, where plain-text questions did not count:
 * asks = ask-type tool calls + replies the user side gave in the loop (deterministic
 * `decision_reply(ies)` + simulated replies, each one answering a detected decision point).
 * When the runner passed no reply counts, a multi-turn run (auto_user/interactive) falls back to
 * actual_turns − 1 (every later turn answered something); single-turn runs have 0 replies.
 */
export function countAsks(input: ScoringInput): AskCount {
  const tools = input.evidence.tool_calls.filter((c) => ASK_TOOL_NAMES.includes(c.name)).length;
  const i = input.interaction;
  let replies = 0;
  if (input.reply_counts_known) replies = i.deterministic_replies + i.simulated_replies;
  else if (i.mode !== "none") replies = Math.max(0, (i.actual_turns ?? 1) - 1);
  return { tools, replies, total: tools + replies };
}

function countDecisionMutations(commands: readonly string[], workflow: WorkflowKind): number {
  const text = commands.join("\n");
  const res = DECISION_MUTATION_RES[workflow === "full" ? "full" : "preset"];
  return res.reduce((n, re) => n + [...text.matchAll(new RegExp(re.source, "g"))].length, 0);
}

/**
 * decision_point_compliance outside SDK mode: did the subject stop for the user at least once
 * per two decision mutations? No commands → 0.0; no mutations → 1.0 (neutral); else one check
 * asks/mutations ≥ 0.5.
 */
export function decisionPointCompliance(
  input: ScoringInput,
  workflow: WorkflowKind,
): DimensionEvaluation {
  const commands = input.evidence.commands_run;
  if (commands.length === 0) return { checks: [], score: 0, reason: "no commands captured" };
  const m = countDecisionMutations(commands, workflow);
  if (m === 0) {
    return {
      checks: [{ name: "no decision mutations", passed: true }],
      reason: `no ${workflow} decision mutations observed`,
    };
  }
  const a = countAsks(input);
  const ratio = a.total / m;
  return {
    checks: [{ name: "asks/mutations >= 0.5", passed: ratio >= 0.5 }],
    reason: `workflow=${workflow} ${a.total} asks (${a.tools} tool, ${a.replies} replies) for ${m} mutations (ratio=${ratio.toFixed(2)})`,
  };
}
