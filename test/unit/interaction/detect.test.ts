import { describe, expect, it } from "vitest";
import { decisionReason, isCompletion, isDecisionPoint } from "../../../src/interaction/detect.js";

/** [text, extra patterns, expected reason] */
const DECISIONS: Array<[string, string[], string | null]> = [
  // QUESTION: the whole text ends with ? or ？ (then only white space)
  ["Shall I go on?", [], "question"],
  ["继续吗？", [], "question"],
  ["Ready?  \n\n", [], "question"],
  ["Ready?\t \u3000", [], "question"],
  ["Is it done? I finished it.", [], "interrogative"],
  ["Why? Because.", [], null],
  ["It works?!", [], null],
  // INTERROGATIVE, every interrogative word, at the line start or after white space
  ...[
    "how",
    "what",
    "which",
    "would",
    "could",
    "can",
    "should",
    "is",
    "are",
    "do",
    "does",
    "will",
    "where",
    "when",
    "who",
  ].map((w): [string, string[], string | null] => [
    `Summary line.\n${w} x y? next steps follow.\nDone.`,
    [],
    "interrogative",
  ]),
  ["Status: WHICH one fits? (see below)\nend", [], "interrogative"],
  ["I wonder\twhat you think? ok.", [], "interrogative"],
  ["Ask: what?", [], "question"],
  ["Ask: what? fine.", [], null], // no white space between the word and the question mark
  ["Somehow this? fine.", [], null], // "how" inside a word
  ["what is this\n? fine.", [], null], // per line: the question mark is on another line
  ["Is this right. It ends here.", [], null],
  // Chinese interrogatives, up to a full-width ？ on the same line
  ...["是否", "怎样", "如何", "哪个", "哪种", "要不要"].map(
    (w): [string, string[], string | null] => [`说明。${w}继续？好的。`, [], "interrogative"],
  ),
  ["是否继续? 好的。", [], null], // ASCII ? does not close a Chinese question
  ["是否继续\n？ 好的。", [], null],
  // LABELLED
  ["Question: whether to use SQLite.", [], "labelled"],
  ["**Question:** which database to use.", [], "labelled"],
  ["QUESTION :  How to name it.", [], "labelled"],
  ["问题:是否需要测试。", [], "labelled"],
  ["问题 : 哪种方案。", [], "labelled"],
  ["Question: none left.", [], null],
  ["问题：是否需要测试。", [], null], // full-width colon is not in the pattern
  ["Question\n: how", [], null],
  // REQUEST alternative 1: confirm|choose|approve|select|provide|enter, at a sentence start, then white space
  ...["confirm", "choose", "approve", "select", "provide", "enter"].map(
    (w): [string, string[], string | null] => [`${w} the plan`, [], "request"],
  ),
  ["Done. Please confirm the plan", [], "request"],
  ["Done!please   approve it", [], "request"],
  ["完成。Select one", [], "request"],
  ["完成！ Provide a name", [], "request"],
  ["I will confirm the plan", [], null], // not at a sentence start
  ["Confirmed the plan", [], null],
  ["Please confirm", [], null], // needs white space after the verb
  // REQUEST alternative 2: would you|could you|can you|shall we|do you want|which option/approach/name
  ...[
    "would you",
    "could you",
    "can you",
    "shall we",
    "do you want",
    "which option",
    "which approach",
    "which name",
  ].map((w): [string, string[], string | null] => [`Plan ready. ${w} x`, [], "request"]),
  ["Shall we", [], "request"],
  ["I know which option wins", [], null],
  ["Tell me what you would you like", [], null],
  // REQUEST alternative 3: reply|respond ... confirm|approve within one sentence
  ["Please reply to confirm", [], "request"],
  ["Kindly respond and approve the design", [], "request"],
  ["Reply here; we confirm later", [], "request"],
  ["Reply here. We confirm later", [], null],
  ["Respond。we confirm later", [], null],
  // REQUEST alternative 4: reply one of
  ["Please reply one of A, B", [], "request"],
  ["Please reply one of: A, B", [], null], // white space must follow "of",
  ["Done. reply  one  of these", [], "request"],
  ["I reply one of these", [], null],
  // REQUEST alternative 5: reply [non-alnum]* Q<n>:
  ["Reply Q1: yes", [], "request"],
  ['Please reply "q12: no"', [], "request"],
  ["Done.  reply -- Q3:", [], "request"],
  ["Reply with Q1: yes", [], null],
  ["Reply Q: yes", [], null],
  // Extra patterns: substring (case-insensitive) AND UNRESOLVED on the whole text
  ["DB CHOICE pending; this is blocking.", ["db choice"], "pattern:db choice"],
  ["db choice\nStill unresolved", ["DB Choice"], "pattern:DB Choice"],
  ["db choice: I need your input", ["db choice"], "pattern:db choice"],
  ["db choice: I need your answer", ["db choice"], "pattern:db choice"],
  ["db choice: need your decision.", ["db choice"], "pattern:db choice"],
  ["db choice: need your preference", ["db choice"], "pattern:db choice"],
  ["db choice, waiting for your input", ["db choice"], "pattern:db choice"],
  ["db choice, waiting for your answer", ["db choice"], "pattern:db choice"],
  ["db choice, waiting for your decision", ["db choice"], "pattern:db choice"],
  ["db choice, waiting for your preference", ["db choice"], "pattern:db choice"],
  ["数据库：unresolved", ["数据库"], "pattern:数据库"],
  ["db choice made.", ["db choice"], null], // no UNRESOLVED wording
  ["db choice: nonblocking", ["db choice"], null], // UNRESOLVED needs a word boundary
  ["db choice: blocking_issue", ["db choice"], null],
  ["db choice: 未unresolved", ["db choice"], null], // a CJK letter is alnum
  ["this is blocking", ["db choice"], null], // pattern absent
  ["this is blocking", [""], null], // empty patterns never count
  ["all good", [], null],
  ["", [], null],
];

describe("decision-point detection (docs/interaction.md §3)", () => {
  it.each(DECISIONS)("%j with %j -> %s", (text, extra, reason) => {
    expect(decisionReason(text, extra)).toBe(reason);
    expect(isDecisionPoint(text, extra)).toBe(reason !== null);
  });
});

const COMPLETIONS: Array<[string, boolean]> = [
  // COMPLETION, every alternative
  ["The archive is complete.", true],
  ["Archived completed", true],
  ["archive  completed", true],
  ["The change is archived.", true],
  ["Change archived", true],
  ["Native change foo-bar was archived", true],
  ["native change x\narchived", false], // a control character (newline) in between
  ["Archived at openspec/changes/archive/x", true],
  ["archived to docs/", true],
  ["Completed through archive", true],
  ["Completed through all phases and archived", true],
  ["Now in the terminal archived state", true],
  ["It is fully archived", true],
  ["Workflow is complete", true],
  ["WORKFLOW COMPLETED!", true],
  ["All 5 phases complete", true],
  ["all five phases are completed", true],
  ["All 5 phases recorded", true],
  ["工作流完成", false],
  ["The workflow is incomplete", false],
  ["Phase 2 complete", false],
  ["archiving now", false],
  ["", false],
  // NEGATED wins over COMPLETION
  ["archive is not complete", false],
  ["Workflow not completed; archive is complete", false],
  ["change is not archived", false],
  ["not yet archived", false],
  ["Archived to x but workflow not yet complete", false],
  ["not completed through archive", false],
  ["not  x y archived", false],
  ["change was not a b c archived; archived at x", false],
  // NEGATED needs its words: these are not negations
  ["change was not a b c d archived; archived at x", true], // more than 3 words in between
  ["nothing archived? no: archived at x", true], // "nothing" is not "not" followed by white space
  ["Notably, the workflow is complete", true],
];

describe("completion detection (docs/interaction.md §3)", () => {
  it.each(COMPLETIONS)("%j -> %s", (text, complete) => {
    expect(isCompletion(text)).toBe(complete);
  });
});
