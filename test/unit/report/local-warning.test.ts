/** The local warning and terminal-escape stripping across the Markdown and JUnit reports. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { LOCAL_WARNING } from "../../../src/core/sandbox.js";
import { buildComparison, renderComparisonMarkdown } from "../../../src/report/comparison/index.js";
import { renderJUnit } from "../../../src/report/junit.js";
import { renderSummaryMarkdown } from "../../../src/report/summary-md.js";
import { makeReport, makeSummaryInput } from "./helpers.js";

function withSandbox(r: RunReport, kind: "local" | "bwrap"): RunReport {
  return {
    ...r,
    sandbox: {
      kind,
      why: kind === "local" ? `requested; ${LOCAL_WARNING}` : "auto: bubblewrap works",
      image_id: null,
      image_tag: null,
      agent_version_inside: null,
      limits: null,
      network_policy: "host network",
      protects: [],
      does_not_protect: [],
      oom_kills: null,
    },
  };
}

const HOSTILE = "\x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 \x1b[2J";

function runs(kind: "local" | "bwrap"): RunReport[] {
  return [
    withSandbox(makeReport({ treatment: "CONTROL", passed: false, failed: [HOSTILE] }), kind),
    withSandbox(makeReport({ treatment: "CAND", passed: true }), "bwrap"),
  ];
}

function summary(reports: RunReport[]): string {
  return renderSummaryMarkdown(makeSummaryInput(["CONTROL", "CAND"], reports));
}

function comparison(reports: RunReport[]): string {
  return renderComparisonMarkdown(buildComparison({ reports, metadata: null }));
}

describe("the local warning", () => {
  it.each([
    ["summary.md", summary],
    ["comparison_report.md", comparison],
  ])("%s says how many runs had no sandbox, and only then", (_file, render) => {
    expect(render(runs("local"))).toContain(
      `> ⚠️ **No sandbox:** 1 of 2 run(s) ran with \`--sandbox local\`: ${LOCAL_WARNING}.`,
    );
    expect(render(runs("bwrap"))).not.toContain(LOCAL_WARNING);
  });

  it("comparison.json carries it", () => {
    const c = buildComparison({ reports: runs("local"), metadata: null });
    expect(c.isolation).toEqual({
      kinds: ["bwrap", "local"],
      runs: 2,
      local_runs: 1,
      warning: LOCAL_WARNING,
    });
  });

  it("JUnit: every testcase names its sandbox; local ones carry the warning", () => {
    const xml = renderJUnit(runs("local"));
    expect(xml.match(/<property name="sandbox" value="local"\/>/g)).toHaveLength(1);
    expect(xml.match(/<property name="sandbox" value="bwrap"\/>/g)).toHaveLength(1);
    expect(xml.match(/<property name="sandbox_warning" value="([^"]*)"\/>/g)).toEqual([
      `<property name="sandbox_warning" value="${LOCAL_WARNING}"/>`,
    ]);
  });
});

describe("terminal escapes from validators", () => {
  it.each([
    ["summary.md", summary],
    ["comparison_report.md", comparison],
  ])("are stripped from %s", (_file, render) => {
    const md = render(runs("local"));
    // eslint-disable-next-line no-control-regex
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it("summary.md keeps the text", () => {
    expect(summary(runs("local"))).toContain("red link");
  });
});
