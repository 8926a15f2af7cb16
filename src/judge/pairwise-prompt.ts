/** The pairwise judge's prompt and the parsing of its answer (docs/judge.md, "Pairwise"). Pure. */
import { z } from "zod";
import type { Preference } from "../core/pairwise.js";
import { jsonCandidates } from "./parse.js";

const MAX_INSTRUCTION_CHARS = 4000;
const MAX_ANSWER_CHARS = 4000;

/** What the judge sees of one run: its final workspace (the judge dump) and its final answer. */
export interface PairSide {
  workspaceDump: string;
  finalAnswer: string | null;
}

/** The rule every judge prompt states (docs/judge.md, "Ties are ties"). */
export const TIES_RULE =
  "Ties are ties: when both outputs meet every criterion, they are equal. Never prefer an output for being longer, more detailed or more verbose than needed.";

function side(label: string, s: PairSide): string[] {
  const answer = s.finalAnswer?.trim() ? s.finalAnswer.slice(0, MAX_ANSWER_CHARS) : "(none)";
  return [
    `=== Output ${label}: workspace ===`,
    s.workspaceDump,
    `=== Output ${label}: final answer ===`,
    answer,
    `=== End of output ${label} ===`,
  ];
}

const PAIRWISE_FORMAT = [
  "Answer with ONLY one fenced JSON block, exactly in this form:",
  "```json",
  '{"preferred": "A", "reason": "..."}',
  "```",
  '`preferred` is "A", "B" or "tie"; the reason cites the artifacts in at most 25 words.',
  "If you cannot produce JSON, output instead EXACTLY one line:",
  "[PAIRWISE] preferred: <A|B|tie> - <reason>",
].join("\n");

/** Two runs of one task, A and B, compared against the task's instruction and criteria. */
export function buildPairwisePrompt(i: {
  instruction: string | null;
  rubricCriteria: readonly string[];
  a: PairSide;
  b: PairSide;
}): string {
  const parts = [
    "You are an impartial judge comparing two AI agents' executions of the same task.",
    "Decide which output, A or B, better completes the task: requirements met, artifacts correct, instructions and constraints followed.",
    TIES_RULE,
    "The order of the outputs is arbitrary and says nothing about their quality.",
  ];
  if (i.rubricCriteria.length > 0) {
    parts.push("", "Task-specific criteria:");
    for (const c of i.rubricCriteria) parts.push(`- ${c}`);
  }
  if (i.instruction)
    parts.push(
      "",
      "Task instruction given to both agents:",
      i.instruction.slice(0, MAX_INSTRUCTION_CHARS),
    );
  parts.push("", ...side("A", i.a), "", ...side("B", i.b), "", PAIRWISE_FORMAT);
  return parts.join("\n");
}

/** The repair turn: the prompt, the bad answer, the format again. */
export function buildPairwiseRepairPrompt(prompt: string, bad: string): string {
  return [
    prompt,
    "",
    "=== Your previous answer ===",
    bad.slice(0, 2000),
    "=== End of previous answer ===",
    "",
    "Your previous answer could not be parsed. Answer again, following the required format exactly.",
    PAIRWISE_FORMAT,
  ].join("\n");
}

const AnswerSchema = z.object({ preferred: z.string(), reason: z.string().optional() });
const LINE_RE = /\[PAIRWISE\]\s+preferred:\s*(A|B|tie)\b\s*(?:-\s*(.*))?/i;

function preference(v: string): Preference | null {
  const t = v.trim().toLowerCase();
  if (t === "a") return "A";
  if (t === "b") return "B";
  if (t === "tie" || t === "equal") return "tie";
  return null;
}

export type ParsedPreference =
  { ok: true; preferred: Preference; reason: string } | { ok: false; reason: string };

/** A JSON block first, then the `[PAIRWISE]` line. */
export function parsePairwiseAnswer(text: string): ParsedPreference {
  for (const cand of jsonCandidates(text)) {
    let raw: unknown;
    try {
      raw = JSON.parse(cand);
    } catch {
      continue;
    }
    const v = AnswerSchema.safeParse(raw);
    const p = v.success ? preference(v.data.preferred) : null;
    if (v.success && p !== null) return { ok: true, preferred: p, reason: v.data.reason ?? "" };
  }
  const m = LINE_RE.exec(text);
  const p = m ? preference(m[1] ?? "") : null;
  if (m && p !== null) return { ok: true, preferred: p, reason: (m[2] ?? "").trim() };
  const head = text.replace(/\s+/g, " ").trim().slice(0, 120);
  return {
    ok: false,
    reason: `no parseable preference (expected {"preferred": "A"|"B"|"tie"} or a [PAIRWISE] line)${head ? `; answer began: ${JSON.stringify(head)}` : "; the answer was empty"}`,
  };
}
