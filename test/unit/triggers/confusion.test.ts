/** Catalog-wide trigger statistics (src/triggers/confusion.ts): the matrix, per-Skill rates, accuracy. */
import { describe, expect, it } from "vitest";
import {
  chosenLabel,
  confusionMatrix,
  matrixAccuracy,
  skillStats,
  type CatalogObservation,
} from "../../../src/triggers/confusion.js";
import type { ProbeOutcome } from "../../../src/triggers/types.js";

const took = (skill: string): ProbeOutcome => ({ kind: "other", skill, via: "skill_tool" });
const nothing: ProbeOutcome = { kind: "none", why: "turn_ended" };
const invalid: ProbeOutcome = { kind: "invalid", reason: "api_error", detail: "429" };
const obs = (expected: string | null, outcome: ProbeOutcome, n = 1): CatalogObservation[] =>
  Array.from({ length: n }, () => ({ expected, outcome }));

describe("chosenLabel", () => {
  it.each<[ProbeOutcome, string | null]>([
    [took("a"), "a"],
    [nothing, "none"],
    [{ kind: "none", why: "turn_budget" }, "none"],
    [invalid, null],
    [{ kind: "target", via: "skill_tool" }, "t"],
  ])("%j → %s", (o, want) => {
    expect(chosenLabel(o, "t")).toBe(want);
  });
});

describe("confusionMatrix and skillStats", () => {
  // a: 3 probes of its queries, 2 chose a, 1 chose b; b: 2 probes, 1 b, 1 none; c: 1 probe chose
  // decoy d; none: 3 probes, 1 chose a, 2 none; plus 2 invalid probes (in no cell).
  const m = confusionMatrix(
    ["a", "b", "c"],
    [
      ...obs("a", took("a"), 2),
      ...obs("a", took("b")),
      ...obs("b", took("b")),
      ...obs("b", nothing),
      ...obs("c", took("d")),
      ...obs(null, took("a")),
      ...obs(null, nothing, 2),
      ...obs("c", invalid),
      ...obs(null, invalid),
    ],
  );

  it("has a row per Skill and none, a column per Skill, every other Skill chosen, and none", () => {
    expect(m.rows).toEqual(["a", "b", "c", "none"]);
    expect(m.columns).toEqual(["a", "b", "c", "d", "none"]);
    expect(m.cells).toEqual([
      [2, 1, 0, 0, 0],
      [0, 1, 0, 0, 1],
      [0, 0, 0, 1, 0],
      [1, 0, 0, 0, 2],
    ]);
    expect(m.invalid).toBe(2);
  });

  it("reads precision (column) and recall (row) of each Skill, with Wilson intervals", () => {
    const s = Object.fromEntries(skillStats(m, ["a", "b", "c"]).map((x) => [x.skill, x]));
    expect(s.a).toMatchObject({ tp: 2, fn: 1, fp: 1 });
    expect(s.a?.precision).toMatchObject({ value: 2 / 3, count: 2, of: 3 });
    expect(s.a?.recall).toMatchObject({ value: 2 / 3, count: 2, of: 3 });
    expect(s.a?.f1).toBeCloseTo(2 / 3, 12);
    // Wilson 95% of 2/3 (z = 1.96), by hand.
    expect(s.a?.precision.ci?.low).toBeCloseTo(0.2077, 3);
    expect(s.a?.precision.ci?.high).toBeCloseTo(0.9385, 3);
    expect(s.b).toMatchObject({ tp: 1, fn: 1, fp: 1 });
    expect(s.b?.precision).toMatchObject({ value: 0.5, count: 1, of: 2 });
    expect(s.b?.recall).toMatchObject({ value: 0.5, count: 1, of: 2 });
    // c never chosen: precision has nothing to count; recall 0/1.
    expect(s.c?.precision).toMatchObject({ value: null, ci: null, count: 0, of: 0 });
    expect(s.c?.recall).toMatchObject({ value: 0, count: 0, of: 1 });
    expect(s.c?.f1).toBeNull();
  });

  it("counts the diagonal (none for should-not-trigger queries) as accuracy", () => {
    expect(matrixAccuracy(m)).toMatchObject({ value: 5 / 9, count: 5, of: 9 });
  });

  it("an empty catalog run has empty cells and no rates", () => {
    const e = confusionMatrix(["a"], []);
    expect(e.cells).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(matrixAccuracy(e).value).toBeNull();
    expect(skillStats(e, ["a"])[0]?.recall.value).toBeNull();
  });
});
