/**
 * Decision-point and completion detection for the `auto_user` loop. Pure.
 *
 * The patterns are those of the original harness (decision-point.sh and
 * completion-point.sh; stated in docs/interaction.md §3), translated from POSIX ERE
 * with `shopt -s nocasematch` to JavaScript: every regex is case-insensitive
 * and uses the `u` flag; `[[:space:]]` is `\s`, `[[:alnum:]]` is
 * `[\p{L}\p{N}]`, `[[:cntrl:]]` is `\p{Cc}`. A boolean "does it match
 * anywhere" is the same under POSIX leftmost-longest and JS leftmost-first
 * semantics, so the translation is faithful for detection.
 */

const WH = "how|what|which|would|could|can|should|is|are|do|does|will|where|when|who";
const ZH_WH = "是否|怎样|如何|哪个|哪种|要不要";
/** Sentence start: the line start, or after `.`, `!`, `。`, `！` and optional white space. */
const START = "(?:^|[.!。！]\\s*)";

/** The whole text ends with a question mark (ASCII or full-width), then only white space. */
const QUESTION = /[?？]\s*$/iu;

/** Per line: an interrogative word followed by a question, or a Chinese interrogative up to `？`. */
const INTERROGATIVE = new RegExp(`(?:^|\\s)(?:${WH})\\s+[^?？]*[?？]|(?:${ZH_WH})[^？]*？`, "iu");

/** Per line: `Question: how ...`, `**Question:** which ...`, `问题：`-style labels (ASCII colon). */
const LABELLED = new RegExp(`(?:question|问题)[*\\s]*:[*\\s]*(?:whether|${WH}|${ZH_WH})`, "iu");

/** Per line: requests for confirmation, choice or input (the "request" alternatives of docs/interaction.md §3). */
const REQUEST = new RegExp(
  [
    `${START}(?:please\\s+)?(?:confirm|choose|approve|select|provide|enter)\\s`,
    `${START}(?:would you|could you|can you|shall we|do you want|which (?:option|approach|name))`,
    `(?:please\\s+)?(?:reply|respond)[^.!?。！？]*(?:confirm|approve)`,
    `${START}(?:please\\s+)?reply\\s+one\\s+of\\s+`,
    `${START}(?:please\\s+)?reply\\s+[^\\p{L}\\p{N}]*Q[0-9]+:`,
  ].join("|"),
  "iu",
);

/** Whole text: a task's extra decision pattern only counts when the text also says this. */
const UNRESOLVED = new RegExp(
  "(?:^|[^\\p{L}\\p{N}_])(?:unresolved|blocking|need your (?:input|answer|decision|preference)|waiting for your (?:input|answer|decision|preference))(?:[^\\p{L}\\p{N}_]|$)",
  "iu",
);

/** Whole text: a negated completion statement; checked before COMPLETION and wins. */
const NEGATED = new RegExp(
  [
    "(?:archive|workflow|change)(?:\\s+is)?\\s+not\\s+(?:complete|completed|archived)",
    "not\\s+(?:yet\\s+)?(?:complete|completed|archived)",
    "not\\s+completed\\s+through\\s+archive",
    "not\\s+(?:\\S+\\s+){0,3}archived",
  ].join("|"),
  "iu",
);

/** Whole text: an explicit workflow/archive completion statement. */
const COMPLETION = new RegExp(
  [
    "archive(?:d)?(?:\\s+is)?\\s+(?:complete|completed)",
    "change(?:\\s+is)?\\s+archived",
    "native\\s+change[^\\p{Cc}]*archived",
    "archived\\s+(?:at|to)",
    "completed\\s+through\\s+archive",
    "completed\\s+through\\s+all\\s+phases\\s+and\\s+archived",
    "terminal\\s+archived\\s+state",
    "fully\\s+archived",
    "workflow(?:\\s+is)?\\s+(?:complete|completed)",
    "all\\s+(?:5|five)\\s+phases(?:\\s+are)?\\s+(?:complete|completed|recorded)",
  ].join("|"),
  "iu",
);

/**
 * The rule that makes `text` a decision point, as a short string for the report
 * (`question`, `interrogative`, `labelled`, `request`, or `pattern:<extra>`),
 * or null. Rules are tried in the original order: QUESTION on the whole text;
 * then, line by line, INTERROGATIVE, LABELLED, REQUEST; then each non-empty
 * extra pattern, a case-insensitive substring of the text that counts only
 * when the whole text also matches UNRESOLVED.
 */
export function decisionReason(text: string, extraPatterns: readonly string[] = []): string | null {
  if (QUESTION.test(text)) return "question";
  for (const line of text.split("\n")) {
    if (INTERROGATIVE.test(line)) return "interrogative";
    if (LABELLED.test(line)) return "labelled";
    if (REQUEST.test(line)) return "request";
  }
  const lower = text.toLowerCase();
  for (const p of extraPatterns) {
    if (p !== "" && lower.includes(p.toLowerCase()) && UNRESOLVED.test(text)) return `pattern:${p}`;
  }
  return null;
}

export function isDecisionPoint(text: string, extraPatterns: readonly string[] = []): boolean {
  return decisionReason(text, extraPatterns) !== null;
}

/** True when the text states completion and no negation of it (NEGATED is checked first). */
export function isCompletion(text: string): boolean {
  if (NEGATED.test(text)) return false;
  return COMPLETION.test(text);
}
