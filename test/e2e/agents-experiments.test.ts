/**
 * Experiments across agents, end to end with the built CLI, every real agent binary and the
 * scripted model (docs/agents.md):
 * - the demo suite under each agent: `--agent claude,codex,gemini,opencode` runs every treatment
 *   on each (24 runs, two at a time), and every run completes with the Skill's runs passing;
 * - treatments pinned to claude and codex give a per-agent comparison (and the pooled verdict is
 *   refused), with the judge carried by a third agent's CLI (`--judge-agent gemini`).
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comparison } from "../../src/report/comparison/index.js";
import { readReports } from "../../src/store/read.js";
import type { RunReport } from "../../src/core/report.js";
import { assertBuilt, makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";

const DEMO = path.join(REPO_ROOT, "examples/demo-suite");
const SCRIPT = path.join(DEMO, "model-script.yaml");
const AGENTS = ["claude-code", "codex", "gemini", "opencode"] as const;

let box: Sandbox;
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("agents-exp");
});
afterAll(async () => {
  await box?.remove();
});

async function comparisonOf(out: string): Promise<Comparison> {
  return JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
}

describe("the demo suite under each agent", () => {
  let out: string;
  let reports: RunReport[];
  let code: number | null;
  beforeAll(async () => {
    out = box.dir("demo-all");
    const r = await runCli(
      [
        "run",
        DEMO,
        "--model-script",
        SCRIPT,
        "--count",
        "1",
        "-j",
        "2",
        "--agent",
        "claude,codex,gemini,opencode",
        "--agent-retries",
        "0",
        "--out",
        out,
        "--exit-zero",
      ],
      { env: box.env() },
    );
    code = r.code;
    reports = (await readReports(out)).reports;
  }, 1_200_000);

  it("runs every task and treatment on every agent, and each completes", () => {
    expect(code).toBe(0);
    expect(reports).toHaveLength(24);
    for (const agent of AGENTS) {
      const mine = reports.filter((r) => r.agent.name === agent);
      expect(mine, agent).toHaveLength(6);
      expect(new Set(mine.map((r) => r.agent.version)).size, agent).toBe(1);
      expect(mine[0]?.agent.version, agent).toMatch(/^\d+\.\d+\.\d+/);
      for (const r of mine) {
        expect(r.outcome, r.run_id).toBe("completed");
        expect(r.run_id).toContain(`@${agent === "claude-code" ? "claude" : agent}-r1`);
      }
      // The Skill's runs pass on every agent: the scenario is agent-neutral.
      const withSkill = mine.filter((r) => r.treatment === "WITH_SKILL");
      expect(
        withSkill.map((r) => [r.task, r.passed, r.events_summary?.skills_invoked]),
        agent,
      ).toEqual([
        ["add-function", true, ["house-style"]],
        ["changelog-entry", true, ["house-style"]],
        ["hello-file", true, ["house-style"]],
      ]);
    }
  });

  it("compares WITH_SKILL with CONTROL on each agent", async () => {
    const c = await comparisonOf(out);
    expect(c.agents.map((a) => a.agent)).toEqual([...AGENTS]);
    expect(c.verdict.kind).toBe("mixed_agents");
    expect(c.by_agent.map((a) => a.agent)).toEqual([...AGENTS]);
    for (const a of c.by_agent) {
      const mine = reports.filter((r) => r.agent.name === a.agent);
      const rate = (t: string): number =>
        mine.filter((r) => r.treatment === t && r.passed).length / 3;
      expect(a.comparison?.roles.candidate).toBe("WITH_SKILL");
      expect(a.comparison?.verdict.delta, a.agent).toBeCloseTo(
        rate("WITH_SKILL") - rate("CONTROL"),
      );
    }
  });
});

describe("treatments pinned to claude and codex", () => {
  let out: string;
  let reports: RunReport[];
  beforeAll(async () => {
    const suite = box.dir("pinned-suite");
    await cp(DEMO, suite, { recursive: true });
    await writeFile(
      path.join(suite, "treatments/demo.yaml"),
      [
        "CONTROL:",
        "  description: No skills baseline",
        "  agent: [claude, codex]",
        "WITH_SKILL:",
        "  agent: [claude, codex]",
        "  skills: [../skills/house-style]",
        "",
      ].join("\n"),
    );
    out = box.dir("pinned");
    const r = await runCli(
      [
        "run",
        suite,
        "--model-script",
        path.join(suite, "model-script.yaml"),
        "--task",
        "hello-file",
        "--count",
        "1",
        "-j",
        "2",
        "--agent",
        "opencode",
        "--judge",
        "--judge-model",
        "scripted-judge",
        "--judge-agent",
        "gemini",
        "--agent-retries",
        "0",
        "--out",
        out,
        "--exit-zero",
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    reports = (await readReports(out)).reports;
  }, 600_000);

  it("runs each pinned treatment on its agents (the --agent default does not apply)", async () => {
    expect(reports.map((r) => [r.run_id, r.agent.name]).sort()).toEqual([
      ["hello-file-CONTROL@claude-r1", "claude-code"],
      ["hello-file-CONTROL@codex-r1", "codex"],
      ["hello-file-WITH_SKILL@claude-r1", "claude-code"],
      ["hello-file-WITH_SKILL@codex-r1", "codex"],
    ]);
    const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
      agents: Array<{ name: string; version: string | null; treatments: string[] }>;
    };
    expect(meta.agents.map((a) => [a.name, a.treatments])).toEqual([
      ["claude-code", ["CONTROL", "WITH_SKILL"]],
      ["codex", ["CONTROL", "WITH_SKILL"]],
    ]);
  });

  it("writes a per-agent comparison and refuses the pooled one", async () => {
    const c = await comparisonOf(out);
    expect(c.mixed_arms.map((m) => m.treatment)).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.reason).toContain("ran on more than one agent");
    expect(c.by_agent.map((a) => [a.agent, a.comparison?.run_counts.map((r) => r.runs)])).toEqual([
      ["claude-code", [1, 1]],
      ["codex", [1, 1]],
    ]);
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toContain("## By agent");
    expect(md).toMatch(
      /\| claude-code \| \d+\.\d+\.\d+ \| 2 \| 1\/1 \(100%\) \| 0\/1 \(0%\) \| \+1\.00/,
    );
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    expect(summary).toMatch(/\| hello-file \| WITH_SKILL \| codex \| 1 \| 1\/1 \|/);
  });

  it("carries the judge through the Gemini CLI", () => {
    for (const r of reports) {
      expect(r.judge?.status, r.run_id).toBe("enabled_and_successful");
      expect(r.judge?.transport).toBe("cli");
      expect(r.judge?.agent).toBe("gemini");
    }
  });
});
