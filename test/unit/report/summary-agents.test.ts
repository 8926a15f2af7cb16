/** summary.md with runs of several agents: an Agent column and one aggregate row per treatment × agent. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/core/report.js";
import { renderSummaryMarkdown } from "../../../src/report/summary-md.js";
import { makeReport, makeSummaryInput } from "./helpers.js";

function run(agent: RunReport["agent"]["name"], treatment: string, passed: boolean): RunReport {
  const r = makeReport({ task: "t1", treatment, rep: 1, passed });
  return {
    ...r,
    run_id: `t1-${treatment}@${agent}-r1`,
    agent: { name: agent, bin: null, version: agent === "codex" ? "0.171.0" : "2.1.328" },
  };
}

const input = (reports: RunReport[]) => makeSummaryInput(["CONTROL", "WITH_SKILL"], reports);

describe("summary.md by agent", () => {
  it("splits every table by agent when the runs used several", () => {
    const md = renderSummaryMarkdown(
      input([
        run("claude-code", "CONTROL", false),
        run("claude-code", "WITH_SKILL", true),
        run("codex", "CONTROL", true),
        run("codex", "WITH_SKILL", true),
      ]),
    );
    expect(md).toContain("**Agents:** claude-code 2.1.328, codex 0.171.0");
    expect(md).toMatch(/\| Task \| Treatment \| Agent \| Runs \| Passed \|/);
    expect(md).toMatch(/\| t1 \| CONTROL \| claude-code \| 1 \| 0\/1 \|/);
    expect(md).toMatch(/\| t1 \| CONTROL \| codex \| 1 \| 1\/1 \|/);
    expect(md).toContain("## Aggregated by Treatment and Agent");
    expect(md).toMatch(/\| WITH_SKILL \| codex \| 1\/1 \|/);
    expect(md).toContain("**Run 1 — t1 on codex:**");
  });

  it("keeps the single-agent layout, naming the agent that ran", () => {
    const md = renderSummaryMarkdown(
      input([run("codex", "CONTROL", true), run("codex", "WITH_SKILL", true)]),
    );
    expect(md).toContain("**Agent:** codex 0.171.0");
    expect(md).toMatch(/\| Task \| Treatment \| Runs \|/);
    expect(md).not.toContain("Aggregated by Treatment and Agent");
  });
});
