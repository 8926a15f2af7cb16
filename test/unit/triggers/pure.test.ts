/** Trigger evaluation, pure stages: query files, the stream watcher, classification, statistics, rendering. */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { SkillDecisionWatcher, skillOfToolUse } from "../../../src/agents/claude/trigger.js";
import { classifyProbe } from "../../../src/triggers/classify.js";
import { parseQueries } from "../../../src/triggers/queries.js";
import { buildTriggersReport, renderTriggersMarkdown } from "../../../src/triggers/report.js";
import { renderTriggersHtml } from "../../../src/triggers/html.js";
import { planProbes } from "../../../src/triggers/run-triggers.js";
import { frontmatterOf, withDescription } from "../../../src/triggers/skills.js";
import { compareVariants, variantStats } from "../../../src/triggers/stats.js";
import type { ProbeOutcome, ProbeRecord, TriggerQuery } from "../../../src/triggers/types.js";

function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError");
}

describe("parseQueries", () => {
  it("reads a YAML list and numbers the queries", () => {
    const q = parseQueries(
      "- query: add a changelog entry\n  should_trigger: true\n- {query: fix a typo, should_trigger: false}\n",
      "q.yaml",
    );
    expect(q).toEqual([
      { id: "q01", query: "add a changelog entry", should_trigger: true },
      { id: "q02", query: "fix a typo", should_trigger: false },
    ]);
  });
  it("reads JSON with a queries key and keeps given ids", () => {
    const q = parseQueries(
      JSON.stringify({ queries: [{ id: "pos-1", query: "x", should_trigger: true }] }),
      "q.json",
    );
    expect(q).toEqual([{ id: "pos-1", query: "x", should_trigger: true }]);
  });
  it.each([
    [
      "- query: a\n  should_trigger: true\n- query: b\n  should_trigger: yes please\n",
      /q\.yaml: \[1\]\.should_trigger \(line 4\): .*boolean/,
    ],
    [
      "- query: a\n  should_trigger: true\n  shuold: 1\n",
      /q\.yaml: \[0\]\.shuold \(line 3\): unknown field/,
    ],
    ["- query: ''\n  should_trigger: true\n", /\[0\]\.query \(line 1\): must not be empty/],
    ["[]\n", /no queries/],
    [
      "- query: a\n  should_trigger: true\n- query: a\n  should_trigger: false\n",
      /\[1\]\.query: the same query as \[0\]/,
    ],
    ["- query: [unclosed\n", /q\.yaml: line \d+: invalid YAML/],
  ])("names file, field and line for bad input %#", (text, re) => {
    const e = inputError(() => parseQueries(text, "q.yaml"));
    expect(e.message).toMatch(re);
    expect(e.details.file).toBe("q.yaml");
  });
});

describe("SKILL.md frontmatter", () => {
  const md = "---\nname: cw\ndescription: old words\nlicense: MIT\n---\n# Body\nkept\n";
  it("replaces only the description", () => {
    const out = withDescription(md, "new: words with a colon");
    expect(frontmatterOf(out, "x")).toEqual({
      name: "cw",
      description: "new: words with a colon",
      license: "MIT",
    });
    expect(out.endsWith("# Body\nkept\n")).toBe(true);
  });
  it("adds a frontmatter when there is none", () => {
    expect(frontmatterOf(withDescription("# B\n", "d"), "x")).toEqual({ description: "d" });
  });
});

const line = (v: unknown): string => JSON.stringify(v);
const assistant = (content: unknown[]): string =>
  line({ type: "assistant", message: { id: "m", content } });

describe("SkillDecisionWatcher", () => {
  it.each([
    [
      { name: "Skill", input: { skill: "cw" } },
      { skill: "cw", via: "skill_tool" },
    ],
    [
      { name: "Skill", input: { command: "/cw" } },
      { skill: "cw", via: "skill_tool" },
    ],
    [
      { name: "Read", input: { file_path: "/tmp/x/ws/.claude/skills/cw/SKILL.md" } },
      { skill: "cw", via: "skill_files" },
    ],
    [
      { name: "Read", input: { file_path: ".claude/skills/cw/SKILL.md" } },
      { skill: "cw", via: "skill_files" },
    ],
    [
      { name: "Bash", input: { command: "cat .claude/skills/other/SKILL.md" } },
      { skill: "other", via: "skill_files" },
    ],
    [{ name: "Read", input: { file_path: "src/app.ts" } }, null],
    [{ name: "Bash", input: { command: "ls .claude/skills" } }, null],
  ])("tool call %j → %j", (call, want) => {
    expect(skillOfToolUse(call.name, call.input)).toEqual(want);
  });

  it("keeps the first decision, sees a slash-command expansion and the result subtype", () => {
    const w = new SkillDecisionWatcher();
    w.push(line({ type: "system", subtype: "init" }));
    w.push("not json");
    w.push(assistant([{ type: "text", text: "hmm" }]));
    expect(w.state.decision).toBeNull();
    w.push(
      line({
        type: "user",
        message: {
          content: [
            { type: "text", text: "Base directory for this skill: /w/.claude/skills/cw\n\n# Body" },
          ],
        },
      }),
    );
    w.push(assistant([{ type: "tool_use", name: "Skill", input: { skill: "other" } }]));
    w.push(line({ type: "result", subtype: "error_max_turns", is_error: true }));
    expect(w.state).toEqual({
      decision: { skill: "cw", via: "slash_command" },
      resultSubtype: "error_max_turns",
    });
  });
});

describe("classifyProbe", () => {
  const base = { decision: null, resultSubtype: null, detail: "d" };
  it.each<[Parameters<typeof classifyProbe>[0], ProbeOutcome]>([
    [
      { ...base, decision: { skill: "cw", via: "skill_tool" }, agentOutcome: "aborted" },
      { kind: "target", via: "skill_tool" },
    ],
    [
      { ...base, decision: { skill: "x", via: "skill_files" }, agentOutcome: "agent_error" },
      { kind: "other", skill: "x", via: "skill_files" },
    ],
    [
      { ...base, agentOutcome: "completed" },
      { kind: "none", why: "turn_ended" },
    ],
    [
      { ...base, agentOutcome: "agent_error", resultSubtype: "error_max_turns" },
      { kind: "none", why: "turn_budget" },
    ],
    [
      { ...base, agentOutcome: "agent_error", resultSubtype: "success" },
      { kind: "invalid", reason: "api_error", detail: "d" },
    ],
    [
      { ...base, agentOutcome: "timeout" },
      { kind: "invalid", reason: "timeout", detail: "d" },
    ],
    [
      { ...base, agentOutcome: "crashed" },
      { kind: "invalid", reason: "crash", detail: "d" },
    ],
    [
      { ...base, agentOutcome: "empty_output" },
      { kind: "invalid", reason: "crash", detail: "d" },
    ],
    [
      { ...base, agentOutcome: "spawn_error" },
      { kind: "invalid", reason: "harness_error", detail: "d" },
    ],
  ])("%j", (e, want) => {
    expect(classifyProbe(e, "cw")).toEqual(want);
  });
});

const Q: TriggerQuery[] = [
  { id: "p1", query: "pos one", should_trigger: true },
  { id: "p2", query: "pos two", should_trigger: true },
  { id: "n1", query: "neg one", should_trigger: false },
  { id: "n2", query: "neg two", should_trigger: false },
];
const T: ProbeOutcome = { kind: "target", via: "skill_tool" };
const N: ProbeOutcome = { kind: "none", why: "turn_ended" };
const O = (skill: string): ProbeOutcome => ({ kind: "other", skill, via: "skill_tool" });
const BAD: ProbeOutcome = { kind: "invalid", reason: "api_error", detail: "429" };

function rec(variant: string, q: string, rep: number, ...outcomes: ProbeOutcome[]): ProbeRecord {
  const attempts = outcomes.map((outcome, i) => ({
    attempt: i + 1,
    outcome,
    agent_outcome: "completed",
    stopped_early: false,
    duration_ms: 1,
    detail: "",
  }));
  return {
    schema: "skillbench.trigger-probe.v1",
    probe_id: `${variant}/${q}/r${rep}`,
    variant,
    query_id: q,
    rep,
    attempts,
    outcome: outcomes[outcomes.length - 1] as ProbeOutcome,
  };
}

describe("variantStats", () => {
  // p1: T T T; p2: T, other, none; n1: N, T(after an invalid attempt), N; n2: invalid ×2, N, other
  const records = [
    rec("a", "p1", 1, T),
    rec("a", "p1", 2, T),
    rec("a", "p1", 3, T),
    rec("a", "p2", 1, T),
    rec("a", "p2", 2, O("nb")),
    rec("a", "p2", 3, N),
    rec("a", "n1", 1, N),
    rec("a", "n1", 2, BAD, T),
    rec("a", "n1", 3, N),
    rec("a", "n2", 1, BAD, BAD),
    rec("a", "n2", 2, N),
    rec("a", "n2", 3, O("nb")),
  ];
  const s = variantStats("a", Q, records);
  it("counts TP/FP/TN/FN over answered probes only", () => {
    expect(s.counts).toEqual({ tp: 4, fn: 2, fp: 1, tn: 4 });
    expect(s.precision).toMatchObject({ value: 4 / 5, count: 4, of: 5 });
    expect(s.recall).toMatchObject({ value: 4 / 6, count: 4, of: 6 });
    expect(s.f1).toBeCloseTo((2 * 0.8 * (2 / 3)) / (0.8 + 2 / 3), 12);
    expect(s.false_trigger_rate).toMatchObject({ value: 1 / 5, count: 1, of: 5 });
    expect(s.accuracy).toMatchObject({ count: 8, of: 11 });
  });
  it("uses Wilson intervals (hand-computed for 4/5)", () => {
    // Wilson 95% for 4/5: centre (0.8 + 1.9208/5)/(1 + 3.8416/5) = 0.66947, half = 0.29385.
    expect(s.precision.ci?.low).toBeCloseTo(0.3755, 3);
    expect(s.precision.ci?.high).toBeCloseTo(0.9638, 3);
  });
  it("never counts an invalid probe as not triggered; reports invalid attempts", () => {
    const n2 = s.queries.find((q) => q.id === "n2");
    expect(n2).toMatchObject({ runs: 2, triggered: 0, invalid: 1, rate: 0 });
    expect(s.invalid_runs).toBe(3);
    expect(s.invalid_probes).toBe(1);
    expect(s.rerun_probes).toBe(2);
  });
  it("per-query rate and confusion with other Skills", () => {
    expect(s.queries.map((q) => q.rate)).toEqual([1, 1 / 3, 1 / 3, 0]);
    expect(s.queries[1]?.other_skills).toEqual({ nb: 1 });
    expect(s.confusion).toEqual([
      { skill: "nb", took_positive: 1, took_negative: 1, queries: ["p2", "n2"] },
    ]);
  });
  it("a query with no answer has no rate", () => {
    const t = variantStats("a", Q, [rec("a", "p1", 1, BAD)]);
    expect(t.queries[0]).toMatchObject({ runs: 0, rate: null, rate_ci: null, invalid: 1 });
    expect(t.precision.value).toBeNull();
    expect(t.f1).toBeNull();
  });
});

describe("compareVariants", () => {
  const many: TriggerQuery[] = Array.from({ length: 8 }, (_, i) => ({
    id: `q${i}`,
    query: `query ${i}`,
    should_trigger: i < 6,
  }));
  it("picks the better description and says when it is distinguishable from noise", () => {
    const records: ProbeRecord[] = [];
    for (const q of many)
      for (let r = 1; r <= 3; r++) {
        // good: right on every probe; weak: misses every positive query
        records.push(rec("good", q.id, r, q.should_trigger ? T : N));
        records.push(rec("weak", q.id, r, N));
      }
    const stats = [variantStats("weak", many, records), variantStats("good", many, records)];
    const [c] = compareVariants(many, records, stats);
    expect(c).toMatchObject({
      better: "good",
      candidate: "good",
      baseline: "weak",
      distinguishable: true,
    });
    expect(c?.sign_test).toMatchObject({ pos: 6, neg: 0, ties: 2 });
    expect(c?.sign_test.p).toBeCloseTo(2 * 0.5 ** 6, 12);
    expect(c?.mcnemar).toMatchObject({ pairs: 24, candidate_only: 18, baseline_only: 0 });
    expect(c?.conclusion).toMatch(/good triggers better than weak.*distinguishable from noise/);
  });
  it("a tie names no winner", () => {
    const records = many
      .map((q) => rec("a", q.id, 1, N))
      .concat(many.map((q) => rec("b", q.id, 1, N)));
    const [c] = compareVariants(many, records, [
      variantStats("a", many, records),
      variantStats("b", many, records),
    ]);
    expect(c?.better).toBeNull();
    expect(c?.distinguishable).toBe(false);
  });
  it("one variant: no comparison", () => {
    expect(compareVariants(Q, [], [variantStats("a", Q, [])])).toEqual([]);
  });
});

describe("planProbes and the report", () => {
  it("plans variant × query × rep in a stable order", () => {
    expect(planProbes(["a", "b"], Q.slice(0, 2), 2).map((p) => p.probe_id)).toEqual([
      "a/p1/r1",
      "a/p1/r2",
      "a/p2/r1",
      "a/p2/r2",
      "b/p1/r1",
      "b/p1/r2",
      "b/p2/r1",
      "b/p2/r2",
    ]);
  });
  it("triggers.json carries the issue's fields and triggers.md says it is scripted", () => {
    const r = buildTriggersReport({
      skill: { name: "cw", dir: "/s/cw", hash: "sha256:x" },
      agent: { name: "claude-code", version: "2.1.328", bin: "/bin/claude" },
      model: null,
      modelScript: "/s/model.yaml",
      settings: {
        count: 1,
        concurrency: 1,
        max_turns: 4,
        timeout_sec: 90,
        max_attempts: 3,
        sandbox: "local",
      },
      installed: { neighbours: ["nb"], decoys: ["d1"], skipped: [] },
      queries: Q,
      queriesSource: "/s/q.yaml",
      variants: [{ name: "current", description: "d", file: null }],
      records: [rec("current", "p1", 1, T), rec("current", "n1", 1, BAD, O("nb"))],
      notRun: ["current/p2/r1"],
      startedAt: "t0",
      finishedAt: "t1",
    });
    expect(r).toMatchObject({
      skill: "cw",
      agent: { name: "claude-code" },
      precision: { value: 1, ci: { high: 1 } },
      recall: { value: 1 },
      f1: 1,
      invalid_runs: 1,
    });
    expect(r.queries[0]).toMatchObject({
      query: "pos one",
      should_trigger: true,
      runs: 1,
      triggered: 1,
      invalid: 0,
      other_skills: {},
      rate: 1,
    });
    const md = renderTriggersMarkdown(r);
    expect(md).toMatch(/Scripted model/);
    expect(md).toMatch(/\| nb \| 0 \| 1 \| n1 \|/);
    expect(md).toMatch(/current\/n1\/r1 \| 1 \| api_error \| yes/);
    expect(md).toMatch(/1 probe\(s\) were not run/);
    const html = renderTriggersHtml({
      ...r,
      queries: r.queries,
      variants: r.variants.map((v) => ({
        ...v,
        queries: v.queries.map((q) => (q.id === "p1" ? { ...q, query: "<script>x</script>" } : q)),
      })),
    });
    expect(html).toContain("&#60;script&#62;x&#60;/script&#62;");
    expect(html).not.toContain("<script>");
    expect(html).toMatch(/Scripted model/);
    expect(html).toMatch(/<td>precision<\/td><td>1\.00<\/td>/);
    expect(html).toMatch(/<td>nb<\/td><td>0<\/td><td>1<\/td><td>n1<\/td>/);
  });
});
