/** The description optimiser's pure parts (src/triggers/optimise/plan.ts): split, scores, choice, proposal. */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  bestOnTrain,
  chooseKept,
  parseProposal,
  proposalPrompt,
  scoreOn,
  splitQueries,
  trainFailures,
  type SplitScore,
} from "../../../src/triggers/optimise/plan.js";
import type { ProbeOutcome, ProbeRecord, TriggerQuery } from "../../../src/triggers/types.js";

const q = (id: string, should: boolean): TriggerQuery => ({
  id,
  query: `query ${id}`,
  should_trigger: should,
});
const QUERIES = [
  q("p1", true),
  q("p2", true),
  q("p3", true),
  q("n1", false),
  q("n2", false),
  q("n3", false),
];
const rec = (variant: string, id: string, outcome: ProbeOutcome): ProbeRecord => ({
  schema: "skillbench.trigger-probe.v1",
  probe_id: `${variant}/${id}/r1`,
  variant,
  query_id: id,
  rep: 1,
  attempts: [
    {
      attempt: 1,
      outcome,
      agent_outcome: "completed",
      stopped_early: false,
      duration_ms: 1,
      detail: "",
    },
  ],
  outcome,
});
const hit: ProbeOutcome = { kind: "target", via: "skill_tool" };
const miss: ProbeOutcome = { kind: "none", why: "turn_ended" };
const bad: ProbeOutcome = { kind: "invalid", reason: "timeout", detail: "" };
const s = (accuracy: number | null): SplitScore => ({
  accuracy,
  correct: 0,
  answered: 0,
  invalid: 0,
});

describe("splitQueries", () => {
  it("splits each kind once, by a seeded hash, 40% held out, in file order", () => {
    expect(splitQueries(QUERIES)).toEqual({
      train: ["p1", "p3", "n2", "n3"],
      held_out: ["p2", "n1"],
    });
    // Deterministic: the same queries split alike; another seed may split them otherwise.
    const reversed = splitQueries([...QUERIES].reverse());
    expect([reversed.train.sort(), reversed.held_out.sort()]).toEqual([
      ["n2", "n3", "p1", "p3"],
      ["n1", "p2"],
    ]);
    const other = splitQueries(QUERIES, 7);
    expect(other.train.length + other.held_out.length).toBe(6);
  });

  it.each([
    [
      [q("p1", true), q("n1", false), q("n2", false)],
      /at least 2 should-trigger queries \(there are 1\)/,
    ],
    [[q("p1", true), q("p2", true), q("n1", false)], /at least 2 should-not-trigger queries/],
  ])("refuses a set without two of each kind (%#)", (qs, msg) => {
    expect(() => splitQueries(qs)).toThrow(InputError);
    expect(() => splitQueries(qs)).toThrow(msg);
  });
});

describe("scoreOn and trainFailures", () => {
  const records = [
    rec("r0", "p1", hit),
    rec("r0", "p3", miss),
    rec("r0", "n2", { kind: "other", skill: "x", via: "skill_tool" }),
    rec("r0", "n3", hit),
    rec("r0", "p2", bad),
    rec("r1", "p1", miss),
  ];
  it("counts answered probes of the split and the variant; invalid ones apart", () => {
    expect(scoreOn(["p1", "p3", "n2", "n3"], QUERIES, records, "r0")).toEqual({
      accuracy: 0.5,
      correct: 2,
      answered: 4,
      invalid: 0,
    });
    expect(scoreOn(["p2", "n1"], QUERIES, records, "r0")).toEqual({
      accuracy: null,
      correct: 0,
      answered: 0,
      invalid: 1,
    });
  });
  it("lists the train queries got wrong, never a held-out one", () => {
    expect(trainFailures(["p1", "p3", "n2", "n3"], QUERIES, records, "r0")).toEqual([
      { query: "query p3", should_trigger: true, got: "no Skill was used" },
      { query: "query n3", should_trigger: false, got: "the Skill was used" },
    ]);
    const prompt = proposalPrompt({
      skill: "s",
      skillText: "---\nname: s\n---\nbody",
      description: "d",
      failures: trainFailures(["p3"], QUERIES, records, "r0"),
      others: [],
    });
    expect(prompt).toContain('"query p3": should use the Skill, but no Skill was used.');
    expect(prompt).not.toContain("query p2");
  });
});

describe("bestOnTrain and chooseKept", () => {
  it.each<[string, [number | null, number | null][], number, number]>([
    [
      "round 1 wins on train only: round 0 kept",
      [
        [0.75, 1],
        [1, 0.5],
      ],
      1,
      0,
    ],
    [
      "round 1 wins on both",
      [
        [0.5, 0.5],
        [1, 1],
      ],
      1,
      1,
    ],
    [
      "a tie keeps the earlier round",
      [
        [0.5, 1],
        [0.5, 1],
      ],
      0,
      0,
    ],
    [
      "an unscored round never wins",
      [
        [0, 0],
        [null, null],
      ],
      0,
      0,
    ],
    [
      "the best of three on held-out",
      [
        [0.5, 0.5],
        [1, 0.5],
        [0.75, 1],
      ],
      1,
      2,
    ],
  ])("%s", (_, scores, train, kept) => {
    const rounds = scores.map(([t, h]) => ({ train: s(t), held_out: s(h) }));
    expect(bestOnTrain(rounds)).toBe(train);
    expect(chooseKept(rounds)).toBe(kept);
  });
});

describe("parseProposal", () => {
  it.each<[string, string | RegExp]>([
    ["<description>Write  changelog\nentries.</description>", "Write changelog entries."],
    ["Sure: <DESCRIPTION>x</DESCRIPTION> done", "x"],
    ["plain text answer", "plain text answer"],
    ["<description>  </description>", /empty/],
    [`<description>${"a".repeat(1025)}</description>`, /1025 characters, over 1024/],
  ])("%j", (answer, want) => {
    if (typeof want === "string") expect(parseProposal(answer)).toBe(want);
    else expect(() => parseProposal(answer)).toThrow(want);
  });
});
