import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  defaultKs,
  passAtK,
  passHatKStrict,
  passHatKUnbiased,
} from "../../../src/stats/pass-at-k.js";

// Expected values computed with Python's math.comb: 1 - C(n-c,k)/C(n,k) and C(c,k)/C(n,k).
describe("passAtK", () => {
  it.each([
    [3, 2, 1, 0.6666666666666667],
    [3, 2, 2, 1],
    [3, 2, 3, 1],
    [3, 0, 1, 0],
    [3, 3, 3, 1],
    [10, 3, 5, 0.9166666666666666],
    [200, 0, 1, 0],
    [200, 0, 2, 0],
    [200, 0, 5, 0],
    [200, 0, 100, 0],
    [200, 1, 1, 0.005],
    [200, 1, 100, 0.5],
    [200, 100, 1, 0.5],
    [200, 100, 2, 0.7512562814070352],
    [200, 100, 5, 0.9703083947657067],
    [200, 100, 100, 1],
    [200, 199, 1, 0.995],
    [200, 200, 1, 1],
    [200, 200, 100, 1],
    [5000, 2500, 1000, 1],
  ])("n=%i c=%i k=%i -> %f", (n, c, k, expected) => {
    const v = passAtK(n, c, k);
    expect(v).not.toBeNull();
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeCloseTo(expected, 12);
  });

  it.each([
    [0, 0, 1],
    [3, 2, 4],
    [1, 1, 2],
  ])("n=%i c=%i k=%i -> null (no silent clamping)", (n, c, k) => {
    expect(passAtK(n, c, k)).toBeNull();
  });

  it.each([
    [3, 4, 1],
    [-1, 0, 1],
    [3, 1.5, 1],
    [3, 1, 0],
  ])("n=%s c=%s k=%s throws RangeError", (n, c, k) => {
    expect(() => passAtK(n, c, k)).toThrow(RangeError);
  });
});

describe("passHatKStrict", () => {
  it.each([
    [3, 2, 0],
    [3, 3, 1],
    [1, 1, 1],
    [1, 0, 0],
    [200, 199, 0],
    [200, 200, 1],
  ])("n=%i c=%i -> %i", (n, c, expected) => {
    expect(passHatKStrict(n, c)).toBe(expected);
  });
  it("n=0 -> null", () => expect(passHatKStrict(0, 0)).toBeNull());
});

describe("passHatKUnbiased", () => {
  it.each([
    [3, 2, 1, 0.6666666666666667],
    [3, 2, 2, 0.3333333333333333],
    [3, 2, 3, 0],
    [3, 3, 3, 1],
    [3, 0, 1, 0],
    [10, 3, 5, 0],
    [10, 7, 5, 0.08333333333333333],
    [200, 0, 5, 0],
    [200, 100, 1, 0.5],
    [200, 100, 2, 0.24874371859296482],
    [200, 100, 5, 0.029691605234293292],
    [200, 100, 100, 1.1043803465997514e-59],
    [200, 199, 100, 0.5],
    [200, 200, 100, 1],
  ])("n=%i c=%i k=%i -> %f", (n, c, k, expected) => {
    const v = passHatKUnbiased(n, c, k);
    expect(v).not.toBeNull();
    expect(Number.isFinite(v)).toBe(true);
    // relative comparison, since one expected value is ~1e-59
    expect(Math.abs((v ?? 0) - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
  });

  it.each([
    [0, 0, 1],
    [3, 2, 4],
  ])("n=%i c=%i k=%i -> null", (n, c, k) => {
    expect(passHatKUnbiased(n, c, k)).toBeNull();
  });
});

describe("defaultKs", () => {
  it.each<[number, number[] | undefined, number[]]>([
    [0, undefined, [1]],
    [1, undefined, [1]],
    [2, undefined, [1, 2]],
    [4, undefined, [1, 2]],
    [5, undefined, [1, 2, 5]],
    [50, undefined, [1, 2, 5]],
    [3, [1, 2, 3], [1, 2, 3]],
    [2, [3, 1, 2, 2], [1, 2]],
    [3, [10], [1]],
  ])("maxN=%i requested=%j -> %j", (maxN, requested, expected) => {
    expect(defaultKs(maxN, requested)).toEqual(expected);
  });

  it.each([[[0]], [[1.5]], [[-2]]])("requested %j is an InputError", (requested) => {
    expect(() => defaultKs(5, requested)).toThrow(InputError);
  });
});
