import { describe, expect, it } from "vitest";
import { isoMillis, isoText } from "../../../src/util/iso-time.js";

/** What the Date functions say (the functions under test must agree with them exactly). */
function reference(s: unknown): number {
  if (typeof s !== "string") return NaN;
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : NaN;
}

describe("isoMillis", () => {
  it.each([
    "2026-12-06T22:12:04.025Z",
    "2026-12-06T00:00:00.000Z",
    "2026-12-06T23:59:59.999Z",
    "2026-12-07T00:00:00.000Z",
    "2024-02-29T12:00:00.000Z",
    "2023-02-29T12:00:00.000Z", // no such day
    "2026-13-01T00:00:00.000Z",
    "2026-12-06T24:00:00.000Z",
    "2026-12-06T23:60:00.000Z",
    "2026-12-06T23:59:60.000Z",
    "2026-12-06T2x:00:00.000Z",
    "2026-12-06t22:12:04.025Z",
    "2026-12-06T22:12:04.025+00:00",
    "2026-12-06T22:12:04Z",
    "2026-12-06 22:12:04.025Z",
    "0000-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
    "+010000-01-01T00:00:00.000Z",
    "-000001-01-01T00:00:00.000Z",
    "",
    "not a time",
    "2026-12-06T22:12:04.0-5Z",
  ])("%s", (s) => {
    expect(isoMillis(s)).toStrictEqual(reference(s));
    // twice: the second reading may take the day from the cache
    expect(isoMillis(s)).toStrictEqual(reference(s));
  });

  it.each([null, undefined, 1796595131174, {}])("%j is no time", (v) => {
    expect(isoMillis(v)).toBeNaN();
  });

  it("agrees with the Date functions on times spread over years, days and the day's ends", () => {
    let x = 12345;
    const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 20_000; i++) {
      const ms = (next() % 4_000_000) * 1_000_000 + (next() % 1_000_000) - 1_000_000_000_000;
      const s = new Date(ms).toISOString();
      expect(isoMillis(s)).toBe(ms);
      expect(isoText(ms)).toBe(s);
      // a neighbour of the same day, after the cache holds it
      const near = ms + (next() % 86_400_000) - 43_200_000;
      expect(isoText(near)).toBe(new Date(near).toISOString());
      expect(isoMillis(new Date(near).toISOString())).toBe(near);
    }
  });

  it.each([
    0, -1, 86_399_999, 86_400_000, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000,
  ])("isoText(%d) is toISOString's", (ms) => {
    expect(isoText(ms)).toBe(new Date(ms).toISOString());
    expect(isoText(ms)).toBe(new Date(ms).toISOString());
  });
});
