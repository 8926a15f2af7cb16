/**
 * Budgets that hold (docs/budgets.md), end to end: the built CLI, the real claude binary and the
 * scripted model, whose usage figures are deterministic. skillbench meters the usage itself as
 * the replies stream (here: the scripted model's replies, each counted as it is written).
 * - The demo suite under a token budget that covers 10 of its 18 runs (at -j 1, in plan order):
 *   10 runs, the other 8 left unrun (no report, listed in metadata.json), none failed by it;
 *   `--resume` with a larger budget runs the 8 and finishes. 28 claude spawns.
 * - A run whose long reply crosses `--max-run-usd` is stopped: invalid, cause budget, excluded,
 *   never a failure; the run beside it is untouched. 2 claude spawns.
 * - A budget of zero or below is bad input: exit 2, no run.
 */
import path from "node:path";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  reportedRunIds,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const DEMO = path.join(REPO_ROOT, "examples", "demo-suite");
const demoArgs = (out: string, ...extra: string[]): string[] => [
  "run",
  DEMO,
  "--model-script",
  path.join(DEMO, "model-script.yaml"),
  "--out",
  out,
  "--env",
  "CLAUDE_CODE_MAX_RETRIES=0",
  "-j",
  "1",
  ...extra,
];

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-budget");
});

afterAll(async () => {
  await sandbox?.remove();
});

interface BudgetMeta {
  spent_tokens: number;
  refused: string | null;
  unrun: string[];
  stopped: string[];
}
async function budgetOf(out: string): Promise<BudgetMeta> {
  const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
    budget: BudgetMeta;
  };
  return meta.budget;
}

describe("an experiment budget", () => {
  // The demo's runs meter 8,560 to 17,120 tokens each (every kind together); the first 10 in plan
  // order (add-function ×6, changelog-entry CONTROL ×3 and WITH_SKILL r1) 132,680. With 140,000
  // the 11th (changelog-entry WITH_SKILL r2, estimated at 12,840: the largest of its task's runs
  // recorded when it asks, the 10th still in its checks) is not covered by the 7,320 left, so no
  // run starts after the 10th.
  it("covering 10 of the demo's 18 runs stops at 10, the rest unrun and none failed; --resume with a larger budget finishes", async () => {
    const out = sandbox.dir("demo");
    const first = await runCli(demoArgs(out, "--budget-tokens", "140000"), {
      env: sandbox.env(),
    });
    expect(first.code, first.stderr).toBe(1); // not every run passed (8 never ran)
    const ran = await reportedRunIds(out);
    expect(ran).toHaveLength(10);
    const reports = await Promise.all(ran.map((id) => readRunReport(out, id)));
    expect(reports.filter((r) => r.outcome === "budget")).toEqual([]);
    expect(reports.every((r) => r.outcome === "completed")).toBe(true);
    expect(reports.reduce((n, r) => n + (r.metered?.total_tokens ?? 0), 0)).toBe(132_680);
    const b = await budgetOf(out);
    expect(b.spent_tokens).toBe(132_680);
    expect(b.unrun).toHaveLength(8);
    expect(b.unrun).toContain("changelog-entry-WITH_SKILL-r2");
    expect(b.refused).toMatch(
      /the budget of 140000 tokens has 7320 left, the run is estimated at 12840/,
    );
    expect(first.stdout).toMatch(/8 run\(s\) left unrun \(budget\): continue with --resume --out/);
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    expect(summary).toMatch(/## Budget/);
    expect(summary).toMatch(/8 run\(s\) left unrun \(budget\)/);
    const comparison = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(comparison).toMatch(/## Budget/);

    // The budget is the experiment's: what the 10 runs spent counts against the new one.
    const again = await runCli(demoArgs(out, "--resume", "--budget-tokens", "300000"), {
      env: sandbox.env(),
    });
    expect(again.code, again.stderr).toBe(1); // the demo's CONTROL runs fail by design
    expect(await reportedRunIds(out)).toHaveLength(18);
    const after = await budgetOf(out);
    expect(after.unrun).toEqual([]);
    expect(after.refused).toBeNull();
    expect(after.spent_tokens).toBe(231_120);
  }, 300_000);
});

describe("a run's cap", () => {
  it("a run whose long reply crosses --max-run-usd is stopped: invalid, cause budget, never a failure", async () => {
    const out = sandbox.dir("cap");
    const cli = await runCli(runArgs("budget", out, "--max-run-usd", "1"), {
      env: sandbox.env(),
    });
    expect(cli.code, cli.stderr).toBe(1);
    const r = await readRunReport(out, "overspend-CONTROL-r1");
    expect(r.outcome).toBe("budget");
    expect(r.status).toBe("errored");
    expect(r.passed).toBe(false);
    expect(r.sample_quality).toMatchObject({
      status: "excluded",
      reason_code: "budget",
      include_in_analysis: false,
    });
    expect(r.failures).toEqual([
      expect.objectContaining({ source: "harness", code: "budget", phase: "agent" }),
    ]);
    expect(r.failure_attribution.map((a) => a.bucket)).toEqual(["harness"]);
    expect(r.metered?.stop?.cause).toBe("run_usd");
    // The long reply alone: 1,000 in and 200,000 out at $3 / $15 per million.
    expect(r.metered?.usd).toBeCloseTo(3.003, 6);
    // Stopped before the held-back last reply (5 s) came: the agent did not end on its own.
    expect(r.model_api?.answered).toBe(1);
    const cheap = await readRunReport(out, "cheap-CONTROL-r1");
    expect(cheap.status).toBe("passed");
    expect(cheap.metered?.stop).toBeNull();
    expect(cli.stdout).toMatch(/1 run\(s\) stopped by the budget \(invalid, not failures\)/);
  }, 120_000);
});

describe("bad budgets exit 2", () => {
  it.each([
    ["--budget-usd", "0", /--budget-usd must be a number above 0, got "0"/],
    ["--budget-usd", "-5", /--budget-usd must be a number above 0, got "-5"/],
    ["--budget-tokens", "1.5", /--budget-tokens must be a whole number above 0, got "1\.5"/],
    ["--max-run-usd", "0", /--max-run-usd must be a number above 0/],
  ])("%s %s", async (flag, value, message) => {
    const out = sandbox.dir(`bad-${flag}-${value}`);
    const cli = await runCli(runArgs("budget", out, flag, value), { env: sandbox.env() });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});
