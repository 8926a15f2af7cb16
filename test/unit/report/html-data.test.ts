import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { escapeHtml, inlineScript, jsonForScript } from "../../../src/report/html/escape.js";
import { renderHtmlPage } from "../../../src/report/html/page.js";
import { decodeRuns, encodeRuns } from "../../../src/report/html/columns.js";
import { buildRunPage, parseJudge } from "../../../src/report/html/run-data.js";
import { buildHtmlData, embedOrder } from "../../../src/report/html/summary-data.js";
import { buildTimeline, toolLabel, turnPrompt } from "../../../src/report/html/timeline.js";
import { makeMetadata, makeReport, reps } from "./helpers.js";

const SAMPLE = readFileSync(
  new URL("../../fixtures/transcripts/claude/reference-sample.jsonl", import.meta.url),
  "utf8",
);

describe("escaping", () => {
  it.each([
    ["</script><script>alert(1)</script>", "\\u003c/script\\u003e"],
    ["<!-- x", "\\u003c!-- x"],
    ["a\u2028b", "a\\u2028b"],
  ])("jsonForScript(%j) cannot end the element", (s, part) => {
    const out = jsonForScript({ s });
    expect(out).toContain(part);
    expect(out).not.toMatch(/<\/?script/i);
    expect(JSON.parse(out)).toEqual({ s });
  });
  it.each([
    ["<b>&\"'", "&#60;b&#62;&#38;&#34;&#39;"],
    ["plain", "plain"],
  ])("escapeHtml(%j)", (s, want) => expect(escapeHtml(s)).toBe(want));
  it("inlineScript breaks up </script", () =>
    expect(inlineScript('x="</script>"')).toBe('x="<\\/script>"'));
});

describe("buildTimeline", () => {
  const tl = buildTimeline(SAMPLE);
  const tools = tl.turns.flatMap((t) =>
    t.steps.flatMap((s) => (s.kind === "assistant" ? s.tools : [])),
  );
  it("has one turn with its result, tokens and cost", () => {
    expect(tl.turns).toHaveLength(1);
    expect(tl.turns[0]?.result).toMatchObject({
      subtype: "success",
      is_error: false,
      cost_usd: 0.004,
    });
    expect(tl.turns[0]?.result?.tokens?.total).toBe(600);
  });
  it("pairs tool calls with their results, marks skills and errors", () => {
    expect(tools.map((t) => t.name)).toEqual(["Skill", "Bash", "Write", "Bash"]);
    expect(tools[0]).toMatchObject({
      skill: "hello",
      output: "Launching skill: hello",
      is_error: false,
    });
    expect(tools[1]?.output).toBe("hello-from-skill");
    expect(tools[3]).toMatchObject({ is_error: true, label: "cat does-not-exist.txt" });
    expect(tl.tool_calls).toBe(4);
    expect(tl.errors).toBe(1);
  });
  it("keeps injected user text (skill content) as a step", () => {
    const user = tl.turns[0]?.steps.filter((s) => s.kind === "user") ?? [];
    expect(user.some((s) => s.kind === "user" && s.text.includes("SKILLMARKER_4242"))).toBe(true);
  });
  it("reports malformed lines as error notices and splits turns at result events", () => {
    const two = buildTimeline(`${SAMPLE}{not json\n${SAMPLE}`, {
      interactionTurns: [{ prompt: "do it" }, { reply: "go on", source: "simulator" }],
    });
    expect(two.turns).toHaveLength(2);
    expect(two.malformed_lines).toBe(1);
    expect(two.turns[0]?.prompt).toBe("do it");
    expect(two.turns[1]).toMatchObject({ prompt: "go on", prompt_source: "simulator" });
    expect(two.turns[1]?.steps[0]).toMatchObject({ kind: "notice", error: true });
  });
  it("caps long texts", () => {
    const big = JSON.stringify({
      type: "assistant",
      message: { id: "m", content: [{ type: "text", text: "x".repeat(5000) }] },
    });
    const t = buildTimeline(`${big}\n`, { maxText: 100 });
    const step = t.turns[0]?.steps[0];
    expect(step?.kind === "assistant" && step.text[0]?.length).toBeLessThan(200);
  });
  it("is empty for an empty transcript", () =>
    expect(buildTimeline("")).toMatchObject({ source: "none", turns: [] }));
});

describe("small parsers", () => {
  it.each([
    ["Bash", { command: "ls -la\necho hi" }, "ls -la"],
    ["Skill", { skill: "hello" }, "hello"],
    ["Write", { file_path: "/a/b.txt", content: "x" }, "/a/b.txt"],
    ["Other", {}, ""],
  ])("toolLabel(%s)", (name, input, want) => expect(toolLabel(name, input)).toBe(want));
  it.each([
    [{ prompt: "p" }, { text: "p", source: "prompt" }],
    [
      { simulated_reply: "yes", role: "simulator" },
      { text: "yes", source: "simulator" },
    ],
    [{ turn: 2 }, null],
  ])("turnPrompt(%j)", (rec, want) => expect(turnPrompt(rec)).toEqual(want));
  it.each([
    [{}, null],
    [{ judge: null }, null],
    [
      { judge: { model: "m", dimensions: [{ name: "completion", score: 0.5, reason: "half" }] } },
      {
        model: "m",
        status: null,
        reason: null,
        scores: [{ name: "completion", rule_dimension: "completion", score: 0.5, reason: "half" }],
      },
    ],
    [
      { judge: { scores: { completion: 1, efficiency: { score: 0.2, rationale: "slow" } } } },
      {
        model: null,
        status: null,
        reason: null,
        scores: [
          { name: "completion", rule_dimension: "completion", score: 1, reason: null },
          { name: "efficiency", rule_dimension: "efficiency", score: 0.2, reason: "slow" },
        ],
      },
    ],
    [
      { judge: { completion: 0.7, note: "free text" } },
      {
        model: null,
        status: null,
        reason: null,
        scores: [{ name: "completion", rule_dimension: "completion", score: 0.7, reason: null }],
      },
    ],
    // The generic profile's judge dimensions are set beside the rule dimensions they judge.
    [
      {
        judge: {
          status: "enabled_and_successful",
          reason: "",
          model: "scripted-judge",
          dimensions: [
            { name: "task_completion", score: 0.8, reason: "done" },
            { name: "instruction_adherence", score: 0.6, reason: "mostly" },
            { name: "output_quality", score: 0.9, reason: "clean" },
          ],
        },
      },
      {
        model: "scripted-judge",
        status: "enabled_and_successful",
        reason: null,
        scores: [
          { name: "task_completion", rule_dimension: "completion", score: 0.8, reason: "done" },
          {
            name: "instruction_adherence",
            rule_dimension: "instruction_following",
            score: 0.6,
            reason: "mostly",
          },
          { name: "output_quality", rule_dimension: "output_quality", score: 0.9, reason: "clean" },
        ],
      },
    ],
    [{ judge: "garbage" }, null],
  ])("parseJudge(%j)", (raw, want) => expect(parseJudge(raw)).toEqual(want));
});

describe("buildHtmlData", () => {
  const reports = [
    ...reps("CONTROL", 3, [1]),
    ...reps("WITH_SKILL", 3, [1, 2, 3]),
    makeReport({ task: "task-b", treatment: "CONTROL", quality: "excluded", passed: false }),
  ];
  const data = buildHtmlData({
    view: "summary",
    mode: "static",
    reports,
    metadata: null,
    comparison: null,
  });
  it("lists every run compactly and counts the outcome matrix over the analysis set", () => {
    expect(data.runs).toHaveLength(7);
    expect(data.treatments).toEqual(["CONTROL", "WITH_SKILL"]);
    const a = data.task_outcomes.find((r) => r.task === "task-a");
    expect(a?.cells.CONTROL).toEqual({ c: 1, n: 3, flip: true });
    expect(a?.cells.WITH_SKILL).toEqual({ c: 3, n: 3, flip: false });
    expect(data.task_outcomes.find((r) => r.task === "task-b")?.cells.CONTROL).toBeNull();
    expect(data.run_pages_omitted).toBe(7);
  });
  it("embeds failed runs first", () => {
    const order = embedOrder(data.runs);
    expect(
      order.slice(0, 3).every((id) => data.runs.find((r) => r.id === id)?.status !== "passed"),
    ).toBe(true);
  });
  it("renders one self-contained page with the data element", () => {
    const page = buildRunPage({
      report: reports[0]!,
      rawReport: {},
      evidence: null,
      stdout: SAMPLE,
      stderr: null,
      files: [],
      filesTruncated: false,
    });
    const html = renderHtmlPage(
      { ...data, run_pages: { [page.run_id]: page } },
      { chartJs: "/* chart */" },
    );
    expect(html).toContain('<script type="application/json" id="skillbench-data">');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    // the run pages have their own element, parsed only when one is opened
    const json = /id="skillbench-run-pages">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(JSON.parse(json)[page.run_id].timeline.tool_calls).toBe(4);
  });
});

describe("the run table in columns", () => {
  const rows = buildHtmlData({
    view: "summary",
    mode: "static",
    reports: [
      ...reps("CONTROL", 3, [1]),
      ...reps("WITH_SKILL", 3, [1, 2, 3]),
      makeReport({ task: "task-b", quality: "excluded", passed: false, tokens: null, cost: null }),
      makeReport({ task: "task-b", rep: 2, failed: ["a", "b"], dims: false }),
    ],
    metadata: makeMetadata(["CONTROL", "WITH_SKILL"]),
    comparison: null,
  }).runs;

  it("decodes to the same rows, through JSON", () => {
    const wire = JSON.parse(JSON.stringify(encodeRuns(rows))) as ReturnType<typeof encodeRuns>;
    expect(decodeRuns(wire)).toEqual(rows);
    expect(decodeRuns(encodeRuns([]))).toEqual([]);
  });

  it("stores each repeated string once", () => {
    const cols = encodeRuns(rows);
    expect(cols.treatment.values).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(cols.status.values.sort()).toEqual(["failed", "passed"]);
    expect(cols.first_failure.codes.filter((c) => c === -1)).toHaveLength(
      rows.filter((r) => r.first_failure === null).length,
    );
  });

  it("is smaller than one object per run at 10,000 runs", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      ...rows[i % rows.length]!,
      id: `task-${i % 100}-${i % 2 ? "CONTROL" : "WITH_SKILL"}-r${i}`,
    }));
    const columns = JSON.stringify(encodeRuns(many)).length;
    expect(columns).toBeLessThan(JSON.stringify(many).length / 2);
  });

  it("refuses a table with a missing value", () => {
    const cols = encodeRuns(rows);
    cols.rep.pop();
    expect(() => decodeRuns(cols)).toThrow(/no rep for run/);
  });
});
