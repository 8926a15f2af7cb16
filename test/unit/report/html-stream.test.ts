import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { buildComparison } from "../../../src/report/comparison/build.js";
import { jsonForScript } from "../../../src/report/html/escape.js";
import { CHUNK, jsonPieces } from "../../../src/report/html/json-pieces.js";
import { pageAssets, renderHtmlPage, staticPagePieces } from "../../../src/report/html/page.js";
import {
  buildHtmlData,
  buildHtmlOverview,
  type HtmlDataInput,
} from "../../../src/report/html/summary-data.js";
import { makeMetadata, makeReport } from "./helpers.js";

/** 2,600 runs over 40 tasks and two arms, with nulls, skills and characters the page escapes. */
function manyRuns(): RunReport[] {
  const out: RunReport[] = [];
  for (let i = 0; i < 2600; i++) {
    const passed = i % 3 !== 0;
    const r = makeReport({
      task: `task-${String(i % 40)}`,
      treatment: i % 2 ? "CONTROL" : "WITH_SKILL",
      rep: Math.floor(i / 80) + 1,
      passed,
      failed: passed ? [] : [i % 6 ? "check </script> \u2028 & <!--" : `check_${String(i % 7)}`],
      quality: i % 17 === 0 ? "excluded" : "included",
      tokens: i % 5 === 0 ? null : 1000 + i,
      cost: i % 7 === 0 ? null : i / 1000,
      turns: i % 11 === 0 ? null : 3,
      duration: i % 13 === 0 ? null : i / 10,
      dims: i % 19 === 0 ? false : undefined,
    });
    const skills = i % 4 === 0 ? [] : i % 4 === 1 ? ["comet"] : ["other <skill>", "comet"];
    out.push({
      ...r,
      events_summary: r.events_summary ? { ...r.events_summary, skills_invoked: skills } : null,
    });
  }
  return out;
}

describe("a static page written a piece at a time", () => {
  const reports = manyRuns();
  const metadata = makeMetadata(["CONTROL", "WITH_SKILL"]);
  const comparison = buildComparison({ reports, metadata });
  const opts = { chartJs: "/* chart </script> */" };

  it.each([
    ["with a comparison", { view: "comparison", comparison } as const],
    ["without one", { view: "summary", comparison: null } as const],
  ])("has the bytes of the page rendered whole (%s)", (_name, extra) => {
    const input: HtmlDataInput = { mode: "static", reports, metadata, ...extra };
    const whole = renderHtmlPage(buildHtmlData(input), opts);
    const pieces = [
      ...staticPagePieces(buildHtmlOverview(input), () => [jsonForScript({})], pageAssets(opts)),
    ];
    expect(pieces.join("")).toBe(whole);
    // the run table and the per-run comparison rows come a chunk of runs at a time
    const idsIn = (p: string): number => p.match(/-r\d+"/g)?.length ?? 0;
    expect(idsIn(whole)).toBeGreaterThanOrEqual(reports.length);
    expect(Math.max(...pieces.map(idsIn))).toBeLessThanOrEqual(CHUNK);
  });

  it("has the bytes of the page rendered whole with no runs", () => {
    const input: HtmlDataInput = {
      view: "summary",
      mode: "static",
      reports: [],
      metadata,
      comparison: null,
    };
    const pieces = staticPagePieces(buildHtmlOverview(input), () => ["{}"], pageAssets(opts));
    expect([...pieces].join("")).toBe(renderHtmlPage(buildHtmlData(input), opts));
  });
});

describe("jsonPieces", () => {
  const long = Array.from({ length: CHUNK * 2 + 3 }, (_, i) => (i % 3 ? { i, s: "<&>" } : null));
  it.each([
    ["a plain value", 42],
    ["a string", "</script>\u2029"],
    ["an empty object", {}],
    ["an empty array", []],
    ["a long array", long],
    ["an array of exactly one chunk", long.slice(0, CHUNK)],
    [
      "nested objects with left-out values",
      { a: undefined, b: { c: long, d: () => 1, e: { f: { g: long } } }, h: [undefined, 1] },
    ],
    ["a date", { when: new Date(0), nested: { d: new Date(1) } }],
    ["null at the top", null],
  ])("gives jsonForScript's bytes for %s", (_name, value) => {
    expect([...jsonPieces(value)].join("")).toBe(jsonForScript(value));
  });

  it("writes named top-level fields with their own writer, in their place", () => {
    const pieces = jsonPieces({ a: 1, runs: "x", b: 2 }, { runs: () => ["[7]"] });
    expect([...pieces].join("")).toBe('{"a":1,"runs":[7],"b":2}');
  });
});
