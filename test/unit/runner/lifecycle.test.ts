/**
 * The end of a command (runner/lifecycle.ts): the reporters are told of the plan and of every
 * committed run, and at the end see the reading of the results folder the reports were written
 * from and the comparison built for them: the folder is read once, the comparison built once.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { claudeDriver, replayDriver, type ReplayTurn } from "../../../src/agents/index.js";
import { runSuite } from "../../../src/runner/run-suite.js";
import { runWithReporters } from "../../../src/runner/lifecycle.js";
import { runCalibration } from "../../../src/runner/calibrate.js";
import { prepareEval, runPreparedEval } from "../../../src/manifest/eval.js";
import { registerResults } from "../../../src/cli/commands/results.js";
import { Command } from "commander";
import { ciReporters } from "../../../src/report/reporters/ci.js";
import type {
  ExperimentResults,
  PlanInfo,
  Reporter,
  ReporterOutcome,
} from "../../../src/report/reporters/types.js";
import * as read from "../../../src/store/read.js";
import * as build from "../../../src/report/comparison/build.js";

// Counted, not changed: every reading of the folder's runs and every comparison built.
vi.mock("../../../src/store/read.js", async (orig) => {
  const m = await orig<typeof import("../../../src/store/read.js")>();
  return { ...m, readStoredRuns: vi.fn(m.readStoredRuns), readReports: vi.fn(m.readReports) };
});
vi.mock("../../../src/report/comparison/build.js", async (orig) => {
  const m = await orig<typeof import("../../../src/report/comparison/build.js")>();
  return { ...m, buildComparison: vi.fn(m.buildComparison) };
});

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");
const SUITE = path.join(FIXTURES, "suites/e2e-matrix");
const tmp: string[] = [];
afterAll(async () => {
  for (const d of tmp) await rm(d, { recursive: true, force: true });
});

/** A Claude Code stream that writes nothing and ends. */
function turn(ws: string): ReplayTurn {
  const s = "sess-1";
  const ev = [
    { type: "system", subtype: "init", session_id: s, cwd: ws, model: "m" },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Done.",
      session_id: s,
      num_turns: 1,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  ];
  return { stdout: ev.map((e) => `${JSON.stringify(e)}\n`).join(""), files: {} };
}

/** The replayed agent, a local sandbox, no judge: the runs of a test, in-process. */
function replayed(out: string) {
  return {
    concurrency: 1,
    out,
    driver: replayDriver({ recorded: claudeDriver, play: (r) => turn(r.workspace) }),
    sandbox: "local" as const,
    hostEnv: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-replay" },
    judgeFlags: { judge: false },
    html: false,
  };
}

/** The readings of the folder's runs (digests or whole reports) and the comparisons built since `resetCounts`. */
function counts(): { readings: number; comparisons: number } {
  return {
    readings:
      vi.mocked(read.readStoredRuns).mock.calls.length +
      vi.mocked(read.readReports).mock.calls.length,
    comparisons: vi.mocked(build.buildComparison).mock.calls.length,
  };
}
function resetCounts(): void {
  vi.mocked(read.readStoredRuns).mockClear();
  vi.mocked(read.readReports).mockClear();
  vi.mocked(build.buildComparison).mockClear();
}

/** A CI reporter set that asks for every output (JUnit, thresholds, step summary). */
function allCi(dir: string) {
  return ciReporters({
    junit: path.join(dir, "junit.xml"),
    failUnder: ["pass@1=0.5"],
    env: { GITHUB_STEP_SUMMARY: path.join(dir, "step-summary.md") },
  });
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-lifecycle-test-"));
  tmp.push(dir);
  return dir;
}

describe("one reading and one comparison per command", () => {
  it("eval with quality gates: the gates use the run's reading and comparison", async () => {
    const dir = await tempDir();
    const out = path.join(dir, "out");
    const opts = { skill: path.join(FIXTURES, "skills/greeter"), cwd: dir, ...replayed(out) };
    const prepared = await prepareEval(opts);
    expect(prepared.gates.length).toBeGreaterThan(0);
    resetCounts();
    const res = await runWithReporters(allCi(dir).reporters, {
      run: (hooks) =>
        runPreparedEval(prepared, {
          ...opts,
          run: (o) => runSuite({ ...o, ...hooks(() => undefined) }),
        }),
      summary: (r) => r.run,
      settle: (r) => r.gateReport.gates.map((g) => ({ name: g.key, passed: g.ok, detail: "" })),
      outcomes: () => undefined,
    });
    expect(counts()).toEqual({ readings: 1, comparisons: 1 });
    expect(res.comparison?.roles).toEqual(res.run.comparison?.roles);
    expect(res.gateReport.gates.length).toBe(prepared.gates.length);
  });

  it("calibrate: the reports are written once, after calibration.json", async () => {
    const dir = await tempDir();
    const out = path.join(dir, "out");
    resetCounts();
    const res = await runWithReporters(allCi(dir).reporters, {
      run: (hooks) =>
        runCalibration(
          { suite: SUITE, task: "needs-skill", ...replayed(out), ...hooks(() => undefined) },
          { treatment: "CONTROL", perArm: 1 },
        ),
      summary: (r) => r,
      outcomes: () => undefined,
    });
    // One treatment: no comparison; calibration.json and the summary's section from one reading.
    expect(counts()).toEqual({ readings: 1, comparisons: 0 });
    expect(res.calibration.settings.treatment).toBe("CONTROL");
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toContain("alibration");
  });

  it("report: the reports and the CI outputs from one reading and one comparison", async () => {
    const dir = await tempDir();
    const out = path.join(dir, "out");
    await runSuite({ suite: SUITE, task: "needs-skill", count: 1, ...replayed(out) });
    const program = new Command().exitOverride();
    const ctx = { exitCode: 0 };
    registerResults(program, ctx);
    const junit = path.join(dir, "junit.xml");
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const note = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const oldSummary = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = path.join(dir, "step-summary.md");
    resetCounts();
    try {
      await program.parseAsync(
        ["report", out, "--no-html", "--junit", junit, "--fail-under", "pass@1=0.5"],
        { from: "user" },
      );
    } finally {
      write.mockRestore();
      note.mockRestore();
      if (oldSummary === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = oldSummary;
    }
    expect(counts()).toEqual({ readings: 1, comparisons: 1 });
    expect(await readFile(junit, "utf8")).toContain("<testsuites");
    expect(await readFile(path.join(dir, "step-summary.md"), "utf8")).toContain("**Thresholds:");
  });
});

describe("runWithReporters", () => {
  it("reads the results folder once and builds the comparison once for every reporter", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-lifecycle-test-"));
    tmp.push(dir);
    const out = path.join(dir, "out");
    const junit = path.join(dir, "junit.xml");
    const stepSummary = path.join(dir, "step-summary.md");
    const seen: { plan: PlanInfo[]; runs: string[]; end: ExperimentResults[] } = {
      plan: [],
      runs: [],
      end: [],
    };
    const probe: Reporter = {
      name: "probe",
      onPlan: (p) => void seen.plan.push(p),
      onRunEnd: (_dir, r) => void seen.runs.push(r.run_id),
      onExperimentEnd: (r) => {
        seen.end.push(r);
        return {};
      },
    };
    const ci = ciReporters({
      junit,
      failUnder: ["pass@1=0.5"],
      env: { GITHUB_STEP_SUMMARY: stepSummary },
    });
    const said: ReporterOutcome[] = [];
    vi.mocked(read.readStoredRuns).mockClear();
    vi.mocked(build.buildComparison).mockClear();
    const res = await runWithReporters([...ci.reporters, probe], {
      run: (hooks) =>
        runSuite({
          suite: SUITE,
          task: "needs-skill",
          count: 1,
          concurrency: 1,
          out,
          driver: replayDriver({ recorded: claudeDriver, play: (r) => turn(r.workspace) }),
          sandbox: "local",
          hostEnv: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-replay" },
          html: false,
          ...hooks(() => undefined),
        }),
      summary: (r) => r,
      outcomes: (o) => void said.push(...o),
    });
    expect(vi.mocked(read.readStoredRuns)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(build.buildComparison)).toHaveBeenCalledTimes(1);
    // The lifecycle: the plan, each committed run, then the end with the one comparison.
    expect(seen.plan.map((p) => p.outDir)).toEqual([out]);
    expect(seen.runs.sort()).toEqual(res.reports.map((r) => r.run_id).sort());
    expect(seen.end).toHaveLength(1);
    expect(seen.end[0]?.comparison).toBe(res.comparison);
    expect(seen.end[0]?.source.reports.map((r) => r.run_id).sort()).toEqual(
      res.reports.map((r) => r.run_id).sort(),
    );
    // The CI reporters wrote their files from that reading (the step summary shows the thresholds).
    expect(said.flatMap((o) => o.files ?? [])).toEqual([junit, stepSummary]);
    expect(await readFile(junit, "utf8")).toContain("<testsuites");
    expect(await readFile(stepSummary, "utf8")).toContain("**Thresholds:");
    expect(said.flatMap((o) => o.lines ?? [])).toHaveLength(1);
  });

  it("aborts the reporters not yet ended when the command fails", async () => {
    const calls: string[] = [];
    const mk = (name: string, fail = false): Reporter => ({
      name,
      onExperimentEnd: () => {
        calls.push(`end ${name}`);
        if (fail) throw new Error(`${name} failed`);
        return {};
      },
      onAbort: (reports) => {
        calls.push(`abort ${name} ${reports.length}`);
        return { notes: [`${name} closed`] };
      },
    });
    const said: ReporterOutcome[] = [];
    await expect(
      runWithReporters([mk("a", true), mk("b")], {
        run: () =>
          Promise.resolve({
            outDir: "/nonexistent",
            experimentId: "x",
            planned: [],
            reports: [],
            incomplete: [],
            files: [],
            comparison: null,
            source: { reports: [], problems: [], metadata: null },
          }),
        summary: (r) => r,
        outcomes: (o) => void said.push(...o),
      }),
    ).rejects.toThrow("a failed");
    expect(calls).toEqual(["end a", "abort b 0"]);
    expect(said.flatMap((o) => o.notes ?? [])).toEqual(["b closed"]);
  });
});
