/**
 * Trigger probes on Codex, Gemini CLI and opencode end to end (#37 item 5): ONE run of the built
 * CLI with `--agent codex,gemini,opencode`, the real binaries and the scripted model
 * (test/fixtures/triggers-agents: two should-trigger and two should-not queries, one probe each,
 * `--max-turns 2`). Hand-computed on every agent: q1 chooses the Skill (TP), q2 runs three
 * commands and passes the budget of two (FN, "turn budget"), q3 chooses it although it should
 * not (FP), q4 chooses a decoy (TN): precision 1/2, recall 1/2, Wilson [0.09, 0.91].
 * SKILLBENCH_RECORD_GOLDEN=1 copies the probes' streams to the fixtures (the unit tables of
 * test/unit/agents/trigger-detectors.test.ts read them). Also: an agent list naming one that
 * cannot be probed is refused by name (exit 2) before anything runs.
 */
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, makeSandbox, runCli, type CliResult, type Sandbox } from "../helpers/cli.js";

const FIX = path.join(REPO_ROOT, "test", "fixtures", "triggers-agents");
const SKILL = path.join(REPO_ROOT, "examples", "trigger-eval", "changelog-writer");
const AGENTS = ["codex", "gemini", "opencode"];
const QUERIES = ["q1", "q2", "q3", "q4"];

interface Json {
  [k: string]: unknown;
}
async function readJson(file: string): Promise<Json> {
  return JSON.parse(await readFile(file, "utf8")) as Json;
}

let sandbox: Sandbox;
let all: CliResult;
const out = (): string => sandbox.dir("all");

beforeAll(async () => {
  sandbox = await makeSandbox("triggers-agents");
  all = await runCli(
    [
      "triggers",
      SKILL,
      "--agent",
      AGENTS.join(","),
      "--queries",
      path.join(FIX, "queries.yaml"),
      "--model-script",
      path.join(FIX, "model-script.yaml"),
      "--out",
      out(),
      "-n",
      "1",
      // Each agent's four probes two at a time: the boots are the cost.
      "-j",
      "2",
      "--max-turns",
      "2",
      "--max-attempts",
      "1",
      "--timeout",
      "60",
      "--no-history",
    ],
    { env: sandbox.env() },
  );
  if (process.env.SKILLBENCH_RECORD_GOLDEN === "1")
    for (const a of AGENTS) {
      const dir = path.join(FIX, "streams", a);
      await mkdir(dir, { recursive: true });
      for (const q of QUERIES)
        await copyFile(
          path.join(out(), a, "probes", "current", q, "r1", "attempt-1.stdout.jsonl"),
          path.join(dir, `${q}.jsonl`),
        );
    }
}, 600_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("triggers --agent codex,gemini,opencode", () => {
  it("exits 0 and prints each agent's hand-computed precision and recall", () => {
    expect(all.code, all.stderr).toBe(0);
    for (const a of AGENTS)
      expect(all.stdout).toMatch(
        new RegExp(`${a} current: precision 0\\.50, recall 0\\.50, F1 0\\.50`),
      );
  });

  it.each(AGENTS)(
    "%s: every probe's outcome, how the choice showed, and the early stop",
    async (a) => {
      const report = await readJson(path.join(out(), a, "triggers.json"));
      expect(report.agent).toMatchObject({ name: a });
      const probes = report.probes as { probe: string; outcome: string; attempts: number }[];
      expect(Object.fromEntries(probes.map((p) => [p.probe, p.outcome]))).toEqual({
        "current/q1/r1": "triggered",
        "current/q2/r1": "nothing (turn budget)",
        "current/q3/r1": "triggered",
        "current/q4/r1": "other:dependency-updater",
      });
      const q1 = await readJson(path.join(out(), a, "probes", "current", "q1", "r1", "probe.json"));
      // Codex has no Skill tool: its choice is the SKILL.md it opens.
      expect(q1.outcome).toEqual({
        kind: "target",
        via: a === "codex" ? "skill_files" : "skill_tool",
      });
      const attempt = (q1.attempts as Json[])[0] as Json;
      // The script hangs after the choice: only the probe's stop ends the agent.
      expect(attempt).toMatchObject({ stopped_early: true, agent_outcome: "aborted" });
      const q2 = await readJson(path.join(out(), a, "probes", "current", "q2", "r1", "probe.json"));
      expect((q2.attempts as Json[])[0]).toMatchObject({
        stopped_early: false,
        detail: "stopped: 2 tool calls without a Skill chosen (the turn budget)",
      });
      expect(report.precision).toMatchObject({ value: 0.5, count: 1, of: 2 });
      expect(report.recall).toMatchObject({ value: 0.5, count: 1, of: 2 });
    },
  );

  it("writes the cross-agent table: intervals per agent, the same description on each agent", async () => {
    const r = await readJson(path.join(out(), "triggers-agents.json"));
    const agents = r.agents as { agent: string; variants: { precision: Json; recall: Json }[] }[];
    expect(agents.map((x) => x.agent)).toEqual(AGENTS);
    for (const x of agents) {
      const ci = x.variants[0]?.precision.ci as { low: number; high: number };
      expect([ci.low.toFixed(2), ci.high.toFixed(2)]).toEqual(["0.09", "0.91"]);
    }
    const same = r.same_description as { query: string; verdict: string }[];
    expect(Object.fromEntries(same.map((q) => [q.query, q.verdict]))).toEqual({
      q1: "triggers on every agent",
      q2: "triggers on no agent",
      q3: "triggers on every agent",
      q4: "triggers on no agent",
    });
    const md = await readFile(path.join(out(), "triggers-agents.md"), "utf8");
    expect(md).toMatch(/\| codex \| 0\.171\.0 \| current \| 0\.50 \(1\/2\) \| \[0\.09, 0\.91\] \|/);
    expect(md).toMatch(
      /\| current \| q1 \| .* \| yes \| 1\/1 \| 1\/1 \| 1\/1 \| triggers on every agent \|/,
    );
    const html = await readFile(path.join(out(), "triggers-agents.html"), "utf8");
    expect(html).toMatch(/<a href="gemini\/triggers.html">gemini<\/a>/);
  });
});

describe("an agent list with a name triggers cannot probe", () => {
  // (every built-in agent has probes; the refusal of a registered agent without a Skill
  // mechanism is test/unit/triggers/probing-driver.test.ts)
  it("is refused by name with exit 2 before any agent runs", async () => {
    const refused = await runCli(
      [
        "triggers",
        SKILL,
        "--agent",
        "codex,nosuch",
        "--queries",
        path.join(FIX, "queries.yaml"),
        "--out",
        sandbox.dir("refused"),
      ],
      { env: sandbox.env() },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--agent nosuch: unknown agent; use one of claude, codex, gemini, opencode/,
    );
    expect(existsSync(path.join(sandbox.dir("refused"), "codex"))).toBe(false);
  });
});
