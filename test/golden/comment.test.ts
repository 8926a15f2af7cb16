/**
 * Golden files of `skillbench comment` (test/golden/comment/<case>.md), rendered by the pure
 * renderer from synthetic experiments of each band, and one over GitHub's size limit. After an
 * intended change: `UPDATE_GOLDEN=1 npx vitest run test/golden/comment.test.ts` and review the diff.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writeExperimentReports } from "../../src/index.js";
import { readCommentSkill } from "../../src/report/comment/read.js";
import {
  GITHUB_COMMENT_LIMIT,
  renderComment,
  type CommentSkill,
} from "../../src/report/comment/render.js";

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "comment");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

function skill(over: Partial<CommentSkill>): CommentSkill {
  return {
    skill: "house-style",
    kind: "eval",
    dir: ".skillbench/runs/20261206-101500-ab12cd",
    agent: "claude-code",
    model: "claude-sonnet-4-5",
    scripted: false,
    candidate: "WITH_SKILL",
    baseline: "CONTROL",
    band: "improved",
    reason:
      "`WITH_SKILL` passes more often than `CONTROL`: Δ pass rate +0.50 [+0.20, +0.80] lies above 0.",
    delta: { estimate: 0.5, low: 0.2, high: 0.8 },
    lift: { estimate: 0.6, low: 0.3, high: 0.9, invocation_rate: 0.83 },
    triggers: null,
    health: null,
    gates: {
      ok: true,
      rows: [
        {
          metric: "pass_rate",
          treatment: "WITH_SKILL",
          value: 0.9,
          min: 0.8,
          ok: true,
          detail: "0.90 ≥ 0.80",
        },
      ],
    },
    cost_usd: 1.2345,
    tasks: [
      {
        task: "add-function",
        cells: [
          { treatment: "CONTROL", c: 1, n: 3 },
          { treatment: "WITH_SKILL", c: 3, n: 3 },
        ],
      },
      {
        task: "changelog-entry",
        cells: [
          { treatment: "CONTROL", c: 0, n: 3 },
          { treatment: "WITH_SKILL", c: 2, n: 3 },
        ],
      },
    ],
    ...over,
  };
}

const tasks = (k: number): CommentSkill["tasks"] =>
  Array.from({ length: k }, (_, i) => ({
    task: `task-with-a-rather-long-name-${String(i).padStart(5, "0")}`,
    cells: [
      { treatment: "CONTROL", c: i % 3, n: 3 },
      { treatment: "WITH_SKILL", c: (i + 1) % 4, n: 3 },
    ],
  }));

const CASES: Record<string, Parameters<typeof renderComment>[0]> = {
  improved: { skills: [skill({})] },
  regressed: {
    skills: [
      skill({
        band: "regressed",
        reason:
          "`WITH_SKILL` passes less often than `CONTROL`: Δ pass rate −0.40 [−0.70, −0.10] lies below 0.",
        delta: { estimate: -0.4, low: -0.7, high: -0.1 },
        lift: { estimate: -0.45, low: -0.8, high: -0.1, invocation_rate: 1 },
        health: ["task add-function: the validator passes on the untouched workspace"],
        gates: {
          ok: false,
          rows: [
            {
              metric: "no regression vs CONTROL",
              treatment: "WITH_SKILL",
              value: -0.4,
              min: null,
              ok: false,
              detail: "regressed",
            },
          ],
        },
      }),
    ],
    marker: "pr-checks",
  },
  "non-inferior": {
    skills: [
      skill({
        kind: "run",
        band: "non_inferior",
        reason:
          "`WITH_SKILL` is no worse than `CONTROL` by more than the margin: Δ pass rate +0.67 [+0.00, +1.00] stays above −0.05.",
        delta: { estimate: 0.67, low: 0, high: 1 },
        gates: null,
        health: [],
        scripted: true,
        model: null,
        cost_usd: 0.252,
      }),
      skill({
        skill: "house-style",
        kind: "triggers",
        band: null,
        reason: null,
        delta: null,
        lift: null,
        candidate: null,
        baseline: null,
        gates: null,
        tasks: [],
        cost_usd: null,
        scripted: true,
        model: null,
        triggers: {
          precision: { value: 0.9, count: 9, of: 10, ci: { low: 0.6, high: 0.98 } },
          recall: { value: 0.75, count: 6, of: 8, ci: { low: 0.41, high: 0.93 } },
        },
      }),
    ],
  },
  inconclusive: {
    skills: [
      skill({
        band: "inconclusive",
        reason:
          "The difference is not distinguishable from noise at this sample size: Δ pass rate +0.10 [−0.30, +0.50] includes 0. Add tasks | runs.",
        delta: { estimate: 0.1, low: -0.3, high: 0.5 },
        lift: null,
        cost_usd: null,
      }),
    ],
  },
  // 3 Skills × 1500 tasks: the per-task details alone are over the limit, so they are dropped.
  "over-limit": {
    skills: ["alpha", "beta", "gamma"].map((name) => skill({ skill: name, tasks: tasks(1500) })),
  },
};

/** Every markdown table in the body is whole: a header, its separator, rows of as many cells. */
function tablesWhole(body: string): void {
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!line.startsWith("|") || (lines[i - 1] ?? "").startsWith("|")) continue;
    const cols = line.split(/(?<!\\)\|/).length;
    expect(lines[i + 1]).toMatch(/^\| ---/);
    for (let j = i; (lines[j] ?? "").startsWith("|"); j++)
      expect((lines[j] ?? "").split(/(?<!\\)\|/).length).toBe(cols);
  }
}

describe("comment golden files", () => {
  for (const [name, input] of Object.entries(CASES)) {
    it(name, () => {
      const body = renderComment(input);
      expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
      expect(body.startsWith("<!-- skillbench-comment")).toBe(true);
      tablesWhole(body);
      const file = path.join(HERE, `${name}.md`);
      if (UPDATE) writeFileSync(file, body);
      expect(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(body).toBe(readFileSync(file, "utf8"));
    });
  }

  it("over the limit: per-task details are left out first, and it says so", () => {
    const body = renderComment(CASES["over-limit"] ?? { skills: [] });
    expect(body).not.toContain("<details>");
    expect(body).toContain("### gamma");
    expect(body).toContain("Per-task details left out");
  });

  it("far over the limit: one line per Skill, then as many as fit, what was left out said", () => {
    const many = Array.from({ length: 4000 }, (_, i) =>
      skill({ skill: `skill-${i}`, tasks: tasks(3) }),
    );
    const body = renderComment({ skills: many });
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).not.toContain("###");
    expect(body).toMatch(/_\d+ more experiment\(s\) left out/);
    const shown = body.split("\n").filter((l) => l.startsWith("- **skill-")).length;
    expect(shown).toBeGreaterThan(100);
    expect(body).toContain(`${4000 - shown} more experiment(s) left out`);
    const fewer = renderComment({ skills: many.slice(0, 300) });
    expect(fewer).toContain("Summarised to one line per Skill");
    expect(fewer.split("\n").filter((l) => l.startsWith("- **skill-")).length).toBe(300);
  });
});

describe("reading a results folder", () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillbench-comment-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("the demo's stored runs: band, interval, lift, cost, scripted, per task", async () => {
    const dir = path.join(tmp, "demo");
    cpSync(path.join(HERE, "..", "demo", "results"), dir, { recursive: true });
    await writeExperimentReports(dir, { html: false });
    const s = await readCommentSkill(dir);
    expect(s).toMatchObject({
      kind: "run",
      band: "non_inferior",
      candidate: "WITH_SKILL",
      baseline: "CONTROL",
      scripted: true,
      agent: "claude-code",
      delta: { low: 0, high: 1 },
      lift: { invocation_rate: 1 },
      health: null,
      gates: null,
    });
    expect(s.cost_usd).toBeCloseTo(0.252, 6);
    expect(s.tasks.map((t) => t.task)).toEqual(["add-function", "changelog-entry", "hello-file"]);
    // health.json, when present, is shown; one that does not parse names its file and field.
    writeFileSync(
      path.join(dir, "health.json"),
      JSON.stringify({
        problems: [
          { task: "add-function", kind: "vacuous", cause: "every check passes untouched" },
          { task: "hello-file", check: "hello_exact", kind: "flaky", cause: "passed, failed" },
          { task: "hello-file", kind: "no_checks", cause: "a note: not shown" },
        ],
      }),
    );
    expect((await readCommentSkill(dir)).health).toEqual([
      "add-function · vacuous: every check passes untouched",
      "hello-file · hello_exact · flaky: passed, failed",
    ]);
    writeFileSync(
      path.join(dir, "comparison.json"),
      JSON.stringify({ verdict: { band: "great" } }),
    );
    await expect(readCommentSkill(dir)).rejects.toThrow(/comparison\.json: field verdict\.band/);
  });

  it("a folder that is not a results folder is refused by name", async () => {
    await expect(readCommentSkill(tmp)).rejects.toThrow(/not a results folder/);
  });
});
