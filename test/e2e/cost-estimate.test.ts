/**
 * The cost estimate end to end (#35 items 1 and 2, docs/cost.md), with the bundled demo suite
 * played by the scripted model (its usage figures are deterministic) under a model the pricing
 * table knows (claude-sonnet-4-5: Claude Code prices it as the table does).
 *
 * beforeAll: one run of the demo (--count 1, 6 runs), then `--dry-run --estimate-from` it, then
 * a second run. The estimate must be within ±20 % of what the second run then used and cost,
 * read from its report.json files. Then the bad inputs: a pricing table without the model (the
 * estimate says unpriced), a malformed one and a missing --estimate-from folder (exit 2). And
 * `--pilot 1` at --count 2: the rest's start-up line is estimated from the pilot's runs.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const DEMO = path.join(REPO_ROOT, "examples", "demo-suite");
const MODEL = "claude-sonnet-4-5";

function demoArgs(...extra: string[]): string[] {
  return [
    "run",
    DEMO,
    "--model-script",
    path.join(DEMO, "model-script.yaml"),
    "--model",
    MODEL,
    "--count",
    "1",
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--no-html",
    ...extra,
  ];
}

/** The dry run's figures: total tokens and dollars (the means). */
function estimateOf(stdout: string): { tokens: number; usd: number } {
  const tokens = /· total ([\d,]+)/.exec(stdout)?.[1];
  const usd = /^ {2}cost {4}\$([\d.]+)/m.exec(stdout)?.[1];
  if (tokens === undefined || usd === undefined) throw new Error(`no estimate in:\n${stdout}`);
  return { tokens: Number(tokens.replace(/,/g, "")), usd: Number(usd) };
}

/** What a results folder's runs used and cost, from their report.json files. */
async function spentIn(out: string): Promise<{ tokens: number; usd: number; runs: number }> {
  let tokens = 0;
  let usd = 0;
  const ids = await readdir(path.join(out, "runs"));
  for (const id of ids) {
    const r = await readRunReport(out, id);
    tokens += r.events_summary?.total_tokens ?? 0;
    usd += r.events_summary?.total_cost_usd ?? 0;
  }
  return { tokens, usd, runs: ids.length };
}

let box: Sandbox;
let first: CliResult;
let dry: CliResult;
let second: CliResult;

beforeAll(async () => {
  box = await makeSandbox("cost");
  const env = box.env();
  first = await runCli(demoArgs("--out", box.dir("first")), { env });
  dry = await runCli(demoArgs("--dry-run", "--estimate-from", box.dir("first")), { env });
  second = await runCli(demoArgs("--out", box.dir("second")), { env });
}, 300_000);

afterAll(async () => {
  await box.remove();
});

describe("the estimate from an earlier run of the demo", () => {
  it("both runs finished (4/6 pass: the demo's CONTROL fails two tasks)", () => {
    expect(first.stdout).toContain("4/6 runs passed");
    expect(second.stdout).toContain("4/6 runs passed");
  });

  it("the dry run says where the figures came from and that the scripted cost is not real", () => {
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Estimate (6 runs, -j 2):");
    expect(dry.stdout).toContain(
      `source  6 run(s): earlier runs of the same task, treatment, agent and model (${box.dir("first")})`,
    );
    expect(dry.stdout).toContain("pricing table");
    expect(dry.stdout).toContain("scripted model (offline)");
    expect(dry.stdout).toContain("Dry run: no agent, validator or model server was started.");
  });

  it("is within ±20 % of what the next run then used and cost", async () => {
    const est = estimateOf(dry.stdout);
    const spent = await spentIn(box.dir("second"));
    expect(spent.runs).toBe(6);
    expect(spent.usd).toBeGreaterThan(0);
    expect(Math.abs(est.tokens - spent.tokens)).toBeLessThanOrEqual(0.2 * spent.tokens);
    expect(Math.abs(est.usd - spent.usd)).toBeLessThanOrEqual(0.2 * spent.usd);
  });

  it("the second run's start-up line carries the estimate and says the scripted cost is not real", () => {
    // From history: the first run is recorded in the default history store beside the results,
    // whose folders are a source when no --estimate-from is given (docs/cost.md).
    expect(second.stderr).toMatch(
      /skillbench: 6 runs planned \(6 to run, 0 already complete\)[^\n]*\n {2}estimate: [\d,]+ tokens, ~\d+m?\d*s at -j 2 \(6 from history\); scripted model \(offline\): the cost is not real/,
    );
  });
});

describe("bad input", () => {
  it("a pricing table without the run's model: tokens estimated, cost unpriced", async () => {
    const file = path.join(box.root, "other-pricing.yaml");
    await writeFile(
      file,
      "version: 1\nmodels:\n  gpt-5:\n    input: 1.25\n    output: 10\n    cache_read: 0.125\n",
    );
    const r = await runCli(
      demoArgs("--dry-run", "--estimate-from", box.dir("first"), "--pricing", file),
      { env: box.env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `6 run(s) unpriced: ${MODEL} is not in the pricing table ${file}; the agent itself reported $`,
    );
    expect(r.stdout).toMatch(/· total [1-9][\d,]*/);
  });

  it("a malformed pricing table: exit 2 naming the file, the field and the line", async () => {
    const file = path.join(box.root, "bad-pricing.yaml");
    await writeFile(
      file,
      "version: 1\nmodels:\n  claude-sonnet-4-5:\n    input: -3\n    output: 15\n    cache_read: 0.3\n",
    );
    for (const extra of [["--dry-run"], ["--out", box.dir("never")]]) {
      const r = await runCli(demoArgs(...extra, "--pricing", file), { env: box.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}: models.claude-sonnet-4-5.input (line 4)`);
    }
    await expect(readdir(box.dir("never"))).rejects.toThrow();
  });

  it("an --estimate-from folder that is not there: exit 2 naming it", async () => {
    const r = await runCli(demoArgs("--dry-run", "--estimate-from", box.dir("nowhere")), {
      env: box.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--estimate-from ${box.dir("nowhere")}: no such results folder`);
  });
});

describe("--pilot", () => {
  it("runs the pilot first, then the rest estimated from it, into one folder", async () => {
    const out = box.dir("pilot");
    const r = await runCli(
      demoArgs("--task", "hello-file", "--count", "2", "--pilot", "1", "--out", out),
      { env: box.env() },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("pilot: 2 run(s) done (1 per task and treatment)");
    expect(r.stderr).toMatch(
      /4 runs planned \(2 to run, 2 already complete\)[^\n]*\n {2}estimate: [\d,]+ tokens, [^\n]*\(2 from pilot\)/,
    );
    expect((await readdir(path.join(out, "runs"))).sort()).toEqual([
      "hello-file-CONTROL-r1",
      "hello-file-CONTROL-r2",
      "hello-file-WITH_SKILL-r1",
      "hello-file-WITH_SKILL-r2",
    ]);
    expect(JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8"))).toMatchObject({
      count: 2,
    });
  });
});

describe("--dry-run on calibrate and triggers", () => {
  it("calibrate: the one treatment, 2 × --count runs per task, with the estimate", async () => {
    const r = await runCli(
      [
        "calibrate",
        DEMO,
        "--treatment",
        "WITH_SKILL",
        "--count",
        "2",
        "--model",
        MODEL,
        "--dry-run",
        "--estimate-from",
        box.dir("first"),
      ],
      { env: box.env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("12 runs planned (3 tasks × 1 treatments × 4 repetitions at most)");
    expect(r.stdout).toContain("Estimate (12 runs, -j 2):");
    expect(r.stdout).toContain("source  12 run(s): earlier runs");
    expect(r.stdout).toContain("Dry run: no agent, validator or model server was started.");
  });

  /** `triggers --dry-run` of the bundled example under MODEL. */
  function triggersDryRun(...extra: string[]): Promise<CliResult> {
    const fix = path.join(REPO_ROOT, "examples", "trigger-eval");
    const skill = path.join(fix, "changelog-writer");
    const queries = path.join(fix, "queries.yaml");
    return runCli(
      ["triggers", skill, "--queries", queries, "--model", MODEL, "--dry-run", ...extra],
      {
        env: box.env(),
      },
    );
  }

  it("triggers: the probes and their estimate from the agent's figure scaled to a probe", async () => {
    const r = await triggersDryRun();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("21 probes planned (1 variant(s) × 7 queries × 3 repetitions)");
    expect(r.stdout).toContain("Estimate (21 probes, -j 1):");
    expect(r.stdout).toMatch(/cost {4}\$[\d.]+ \(range/);
    expect(r.stdout).toContain("Dry run: no agent or model server was started.");
  });

  it("triggers on several agents: every agent's probes, each from its own figure", async () => {
    const r = await triggersDryRun("--agent", "claude,codex");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "21 probes planned (1 variant(s) × 7 queries × 3 repetitions), on each of 2 agents (claude, codex)",
    );
    // 21 × 93,200 (Claude's probe) + 21 × 85,600 (Codex's); 21 × 36 s, then 21 × 48 s.
    expect(r.stdout).toContain("Estimate (42 probes, -j 1):");
    expect(r.stdout).toContain("· total 3,754,800 (range");
    expect(r.stdout).toContain("wall    29m24s (range");
  });
});
