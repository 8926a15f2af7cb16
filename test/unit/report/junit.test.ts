import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { junitCounts, junitKind, renderJUnit, xmlEscape } from "../../../src/report/junit.js";
import { makeReport } from "./helpers.js";

const XSD = fileURLToPath(new URL("../../fixtures/junit/junit.xsd", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "skillbench-junit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const errored = {
  ...makeReport({
    task: "task-c",
    treatment: "WITH_SKILL",
    passed: false,
    failed: ["agent crashed"],
  }),
  status: "errored" as const,
  outcome: "agent_error" as const,
  outcome_detail: "exit 1 & <no result>",
};
const reports = [
  makeReport({ task: "task-a", treatment: "CONTROL", rep: 1 }),
  makeReport({
    task: "task-a",
    treatment: "CONTROL",
    rep: 2,
    passed: false,
    failed: ['check_x: expected "a" <got> b', "check_y: \u0001 control char"],
  }),
  makeReport({ task: "task-b", treatment: "CONTROL", rep: 1, quality: "excluded", passed: false }),
  makeReport({ task: "task-a", treatment: "WITH_SKILL", rep: 1 }),
  errored,
];

function validate(xml: string): string {
  const file = path.join(tmp, `out-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  return execFileSync("xmllint", ["--noout", "--schema", XSD, file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("renderJUnit", () => {
  const xml = renderJUnit(reports, { treatments: ["CONTROL", "WITH_SKILL"] });

  it("validates against the JUnit schema (xmllint --schema)", () => {
    expect(() => validate(xml)).not.toThrow();
  });

  it("has the expected counts per suite and in total", () => {
    expect(xml).toMatch(/<testsuites name="skillbench" tests="5" failures="1" errors="1" /);
    expect(xml).toMatch(/<testsuite name="CONTROL" tests="3" failures="1" errors="0" skipped="1" /);
    expect(xml).toMatch(
      /<testsuite name="WITH_SKILL" tests="2" failures="0" errors="1" skipped="0" /,
    );
    expect((xml.match(/<testcase /g) ?? []).length).toBe(5);
    expect((xml.match(/<failure /g) ?? []).length).toBe(2); // one per failed check
    expect((xml.match(/<skipped /g) ?? []).length).toBe(1);
    expect((xml.match(/<error /g) ?? []).length).toBe(1);
  });

  it("names test cases by task and treatment/rep, with properties and escaped text", () => {
    expect(xml).toContain('<testcase name="CONTROL r2" classname="task-a" time="10.000">');
    expect(xml).toMatch(/<property name="weighted_score" value="0(\.\d+)?"\/>/);
    expect(xml).toContain('<property name="tokens" value="1000"/>');
    expect(xml).toContain('<property name="cost_usd" value="0.01"/>');
    expect(xml).toContain('message="check_x: expected &quot;a&quot; &lt;got&gt; b"');
    expect(xml).toContain('<skipped message="rate_limited: API rate limit or quota failure"/>');
    expect(xml).not.toContain("\u0001");
  });

  it.each([
    [reports[0]!, "passed"],
    [reports[1]!, "failure"],
    [reports[2]!, "skipped"],
    [errored, "error"],
  ])("junitKind(%#) = %s", (r, kind) => expect(junitKind(r)).toBe(kind));

  it("counts match junitCounts, and an empty input is still valid", () => {
    expect(junitCounts(reports)).toEqual({ tests: 5, failures: 1, errors: 1, skipped: 1 });
    expect(() => validate(renderJUnit([]))).not.toThrow();
  });

  it("the schema rejects a broken document (the validation is real)", () => {
    expect(() =>
      validate(xml.replace('<testcase name="CONTROL r1"', '<testcase nom="CONTROL r1"')),
    ).toThrow();
  });

  it.each([
    ["a&b", "a&amp;b"],
    ["x\ny", "x&#10;y"],
    ["\u0000", "\uFFFD"],
    // Nothing to escape: returned as it is (the fast path).
    ["task-000-CONTROL-r1", "task-000-CONTROL-r1"],
    ["0.25 \u00e9\u4e2d \u{1F600}", "0.25 \u00e9\u4e2d \u{1F600}"],
    // Each character the fast path must not miss.
    ['"', "&quot;"],
    ["'", "&apos;"],
    ["<>", "&lt;&gt;"],
    ["a\tb\rc", "a&#9;b&#13;c"],
    ["\u001f\u007f", "\uFFFD\u007f"],
    ["\uD800x", "\uFFFDx"],
    ["x\uDFFF", "x\uFFFD"],
    ["\uFFFE\uFFFF", "\uFFFD\uFFFD"],
  ])("xmlEscape(%j)", (s, want) => expect(xmlEscape(s)).toBe(want));

  // Element text keeps tabs and newlines as they are, and escapes the rest as xmlEscape does
  // (texts with nothing else to escape are returned as they are: the fast path).
  it.each([
    [["check_a", "check_b"], "passed checks:\n  check_a\n  check_b"],
    [["a\tb"], "passed checks:\n  a\tb"],
    [["c\rd", "e&f"], "passed checks:\n  c&#13;d\n  e&amp;f"],
    [["<&#10;>", "'\""], "passed checks:\n  &lt;&amp;#10;&gt;\n  &apos;&quot;"],
    [
      ["x\u0000\uD800", "\u0085 \u00e9\u{1F600}"],
      "passed checks:\n  x\uFFFD\uFFFD\n  \u0085 \u00e9\u{1F600}",
    ],
  ])("<system-out> of passed checks %j", (checks, want) => {
    const out = renderJUnit([{ ...makeReport(), checks_passed: checks }]);
    expect(out).toContain(`<system-out>${want}</system-out>`);
  });
});

describe("renderJUnit with the preflight's task health", () => {
  const task = (name: string, status: "sound" | "unverified" | "unsound") => ({
    task: name,
    solution: status === "unverified" ? null : ("solve.sh" as const),
    status,
    oracle: null,
    null_agent: { passed: [], failed: [] },
    sandbox: "local",
  });
  const health = {
    tasks: [task("task-a", "sound"), task("task-b", "unverified"), task("task-c", "unsound")],
    problems: [
      { task: "task-c", kind: "vacuous" as const, cause: "every check passes untouched <sic>" },
      { task: "task-a", kind: "no_checks" as const, cause: "a note, not a failure" },
    ],
  };
  const xml = renderJUnit(reports, { treatments: ["CONTROL", "WITH_SKILL"], health });

  it("adds a task-health testsuite that validates: unsound fails, unverified is skipped", () => {
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toMatch(/<testsuites name="skillbench" tests="8" failures="2" errors="1" /);
    expect(xml).toMatch(
      /<testsuite name="task health" tests="3" failures="1" errors="0" skipped="1" /,
    );
    expect(xml).toContain(
      '<failure message="vacuous: every check passes untouched &lt;sic&gt;" type="health">',
    );
    expect(xml).toContain('<skipped message="unverified: the task ships no reference solution"/>');
  });

  it("is absent without health.json", () => {
    expect(renderJUnit(reports, { health: null })).not.toContain("task health");
  });
});
