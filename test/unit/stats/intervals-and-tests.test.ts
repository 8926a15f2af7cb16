import { describe, expect, it } from "vitest";
import { mcnemarExact, signTest } from "../../../src/stats/binomial-tests.js";
import { flipRate, mean, stdev } from "../../../src/stats/descriptive.js";
import { normalQuantile, Z95 } from "../../../src/stats/normal.js";
import { repsNeeded } from "../../../src/stats/power.js";
import { wilsonInterval } from "../../../src/stats/wilson.js";

// Reference values: scipy.stats.norm.ppf, scipy.stats.binomtest(...).pvalue and the
// Wilson formula evaluated in Python.
describe("wilsonInterval", () => {
  it.each([
    [8, 10, 0.4901624715366418, 0.9433178485456248],
    [0, 10, 0, 0.2775327998628892],
    [10, 10, 0.7224672001371107, 1],
    [1, 2, 0.09453120573423074, 0.9054687942657693],
    [50, 100, 0.4038315303659956, 0.5961684696340044],
    [2, 3, 0.20765960080204765, 0.9385080552796037],
    [0, 1, 0, 0.7934506856227626],
  ])("c=%i n=%i -> [%f, %f]", (c, n, low, high) => {
    const iv = wilsonInterval(c, n);
    expect(iv?.low).toBeCloseTo(low, 9);
    expect(iv?.high).toBeCloseTo(high, 9);
  });

  it("n=0 -> null", () => expect(wilsonInterval(0, 0)).toBeNull());
  it("a smaller z gives a narrower interval", () => {
    const wide = wilsonInterval(8, 10);
    const narrow = wilsonInterval(8, 10, 1);
    expect((narrow?.high ?? 0) - (narrow?.low ?? 0)).toBeLessThan(
      (wide?.high ?? 0) - (wide?.low ?? 0),
    );
  });
  it("c > n throws", () => expect(() => wilsonInterval(3, 2)).toThrow(RangeError));
});

describe("normalQuantile", () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.8, 0.8416212335729143],
    [0.995, 2.5758293035489004],
    [0.5, 0],
    [0.001, -3.090232306167813],
    [0.02, -2.053748910631823],
    [0.99999, 4.264890793922602],
  ])("p=%f -> %f", (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 7);
  });
  it("Z95 matches", () => expect(normalQuantile(0.975)).toBeCloseTo(Z95, 8));
  it.each([0, 1, -0.1, Number.NaN])("p=%f throws", (p) =>
    expect(() => normalQuantile(p)).toThrow(RangeError),
  );
});

describe("mcnemarExact / signTest", () => {
  it.each([
    [0, 0, 1],
    [1, 0, 1],
    [0, 5, 0.0625],
    [2, 8, 0.109375],
    [8, 2, 0.109375],
    [0, 6, 0.03125],
    [3, 3, 1],
    [1, 9, 0.021484375],
    [10, 20, 0.09873714670538905],
    [500, 560, 0.06990955946026937],
  ])("b=%i c=%i -> p=%f", (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 10);
    expect(signTest(b, c)).toBeCloseTo(p, 10);
  });
  it("large n stays finite and tiny", () => {
    const p = mcnemarExact(0, 3000);
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThan(1e-300);
  });
  it("negative counts throw", () => expect(() => signTest(-1, 2)).toThrow(RangeError));
});

describe("repsNeeded", () => {
  it.each([
    [0.5, 0.7, 0.05, 0.8, 93],
    [0.7, 0.5, 0.05, 0.8, 93],
    [0.5, 0.6, 0.05, 0.8, 388],
    [0.2, 0.8, 0.05, 0.8, 10],
    [0, 1, 0.05, 0.8, 2],
    [0.9, 0.95, 0.05, 0.8, 435],
    [0.3, 0.5, 0.01, 0.9, 177],
  ])("p1=%f p2=%f alpha=%f power=%f -> %i", (p1, p2, alpha, power, n) => {
    expect(repsNeeded(p1, p2, alpha, power)).toBe(n);
  });
  it("defaults are alpha 0.05, power 0.8", () => expect(repsNeeded(0.5, 0.7)).toBe(93));
  it("p1 == p2 -> null", () => expect(repsNeeded(0.4, 0.4)).toBeNull());
  it.each([
    [1.2, 0.5, 0.05, 0.8],
    [0.5, 0.6, 0, 0.8],
    [0.5, 0.6, 0.05, 1],
  ])("out-of-range %f %f %f %f throws", (p1, p2, a, pw) => {
    expect(() => repsNeeded(p1, p2, a, pw)).toThrow(RangeError);
  });
});

describe("mean / stdev", () => {
  it.each<[number[], number | null, number | null]>([
    [[], null, null],
    [[5], 5, null],
    [[1, 2, 3, 4], 2.5, 1.2909944487358056],
    [[2, 4, 4, 4, 5, 5, 7, 9], 5, 2.138089935299395],
    [[1, 1, 1], 1, 0],
  ])("%j -> mean %s stdev %s", (xs, m, s) => {
    const gotM = mean(xs);
    const gotS = stdev(xs);
    if (m === null) expect(gotM).toBeNull();
    else expect(gotM).toBeCloseTo(m, 12);
    if (s === null) expect(gotS).toBeNull();
    else expect(gotS).toBeCloseTo(s, 12);
  });
});

describe("flipRate", () => {
  it.each<[boolean[][], number | null]>([
    [[], null],
    [[[true], [false]], null],
    [
      [
        [true, true],
        [false, false],
      ],
      0,
    ],
    [
      [
        [true, false],
        [true, true],
      ],
      0.5,
    ],
    [[[true, false, true], [false, true], [true], [false, false]], 2 / 3],
    [[[true, false], []], 1],
  ])("%j -> %s", (perTask, expected) => {
    const v = flipRate(perTask);
    if (expected === null) expect(v).toBeNull();
    else expect(v).toBeCloseTo(expected, 12);
  });
});
