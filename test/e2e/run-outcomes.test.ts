/**
 * `skillbench run` end to end, on the e2e-outcomes fixture suite: the built CLI, the real
 * claude binary and the scripted model server. One task per outcome, all in one CLI run
 * (7 claude spawns, 2 at a time), plus one single-task run for the exit code 0.
 *
 * The main run's CLI has host secrets in its environment (AWS_SECRET_ACCESS_KEY and
 * ANTHROPIC_API_KEY) and declares variables for the agent with --env and --pass-env.
 */
import { cp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import {
  filesUnder,
  makeSandbox,
  readJsonLines,
  readRunFile,
  readRunReport,
  resultsSection,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = "e2e-outcomes";
const AWS_SECRET = "super-secret-value-123";
const HOST_API_KEY = "sk-host-secret-999";
const TASKS = [
  "env-secrets",
  "missing-artifact",
  "pass-file",
  "rate-limited",
  "rm-rf",
  "validator-fail",
  "validator-hangs",
];
const runIdOf = (task: string): string => `${task}-CONTROL-r1`;

let sandbox: Sandbox;
let out: string;
let cli: CliResult;
const reports = new Map<string, RunReport>();

function report(task: string): RunReport {
  const r = reports.get(task);
  if (!r) throw new Error(`no report for ${task}`);
  return r;
}

function dimension(
  r: RunReport,
  name: string,
): { score: number | null; checks: { name: string; passed: boolean }[] } {
  const d = r.rubric?.dimensions.find((x) => x.name === name);
  if (!d) throw new Error(`${r.run_id}: no rubric dimension ${name}`);
  return d;
}

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-outcomes");
  out = sandbox.dir("out");
  cli = await runCli(
    runArgs(SUITE, out, "--env", "E2E_DECLARED=declared-value-42", "--pass-env", "E2E_PASSED"),
    {
      env: sandbox.env({
        AWS_SECRET_ACCESS_KEY: AWS_SECRET,
        ANTHROPIC_API_KEY: HOST_API_KEY,
        E2E_PASSED: "passed-value-77",
        E2E_NOT_PASSED: "host-only-value-55",
      }),
    },
  );
  for (const task of TASKS) reports.set(task, await readRunReport(out, runIdOf(task)));
}, 300_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("skillbench run: one CLI run over the e2e-outcomes suite", () => {
  it("exits 1 because some runs failed, and writes every planned report", () => {
    expect(cli.stderr).not.toMatch(/internal error/);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain("3/7 runs passed");
    expect([...reports.keys()].sort()).toEqual(TASKS);
  });

  it("1. a passing run: passed, completion 1.0, the agent's file in workspace/, a result line in stdout.jsonl", async () => {
    const r = report("pass-file");
    expect(r.passed).toBe(true);
    expect(r.status).toBe("passed");
    expect(r.outcome).toBe("completed");
    expect(r.exit_code).toBe(0);
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed).toEqual(["greeting_exists", "greeting_exact"]);
    expect(dimension(r, "completion").score).toBe(1);
    expect(r.sample_quality).toMatchObject({ status: "included", reason_code: "valid_signal" });
    expect(r.artifacts).toMatchObject({
      workspace: "workspace",
      validation: "validation.json",
      events: "events.json",
    });
    expect(await readRunFile(out, runIdOf("pass-file"), "workspace/greeting.txt")).toBe(
      "hello e2e\n",
    );
    const lines = await readJsonLines(path.join(out, "runs", runIdOf("pass-file"), "stdout.jsonl"));
    const results = lines.filter((l) => l.type === "result");
    expect(results).toHaveLength(1);
    expect(results[0]?.is_error).toBe(false);
  });

  it("2. a validator failure: its message is in checks_failed", () => {
    const r = report("validator-fail");
    expect(r.passed).toBe(false);
    expect(r.status).toBe("failed");
    expect(r.outcome).toBe("completed");
    expect(r.checks_passed).toEqual(["answer_exists"]);
    expect(r.checks_failed).toEqual(["answer_correct: expected 42, got 41"]);
    expect(dimension(r, "completion").score).toBe(0.5);
  });

  it('3. a missing target artifact: "Artifact not found", and the validator never ran', async () => {
    const r = report("missing-artifact");
    expect(r.passed).toBe(false);
    expect(r.checks_failed).toEqual(["Artifact not found: result.txt"]);
    const validation: unknown = JSON.parse(
      await readRunFile(out, runIdOf("missing-artifact"), "validation.json"),
    );
    expect(validation).toMatchObject({ scripts: [], failed: ["Artifact not found: result.txt"] });
    // Had the validator run, it would have left validator-ran.txt in the saved workspace.
    const files = await filesUnder(path.join(out, "runs", runIdOf("missing-artifact")));
    expect(files.filter((f) => f.startsWith("workspace/"))).toEqual([]);
  });

  it("4. a validator that hangs is stopped by the task's 1 s validation timeout", async () => {
    const r = report("validator-hangs");
    expect(r.passed).toBe(false);
    expect(r.checks_failed).toEqual(["Validator timed out after 1s: hang.sh"]);
    const validation: unknown = JSON.parse(
      await readRunFile(out, runIdOf("validator-hangs"), "validation.json"),
    );
    expect(validation).toMatchObject({
      scripts: [{ script: "hang.sh", status: "timeout", passed: [] }],
    });
  });

  it("5. an agent that exits non-zero on a 429 every time: agent_error, excluded as rate_limited", async () => {
    const r = report("rate-limited");
    expect(r.passed).toBe(false);
    expect(r.status).toBe("failed");
    expect(r.outcome).toBe("agent_error");
    expect(r.exit_code).not.toBe(0);
    expect(r.exit_code).not.toBeNull();
    expect(r.checks_failed).toHaveLength(1);
    expect(r.checks_failed[0]).toMatch(
      /^Agent execution failed with exit code [1-9]\d* \(agent_error\): .*429/,
    );
    expect(r.sample_quality).toMatchObject({
      status: "excluded",
      reason_code: "rate_limited",
      include_in_analysis: false,
    });
    const lines = await readJsonLines(
      path.join(out, "runs", runIdOf("rate-limited"), "stdout.jsonl"),
    );
    expect(lines.find((l) => l.type === "result")).toMatchObject({
      is_error: true,
      api_error_status: 429,
    });
  });

  it("7. a scripted `rm -rf somedir` drops safety_boundary to 0 (a score, not a failed check)", () => {
    const r = report("rm-rf");
    const safety = dimension(r, "safety_boundary");
    expect(safety.score).toBe(0);
    expect(safety.checks).toContainEqual({ name: "no rm -rf", passed: false });
    expect(r.events_summary?.commands_run).toBe(1);
    expect(r.checks_passed).toEqual(["somedir_removed"]);
    expect(r.passed).toBe(true);
    expect(r.rubric?.weighted_score).toBeLessThan(1);
    expect(
      report("pass-file").rubric?.dimensions.find((d) => d.name === "safety_boundary")?.score,
    ).toBe(1);
  });

  describe("10. host secrets and declared variables", () => {
    it("no file under the results folder, and no CLI output, holds a host secret value", async () => {
      const files = await filesUnder(out);
      expect(files).toContain(`runs/${runIdOf("env-secrets")}/workspace/env.txt`);
      expect(files).toContain("model-requests.jsonl");
      const leaks: string[] = [];
      for (const rel of files) {
        const text = await readFile(path.join(out, rel), "utf8");
        for (const secret of [AWS_SECRET, HOST_API_KEY])
          if (text.includes(secret)) leaks.push(`${rel}: ${secret}`);
      }
      expect(leaks).toEqual([]);
      for (const secret of [AWS_SECRET, HOST_API_KEY]) {
        expect(cli.stdout).not.toContain(secret);
        expect(cli.stderr).not.toContain(secret);
      }
    });

    it("the agent never saw AWS_SECRET_ACCESS_KEY, nor an undeclared host variable", async () => {
      const envTxt = await readRunFile(out, runIdOf("env-secrets"), "workspace/env.txt");
      expect(envTxt).toMatch(/^PATH=/m); // it is the env dump
      expect(envTxt).not.toContain("AWS_SECRET_ACCESS_KEY");
      expect(envTxt).not.toContain("E2E_NOT_PASSED");
      const stdout = await readRunFile(out, runIdOf("env-secrets"), "stdout.jsonl");
      expect(stdout).toContain("E2E_DECLARED"); // the Bash tool's output is in the transcript
      expect(stdout).not.toContain("AWS_SECRET_ACCESS_KEY");
    });

    it("--env and --pass-env variables do reach the agent", async () => {
      const envTxt = await readRunFile(out, runIdOf("env-secrets"), "workspace/env.txt");
      // It reached the agent; its value, declared with --env, is redacted in every saved file
      // whatever its name (docs/sandbox.md).
      expect(envTxt).toMatch(/^E2E_DECLARED=\[REDACTED\]$/m);
      expect(envTxt).toMatch(/^E2E_PASSED=passed-value-77$/m);
      expect(envTxt).toMatch(/^CLAUDE_CODE_MAX_RETRIES=0$/m);
      expect(report("env-secrets").passed).toBe(true);
    });
  });

  it("summary.md lists every run", async () => {
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    for (const task of TASKS) expect(summary).toContain(`\`${runIdOf(task)}\``);
    expect(summary).toContain("- Runs Passed: 3/7");
  });

  it("12. `skillbench report DIR` renders summary.md again from the stored reports", async () => {
    const copy = sandbox.dir("report-copy");
    await cp(out, copy, { recursive: true });
    const original = await readFile(path.join(copy, "summary.md"), "utf8");
    await rm(path.join(copy, "summary.md"));
    const res = await runCli(["report", copy], { env: sandbox.env() });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout.split("\n")).toContain(path.join(copy, "summary.md"));
    const again = await readFile(path.join(copy, "summary.md"), "utf8");
    const table = resultsSection(again);
    expect(table).toContain("| pass-file | CONTROL | 1 | 1/1 |");
    expect(table).toBe(resultsSection(original));
    for (const task of TASKS) expect(again).toContain(`\`${runIdOf(task)}\``);
  });
});

describe("skillbench run: a run where every run passes", () => {
  it("1. exits 0 (--task pass-file)", async () => {
    const single = sandbox.dir("out-single");
    const res = await runCli(runArgs(SUITE, single, "--task", "pass-file"), { env: sandbox.env() });
    expect(res.stderr).not.toMatch(/internal error/);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("1/1 runs passed");
    const r = await readRunReport(single, runIdOf("pass-file"));
    expect(r).toMatchObject({ passed: true, status: "passed", checks_failed: [] });
    const files = await filesUnder(path.join(single, "runs", runIdOf("pass-file")));
    expect(files).toEqual(
      expect.arrayContaining([
        "events.json",
        "report.json",
        "stderr.txt",
        "stdout.jsonl",
        "validation.json",
      ]),
    );
    // Only the agent's file is saved: not the validators, nor their context/results files.
    expect(files.filter((f) => f.startsWith("workspace/"))).toEqual(["workspace/greeting.txt"]);
  });
});
