import { describe, expect, it } from "vitest";
import { normalizeValidatorResult } from "../../../src/validators/index.js";

describe("normalizeValidatorResult", () => {
  it.each<[string, unknown, { passed: string[]; failed: string[] }]>([
    [
      "passed/failed lists",
      { passed: ["a", "b"], failed: ["c"] },
      { passed: ["a", "b"], failed: ["c"] },
    ],
    [
      "non-string list entries ignored",
      { passed: ["a", 1, null, { x: 1 }], failed: [false, "f"] },
      { passed: ["a"], failed: ["f"] },
    ],
    [
      "lists that are not arrays ignored",
      { passed: "a", failed: { x: 1 } },
      { passed: [], failed: [] },
    ],
    [
      "checks with name/message",
      {
        checks: [
          { name: "n1", status: "passed", message: "fine" },
          { check: "n2", status: "FAIL", reason: "bad" },
        ],
      },
      { passed: ["n1: fine"], failed: ["n2: bad"] },
    ],
    [
      "check wins over name; message over reason over error",
      { checks: [{ check: "c", name: "n", status: "ok", message: "m", reason: "r", error: "e" }] },
      { passed: ["c: m"], failed: [] },
    ],
    [
      "error as detail",
      { checks: [{ name: "x", status: "error", error: "boom" }] },
      { passed: [], failed: ["x: boom"] },
    ],
    [
      "no detail -> bare name",
      { checks: [{ name: "x", status: "Success" }] },
      { passed: ["x"], failed: [] },
    ],
    [
      "empty detail -> bare name",
      { checks: [{ name: "x", status: "pass", message: "  " }] },
      { passed: ["x"], failed: [] },
    ],
    [
      "unnamed check",
      { checks: [{ status: "failed", message: "m" }] },
      { passed: [], failed: ["(unnamed check): m"] },
    ],
    [
      "other statuses ignored",
      {
        checks: [
          { name: "a", status: "skipped" },
          { name: "b", status: "warn" },
          { name: "c" },
          { name: "d", status: 3 },
        ],
      },
      { passed: [], failed: [] },
    ],
    [
      "status trimmed, case-insensitive",
      { checks: [{ name: "a", status: " PASSED " }] },
      { passed: ["a"], failed: [] },
    ],
    [
      "non-object checks ignored",
      { checks: ["x", 1, null, [1], { name: "ok", status: "ok" }] },
      { passed: ["ok"], failed: [] },
    ],
    ["checks not an array", { checks: { name: "a", status: "ok" } }, { passed: [], failed: [] }],
    [
      "numeric name kept",
      { checks: [{ name: 7, status: "fail", message: "x" }] },
      { passed: [], failed: ["7: x"] },
    ],
    [
      "lists and checks combined, lists first",
      {
        passed: ["p"],
        failed: ["f"],
        checks: [
          { name: "c1", status: "ok" },
          { name: "c2", status: "failed" },
        ],
      },
      { passed: ["p", "c1"], failed: ["f", "c2"] },
    ],
    [
      "error without checks",
      { error: "ImportError: x" },
      { passed: [], failed: ["Test execution error (v.py): ImportError: x"] },
    ],
    [
      "error object without checks",
      { error: { code: 1 } },
      { passed: [], failed: ['Test execution error (v.py): {"code":1}'] },
    ],
    ["error with checks ignored", { error: "e", passed: ["p"] }, { passed: ["p"], failed: [] }],
    ["empty error ignored", { error: "" }, { passed: [], failed: [] }],
    ["null error ignored", { error: null }, { passed: [], failed: [] }],
    ["null input", null, { passed: [], failed: [] }],
    ["array input", [{ passed: ["a"] }], { passed: [], failed: [] }],
    ["string input", "passed", { passed: [], failed: [] }],
    ["number input", 42, { passed: [], failed: [] }],
    ["empty object", {}, { passed: [], failed: [] }],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeValidatorResult("v.py", raw)).toEqual(expected);
  });

  it("does not mutate its input", () => {
    const raw = { passed: ["a"], checks: [{ name: "b", status: "ok" }] };
    normalizeValidatorResult("v.py", raw);
    expect(raw).toEqual({ passed: ["a"], checks: [{ name: "b", status: "ok" }] });
  });
});
