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
  return { ...m, readStoredRuns: vi.fn(m.readStoredRuns) };
});
vi.mock("../../../src/report/comparison/build.js", async (orig) => {
  const m = await orig<typeof import("../../../src/report/comparison/build.js")>();
  return { ...m, buildComparison: vi.fn(m.buildComparison) };
});

const SUITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/suites/e2e-matrix",
);
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
