/**
 * The report stage's linear groupings must order runs exactly as the indexOf-based sorts
 * they replace, and `int` must print what `toLocaleString("en-US")` prints.
 */
import { describe, expect, it } from "vitest";
import { int } from "../../../src/report/format.js";
import { groupBy, RowsByKeys, sortByRep, sortRuns } from "../../../src/plan/group.js";

interface Run {
  id: number;
  task: string;
  treatment: string;
  rep: number;
}

/** A small deterministic generator, so a failure reproduces. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function runs(n: number, seed: number): Run[] {
  const rnd = lcg(seed);
  return Array.from({ length: n }, (_, id) => ({
    id,
    task: `t${Math.floor(rnd() * 7)}`,
    treatment: ["A", "B", "C", "X"][Math.floor(rnd() * 4)] as string,
    rep: 1 + Math.floor(rnd() * 5),
  }));
}

describe("sortRuns", () => {
  it.each([0, 1, 2, 3, 4, 5])("equals the stable indexOf sort (seed %i)", (seed) => {
    const rs = runs(300, seed);
    const tasks = [...new Set(rs.map((r) => r.task))];
    // "X" is not listed (indexOf -1: first); "B" is listed twice (its first position counts)
    const treatments = ["B", "A", "C", "B"];
    const want = [...rs].sort(
      (a, b) =>
        tasks.indexOf(a.task) - tasks.indexOf(b.task) ||
        treatments.indexOf(a.treatment) - treatments.indexOf(b.treatment) ||
        a.rep - b.rep,
    );
    expect(sortRuns(rs, tasks, treatments).map((r) => r.id)).toEqual(want.map((r) => r.id));
  });

  it("sortByRep keeps equal reps in their order", () => {
    const rs = [
      { rep: 2, id: 0 },
      { rep: 1, id: 1 },
      { rep: 2, id: 2 },
      { rep: 1, id: 3 },
    ];
    expect(sortByRep(rs).map((r) => r.id)).toEqual([1, 3, 0, 2]);
  });

  it("groupBy keeps first-seen group order and run order", () => {
    const g = groupBy(["b1", "a1", "b2", "c1", "a2"], (s) => s.slice(0, 1));
    expect([...g.entries()]).toEqual([
      ["b", ["b1", "b2"]],
      ["a", ["a1", "a2"]],
      ["c", ["c1"]],
    ]);
  });
});

describe("RowsByKeys", () => {
  it("gives one row per key triple, in first-asked order, as a Map keyed by the triple's text does", () => {
    const rs = runs(500, 11);
    const got = new RowsByKeys<{ key: string; ids: number[] }>();
    const want = new Map<string, { key: string; ids: number[] }>();
    for (const r of rs) {
      const third = String(r.rep % 3);
      const key = JSON.stringify([r.task, r.treatment, third]);
      got.get(r.task, r.treatment, third, () => ({ key, ids: [] })).ids.push(r.id);
      let w = want.get(key);
      if (!w) want.set(key, (w = { key, ids: [] }));
      w.ids.push(r.id);
    }
    expect(got.rows).toEqual([...want.values()]);
    // keys that would collide if joined into one text stay apart
    const split = new RowsByKeys<string>();
    split.get("a", "b c", "d", () => "first");
    expect(split.get("a b", "c", "d", () => "second")).toBe("second");
    expect(split.get("a", "b c", "d", () => "again")).toBe("first");
    expect(split.rows).toEqual(["first", "second"]);
  });
});

describe("int", () => {
  it("prints what toLocaleString('en-US') prints", () => {
    const xs = [0, -0, 0.4, -0.4, 0.5, -0.5, 7, -7, 999, 1000, -1000, 123456, 1234567, -1234567];
    xs.push(2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, NaN, Infinity, -Infinity, 12345678.5);
    const rnd = lcg(7);
    for (let i = 0; i < 2000; i++) xs.push((rnd() - 0.3) * 10 ** (rnd() * 16));
    for (const x of xs) expect(int(x)).toBe(Math.round(x).toLocaleString("en-US"));
    expect(int(null)).toBe("—");
    expect(int(undefined)).toBe("—");
  });
});
