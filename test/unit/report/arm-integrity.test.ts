import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { buildComparison, renderComparisonMarkdown } from "../../../src/report/comparison/index.js";
import { makeMetadata, makeReport } from "./helpers.js";

const SKILL = [{ name: "house-style", hash: `sha256:${"b".repeat(64)}` }];

/** 4 tasks × 2 reps: the candidate always passes, CONTROL never: improved, unless a leak. */
function runs(leak: RunReport["arm_integrity"] | null): RunReport[] {
  const out: RunReport[] = [];
  for (const task of ["t1", "t2", "t3", "t4"])
    for (const rep of [1, 2]) {
      const a = makeReport({ task, rep, treatment: "A", passed: true, skills: SKILL });
      // A invokes its Skill and CONTROL's checks differ from A's: no hygiene finding.
      if (a.events_summary) a.events_summary.skills_invoked = ["house-style"];
      out.push(a);
      const c = makeReport({ task, rep, treatment: "CONTROL", passed: false });
      c.checks_passed = [];
      if (leak && task === "t2") c.arm_integrity = leak;
      out.push(c);
    }
  return out;
}

const LEAK: NonNullable<RunReport["arm_integrity"]> = [
  {
    kind: "arm_leak",
    skill: "house-style",
    path: ".claude/skills/house-style/SKILL.md",
    cause:
      "Read named .claude/skills/house-style/SKILL.md, a file of the Skill house-style, which this arm does not install",
  },
];

describe("arm_leak in the comparison", () => {
  const meta = makeMetadata(["CONTROL", "A"]);

  it("without a leak: decided by the interval, no arm_integrity field, no section", () => {
    const c = buildComparison({ reports: runs(null), metadata: meta });
    expect(c.verdict.band).toBe("improved");
    expect("arm_integrity" in c).toBe(false);
    expect(renderComparisonMarkdown(c)).not.toContain("## Arm integrity");
  });

  it("a leak into CONTROL makes the band inconclusive, names it, and lists it", () => {
    const c = buildComparison({ reports: runs(LEAK), metadata: meta });
    expect(c.verdict).toMatchObject({ band: "inconclusive", rule: "arm_leak" });
    expect(c.verdict.reason).toContain("arm_leak: house-style in `CONTROL` (2 run(s) of t2)");
    expect(c.verdict.runs_needed.status).toBe("data_quality");
    expect(c.arm_integrity).toEqual([
      {
        kind: "arm_leak",
        task: "t2",
        treatment: "CONTROL",
        agent: "claude-code",
        subject: "house-style",
        runs: ["t2-CONTROL-r1", "t2-CONTROL-r2"],
        cause: LEAK[0]?.cause,
      },
    ]);
    const md = renderComparisonMarkdown(c);
    expect(md).toContain("## Arm integrity and assertion hygiene");
    expect(md).toContain("| arm_leak | t2 | CONTROL | claude-code | house-style | 2 |");
  });

  it("skill_drift is listed but does not move the band", () => {
    const drift = [{ ...LEAK[0], kind: "skill_drift" as const, cause: "drifted" }];
    const reports = runs(null);
    const a = reports.find((r) => r.treatment === "A");
    if (a) a.arm_integrity = drift as RunReport["arm_integrity"];
    const c = buildComparison({ reports, metadata: meta });
    expect(c.verdict.band).toBe("improved");
    expect(c.arm_integrity?.map((p) => p.kind)).toEqual(["skill_drift"]);
  });
});
