/** Comparisons by agent (src/report/comparison/agents.ts): split, refused pooling, warnings. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { buildComparison, renderComparisonMarkdown } from "../../../src/report/comparison/index.js";
import { decideGates } from "../../../src/manifest/gates.js";
import { makeMetadata, makeReport } from "./helpers.js";

type AgentName = RunReport["agent"]["name"];

/** `n` runs of a treatment on an agent for each of `tasks`; `pass` decides each run. */
function arm(
  agent: AgentName,
  treatment: string,
  tasks: string[],
  n: number,
  pass: (task: string, rep: number) => boolean,
): RunReport[] {
  return tasks.flatMap((task) =>
    Array.from({ length: n }, (_, i) => {
      const r = makeReport({ task, treatment, rep: i + 1, passed: pass(task, i + 1) });
      return {
        ...r,
        run_id: `${task}-${treatment}@${agent}-r${i + 1}`,
        agent: { name: agent, bin: null, version: agent === "codex" ? "0.171.0" : "2.1.328" },
      };
    }),
  );
}

const TASKS = ["t1", "t2", "t3", "t4", "t5", "t6"];
const meta = makeMetadata(["CONTROL", "WITH_SKILL"]);

describe("a cross-agent experiment", () => {
  // Claude Code: the Skill turns every failure into a pass. Codex: it changes nothing.
  const reports = [
    ...arm("claude-code", "CONTROL", TASKS, 2, () => false),
    ...arm("claude-code", "WITH_SKILL", TASKS, 2, () => true),
    ...arm("codex", "CONTROL", TASKS, 2, (_t, rep) => rep === 1),
    ...arm("codex", "WITH_SKILL", TASKS, 2, (_t, rep) => rep === 1),
  ];
  const c = buildComparison({ reports, metadata: meta });

  it("compares the same pair on each agent alone", () => {
    expect(c.agents.map((a) => [a.agent, a.versions, a.runs])).toEqual([
      ["claude-code", ["2.1.328"], 24],
      ["codex", ["0.171.0"], 24],
    ]);
    expect(c.by_agent.map((a) => a.agent)).toEqual(["claude-code", "codex"]);
    const [claude, codex] = c.by_agent;
    expect(claude?.comparison?.roles).toEqual({
      candidate: "WITH_SKILL",
      baseline: "CONTROL",
      control: "CONTROL",
    });
    expect(claude?.comparison?.verdict.delta).toBeCloseTo(1);
    expect(claude?.comparison?.verdict.band).toBe("improved");
    expect(codex?.comparison?.verdict.delta).toBeCloseTo(0);
    expect(codex?.comparison?.verdict.band).not.toBe("improved");
    // Each agent's comparison sees only its own runs.
    expect(claude?.comparison?.run_counts.map((r) => r.runs)).toEqual([12, 12]);
    expect(claude?.comparison).not.toHaveProperty("source_evidence");
  });

  it("refuses to pool arms that mix agents: inconclusive, with the per-agent result", () => {
    expect(c.mixed_arms.map((m) => m.treatment)).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(c.verdict.kind).toBe("mixed_agents");
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.reason).toContain("ran on more than one agent");
    expect(c.verdict.reason).toContain("claude-code Δ +1.00");
    // every line derived from the band agrees: nothing is decided on the pooled runs
    expect(c.verdict.rule).toBe("mixed_agents");
    expect(c.paired.distinguishable).toBe(false);
    expect(c.verdict.runs_needed.status).toBe("nothing");
    expect(c.paired.conclusion).toContain("mixes agents and decides nothing");
    expect(c.verdict.reason).toContain("codex Δ +0.00");
  });

  it("renders a By agent table", () => {
    const md = renderComparisonMarkdown(c);
    expect(md).toContain("## By agent");
    expect(md).toMatch(
      /\| claude-code \| 2\.1\.328 \| 24 \| 12\/12 \(100%\) \| 0\/12 \(0%\) \| \+1\.00 .*\| \*\*improved\*\* \|/,
    );
    expect(md).toMatch(/\| codex \| 0\.171\.0 \| 24 \| 6\/12 \(50%\) \| 6\/12 \(50%\) \| \+0\.00 /);
    expect(md).toContain("- Agents: claude-code 2.1.328 (24 run(s)), codex 0.171.0 (24 run(s))");
    // Two agents differ in version by nature: no version warning.
    expect(c.warnings.map((w) => w.kind)).toEqual([]);
  });

  it("holds the noRegression gate on every agent", () => {
    const worse = [
      ...reports.filter((r) => r.agent.name === "claude-code"),
      ...arm("codex", "CONTROL", TASKS, 2, () => true),
      ...arm("codex", "WITH_SKILL", TASKS, 2, () => false),
    ];
    const gate = (cmp: ReturnType<typeof buildComparison>) =>
      decideGates([{ key: "noRegression", kind: "no_regression" }], {
        candidate: "WITH_SKILL",
        baseline: "CONTROL",
        reports: cmp === c ? reports : worse,
        comparison: cmp,
      }).gates[0];
    expect(gate(c)?.ok).toBe(true);
    const bad = gate(buildComparison({ reports: worse, metadata: meta }));
    expect(bad?.ok).toBe(false);
    expect(bad?.detail).toBe(
      "codex: rubric regression on completion; codex: pass rate lower than the baseline (band regressed: Δ -1.000, interval -1.000…-0.657)",
    );
  });
});

describe("agents that ran only some arms", () => {
  it("says which arm an agent lacks", () => {
    const reports = [
      ...arm("claude-code", "CONTROL", TASKS, 1, () => false),
      ...arm("claude-code", "WITH_SKILL", TASKS, 1, () => true),
      ...arm("codex", "WITH_SKILL", TASKS, 1, () => true),
    ];
    const c = buildComparison({ reports, metadata: meta });
    expect(c.mixed_arms.map((m) => m.treatment)).toEqual(["WITH_SKILL"]);
    expect(c.verdict.kind).toBe("mixed_agents");
    const codex = c.by_agent.find((a) => a.agent === "codex");
    expect(codex?.comparison).toBeNull();
    expect(codex?.reason).toBe("no run of `CONTROL` on codex");
  });

  it("warns when each arm ran on one agent but not the same one", () => {
    const reports = [
      ...arm("claude-code", "CONTROL", TASKS, 1, () => false),
      ...arm("codex", "WITH_SKILL", TASKS, 1, () => true),
    ];
    const c = buildComparison({ reports, metadata: meta });
    expect(c.mixed_arms).toEqual([]);
    expect(c.verdict.kind).not.toBe("mixed_agents");
    expect(c.warnings.map((w) => w.kind)).toEqual(["agent"]);
    expect(c.warnings[0]?.message).toContain(
      "the candidate ran on codex and the baseline on claude-code",
    );
    expect(c.by_agent.map((a) => a.reason)).toEqual([
      "no run of `WITH_SKILL` on claude-code",
      "no run of `CONTROL` on codex",
    ]);
  });

  it("leaves a single-agent experiment as it was", () => {
    const reports = [
      ...arm("claude-code", "CONTROL", TASKS, 1, () => false),
      ...arm("claude-code", "WITH_SKILL", TASKS, 1, () => true),
    ];
    const c = buildComparison({ reports, metadata: meta });
    expect(c.by_agent).toEqual([]);
    expect(c.mixed_arms).toEqual([]);
    expect(c.verdict.kind).not.toBe("mixed_agents");
    expect(renderComparisonMarkdown(c)).not.toContain("## By agent");
  });
});
