/**
 * Depth of use in the reports (report/comparison/skill-use.ts) and the lift split by the key files
 * (report/comparison/band.ts), over hand-built reports.
 */
import { describe, expect, it } from "vitest";
import type { RunReport, SkillUsage } from "../../../src/core/report.js";
import { buildComparison, renderComparisonMarkdown } from "../../../src/report/comparison/index.js";
import { skillUseRows, skillUseSection } from "../../../src/report/comparison/skill-use.js";
import { rescoredSkillUsage } from "../../../src/runner/skill-usage.js";
import { makeMetadata, makeReport } from "./helpers.js";

const FILES = ["SKILL.md", "references/a.md", "references/b.md", "scripts/x.py"];
const SKILL = [{ name: "fmt", hash: `sha256:${"b".repeat(64)}` }];

function usage(read: string[], key?: string[]): SkillUsage {
  return {
    skill: "fmt",
    invoked: read.includes("SKILL.md"),
    files_read: read,
    scripts_run: [],
    coverage: read.length / FILES.length,
    files: FILES,
    ...(key ? { key_files: key } : {}),
  };
}

/** Two tasks × 2 reps; the candidate's rep 1 reads `references/a.md` and passes, rep 2 does not. */
function runs(key?: string[]): RunReport[] {
  const out: RunReport[] = [];
  for (const task of ["t1", "t2"])
    for (const rep of [1, 2]) {
      const readsKey = rep === 1;
      const a = makeReport({ task, rep, treatment: "A", passed: readsKey, skills: SKILL });
      a.skill_usage = [usage(readsKey ? ["SKILL.md", "references/a.md"] : ["SKILL.md"], key)];
      out.push(a);
      out.push(makeReport({ task, rep, treatment: "CONTROL", passed: false }));
    }
  return out;
}

describe("the Skill-use rows", () => {
  it.each([
    [
      "no key file: the least-read reference",
      undefined,
      "`fmt` fired in 2/2 runs; `references/b.md` read in 0/2; coverage 38% on average",
    ],
    [
      "a key file: it, marked",
      ["references/a.md"],
      "`fmt` fired in 2/2 runs; `references/a.md` (key file) read in 1/2; coverage 38% on average",
    ],
  ])("%s", (_, key, text) => {
    const rows = skillUseRows(runs(key));
    expect(rows.map((r) => [r.task, r.treatment, r.text])).toEqual([
      ["t1", "A", text],
      ["t2", "A", text],
    ]);
    expect(skillUseSection(rows)).toContain(`- t1 · A: ${text}`);
  });

  it("excluded runs and runs without a usage do not count; none at all: no section", () => {
    const rs = runs();
    const first = rs[0];
    if (first) first.sample_quality = { ...first.sample_quality, include_in_analysis: false };
    expect(skillUseRows(rs)[0]).toMatchObject({ task: "t1", runs: 1, fired: 1 });
    const none = rs.map(({ skill_usage: _u, ...r }) => r);
    expect(skillUseRows(none)).toEqual([]);
    expect(skillUseSection([])).toBeNull();
  });

  it("a Skill of SKILL.md alone names no file", () => {
    const r = makeReport({ treatment: "A", skills: SKILL });
    r.skill_usage = [{ ...usage(["SKILL.md"]), files: ["SKILL.md"], coverage: 1 }];
    expect(skillUseRows([r])[0]?.text).toBe("`fmt` fired in 1/1 runs; coverage 100% on average");
  });
});

describe("the lift split by the key files", () => {
  const meta = makeMetadata(["CONTROL", "A"]);

  it("absent without key files: comparison.json and the markdown as before", () => {
    const c = buildComparison({ reports: runs(), metadata: meta });
    expect(c.lift).not.toHaveProperty("key_file");
    expect(renderComparisonMarkdown(c)).not.toContain("Lift when key file");
  });

  it("read: +1.00 over 2 runs; not read: 0.00 over 2 runs", () => {
    const c = buildComparison({ reports: runs(["references/a.md"]), metadata: meta });
    expect(c.lift.key_file).toMatchObject({
      key_files: ["references/a.md"],
      read: { delta: 1, runs: 2 },
      not_read: { delta: 0, runs: 2 },
    });
    const md = renderComparisonMarkdown(c);
    expect(md).toMatch(/\| Lift when key file read \| \+1\.00 .*\(2 runs\) \|/);
    expect(md).toContain("## Skill use");
  });
});

describe("rescore", () => {
  it("derives the usage again over the files the run recorded, keeps it without evidence", () => {
    const old = { skill_usage: [usage(["SKILL.md"], ["references/a.md"])] };
    const evidence = {
      files_read: [".claude/skills/fmt/references/a.md"],
      commands_run: ["python .claude/skills/fmt/scripts/x.py"],
      skills_invoked: ["fmt"],
    };
    const again = rescoredSkillUsage(old, evidence);
    expect(again?.[0]).toMatchObject({
      files_read: ["SKILL.md", "references/a.md"],
      scripts_run: ["scripts/x.py"],
      coverage: 0.75,
      key_files: ["references/a.md"],
    });
    expect(rescoredSkillUsage(old, null)).toBe(old.skill_usage);
    expect(rescoredSkillUsage({}, null)).toBeUndefined();
  });
});
