import { describe, expect, it } from "vitest";
import { computePassK } from "../../../src/report/passk.js";
import { passKMarkdown } from "../../../src/report/passk-md.js";
import { makeReport, reps } from "./helpers.js";

describe("computePassK", () => {
  it("n=3, c=2 for one task: the values of the issue", () => {
    const t = computePassK(reps("CAND", 3, [1, 2]), ["CAND"]);
    expect(t.ks).toEqual([1, 2]);
    const row = t.rows.find((r) => r.metric === "overall");
    expect(row?.pass_at_k[1]).toBeCloseTo(2 / 3, 10);
    expect(row?.pass_at_k[2]).toBe(1);
    expect(row?.pass_hat_k_strict[2]).toBe(0);
    expect(row?.pass_hat_k_unbiased[2]).toBeCloseTo(1 / 3, 10);
    expect([row?.c, row?.n]).toEqual([2, 3]);
  });

  it("warns exactly as the original when there is one run per treatment", () => {
    const t = computePassK([makeReport({ treatment: "CAND" })], ["CAND"]);
    expect(t.warning).toBe(
      "_Only 1 run per treatment — pass@k/pass^k for k>1 need ≥2 runs to be meaningful. Use `--count 5`._",
    );
    expect(passKMarkdown(t)).toContain(t.warning ?? "x");
  });

  it("adds business and workflow rows when those rubric dimensions exist (N/A runs left out of n)", () => {
    const reports = [
      makeReport({
        treatment: "CAND",
        rep: 1,
        dims: { business_completion: 1, workflow_completion: 1 },
      }),
      makeReport({
        treatment: "CAND",
        rep: 2,
        dims: { business_completion: 0.5, workflow_completion: null },
      }),
    ];
    const t = computePassK(reports, ["CAND"]);
    expect(t.rows.map((r) => r.metric)).toEqual(["overall", "business", "workflow"]);
    const business = t.rows.find((r) => r.metric === "business");
    const workflow = t.rows.find((r) => r.metric === "workflow");
    expect([business?.c, business?.n]).toEqual([1, 2]);
    expect([workflow?.c, workflow?.n]).toEqual([1, 1]);
  });

  it("leaves excluded runs out of the analysis set", () => {
    const reports = [
      ...reps("CAND", 2, [1, 2]),
      makeReport({ treatment: "CAND", rep: 3, passed: false, quality: "excluded" }),
    ];
    const row = computePassK(reports, ["CAND"]).rows[0];
    expect([row?.c, row?.n]).toEqual([2, 2]);
  });
});
