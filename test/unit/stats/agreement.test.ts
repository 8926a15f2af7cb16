import { describe, expect, it } from "vitest";
import {
  bootstrapUnits,
  cohensKappa,
  confusionMatrix,
  krippendorffAlpha,
  type Rating,
} from "../../../src/stats/agreement.js";

describe("cohensKappa (hand-computed)", () => {
  // A 0000001111, B 0000011101: cells (0,0)=5 (0,1)=1 (1,0)=1 (1,1)=3. p_o = 8/10 = 0.8;
  // marginals A 6/4, B 6/4: p_e = 0.6·0.6 + 0.4·0.4 = 0.52; κ = (0.8 − 0.52)/(1 − 0.52) = 0.28/0.48.
  const a = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
  const b = [0, 0, 0, 0, 0, 1, 1, 1, 0, 1];
  it("two categories", () => expect(cohensKappa(a, b, 2)).toBeCloseTo(0.28 / 0.48, 12));
  it("a unit either rater left unlabelled is left out", () =>
    expect(cohensKappa([...a, null, 1], [...b, 1, null], 2)).toBeCloseTo(0.28 / 0.48, 12));

  // A 0 1 2 2, B 0 2 2 1 on 3 levels; marginals A = B = (1, 1, 2), n = 4.
  // unweighted: p_o = 2/4, p_e = (1·1 + 1·1 + 2·2)/16 = 6/16; κ = (0.5 − 0.375)/(0.625) = 0.2
  // linear v = |i−j|/2: observed Σ v·o = (0.5 + 0.5)/4 = 0.25; expected Σ v·rA·cB/16 =
  //   (0.5·1·1·2 [0↔1] + 1·1·2·2 [0↔2] + 0.5·1·2·2 [1↔2])/16 = 7/16; κ_w = 1 − 0.25/(7/16) = 3/7
  // quadratic v = ((i−j)/2)²: observed (0.25 + 0.25)/4 = 0.125; expected
  //   (0.25·2 + 1·4 + 0.25·4)/16 = 5.5/16; κ_w = 1 − 0.125/(5.5/16) = 7/11
  const x = [0, 1, 2, 2];
  const y = [0, 2, 2, 1];
  it.each([
    ["none", 0.2],
    ["linear", 3 / 7],
    ["quadratic", 7 / 11],
  ] as const)("3 levels, weights %s", (w, k) => expect(cohensKappa(x, y, 3, w)).toBeCloseTo(k, 12));

  it("perfect agreement with two categories used: 1", () =>
    expect(cohensKappa([0, 1, 1], [0, 1, 1], 2)).toBeCloseTo(1, 12));
  it("all agree on one category: undefined (p_e = 1), null", () =>
    expect(cohensKappa([1, 1, 1], [1, 1, 1], 2)).toBeNull());
  it("no unit labelled by both: null", () =>
    expect(cohensKappa([0, null], [null, 1], 2)).toBeNull());
  it("systematic disagreement: negative", () =>
    // p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5: κ = −0.5/0.5 = −1
    expect(cohensKappa([0, 1], [1, 0], 2)).toBeCloseTo(-1, 12));
  it("a rating off the scale is a harness bug", () =>
    expect(() => cohensKappa([2], [0], 2)).toThrow(RangeError));
});

describe("krippendorffAlpha (hand-computed)", () => {
  // units (a,a) (a,b) (b,b): o_aa = 2, o_ab = o_ba = 1, o_bb = 2; n_a = n_b = 3, n = 6.
  // α = 1 − (n−1)·Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k = 1 − 5·2 / (3·3·2) = 1 − 10/18 = 4/9
  it("nominal, 2 raters", () =>
    expect(
      krippendorffAlpha(
        [
          [0, 0],
          [0, 1],
          [1, 1],
        ],
        2,
        "nominal",
      ),
    ).toBeCloseTo(4 / 9, 12));
  // Add (a, missing): one value, not pairable, no change; and (a, a, b) from 3 raters: m = 3,
  // ordered pairs a-a twice → o_aa += 2/2, a-b twice → o_ab += 1, o_ba += 1.
  // o_aa = 3, o_ab = o_ba = 2, o_bb = 2; n_a = 5, n_b = 4, n = 9; α = 1 − 8·4/(5·4·2) = 0.2
  it("missing labels and a third rater", () =>
    expect(
      krippendorffAlpha(
        [
          [0, 0, null],
          [0, 1, null],
          [1, 1, null],
          [0, null, null],
          [0, 0, 1],
        ],
        2,
        "nominal",
      ),
    ).toBeCloseTo(0.2, 12));
  // Krippendorff (2011) §A, two observers, binary: A 0100000010, B 1110010000.
  // o_00 = 2·5 = 10, o_11 = 2, o_01 = o_10 = 4; n_0 = 14, n_1 = 6, n = 20;
  // α = 1 − 19·8/(14·6·2) = 1 − 152/168 = 0.0952 (the paper: 0.095)
  it("Krippendorff 2011, binary example: 0.095", () => {
    const A = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const B = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    const alpha = krippendorffAlpha(
      A.map((v, i) => [v, B[i] ?? null]),
      2,
      "nominal",
    );
    expect(alpha).toBeCloseTo(1 - 152 / 168, 12);
    expect(alpha?.toFixed(3)).toBe("0.095");
    // for two raters and nominal data, α is close to (and slightly above) Scott's π and κ
    expect(cohensKappa(A, B, 2)).toBeLessThan(alpha ?? 0);
  });
  // Krippendorff (2011) §C: 4 observers, 12 units, values 1..5, with missing data (the
  // paper's table, units as columns: observer A 1 2 3 3 2 1 4 1 2 . . .; B 1 2 3 3 2 2 4 1 2 5 . 3;
  // C . 3 3 3 2 3 4 2 2 5 1 .; D 1 2 3 3 2 4 4 1 2 5 1 .). The paper gives α = 0.743
  // (nominal), 0.815 (ordinal), 0.849 (interval).
  const _ = null;
  const obs: Rating[][] = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];
  const units = (obs[0] ?? []).map((_v, u) =>
    obs.map((o) => (o[u] === null ? null : (o[u] as number) - 1)),
  );
  it.each([
    ["nominal", "0.743"],
    ["ordinal", "0.815"],
    ["interval", "0.849"],
  ] as const)("Krippendorff 2011, 4 observers with missing data, %s: %s", (metric, want) =>
    expect(krippendorffAlpha(units, 5, metric)?.toFixed(3)).toBe(want),
  );
  it("every value the same: undefined (nothing to expect), null", () =>
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1, null],
        ],
        3,
        "ordinal",
      ),
    ).toBeNull());
  it("perfect agreement with variation: 1", () =>
    expect(
      krippendorffAlpha(
        [
          [0, 0],
          [2, 2],
          [1, 1, 1],
        ],
        3,
        "ordinal",
      ),
    ).toBeCloseTo(1, 12));
  it("no unit with two values: null", () =>
    expect(
      krippendorffAlpha(
        [
          [0, null],
          [null, 1],
        ],
        2,
        "nominal",
      ),
    ).toBeNull());
});

describe("confusionMatrix", () => {
  it("counts the units both labelled, agreement on the diagonal", () => {
    const m = confusionMatrix([0, 1, 2, 2, null], [0, 2, 2, 1, 0], 3);
    expect(m.counts).toEqual([
      [1, 0, 0],
      [0, 0, 1],
      [0, 1, 1],
    ]);
    expect(m.total).toBe(4);
    expect(m.agreement).toBe(0.5);
  });
});

describe("bootstrapUnits", () => {
  const pairs = [
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 1],
    [0, 0],
    [1, 0],
  ] as const;
  const kappa = (s: readonly (readonly [number, number])[]): number | null =>
    cohensKappa(
      s.map((p) => p[0]),
      s.map((p) => p[1]),
      2,
    );
  it("the same seed gives the same interval; the estimate is the statistic on the data", () => {
    const r1 = bootstrapUnits(pairs, kappa, { seed: 7, replicates: 500 });
    const r2 = bootstrapUnits(pairs, kappa, { seed: 7, replicates: 500 });
    expect(r1).toEqual(r2);
    expect(r1?.estimate).toBeCloseTo(kappa(pairs) ?? NaN, 12);
    expect(r1?.low).toBeLessThanOrEqual(r1?.estimate ?? NaN);
    expect(r1?.high).toBeLessThanOrEqual(1);
    // replicates that draw only agreeing units of one category have κ undefined: left out
    expect(r1?.valid_replicates).toBeLessThanOrEqual(500);
  });
  it("a statistic undefined on the data: null", () =>
    expect(bootstrapUnits([[1, 1] as const], kappa)).toBeNull());
});
