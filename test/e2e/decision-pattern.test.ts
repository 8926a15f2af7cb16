/**
 * `skillbench run --decision-pattern` end to end, on the e2e-decision-pattern fixture suite: the
 * built CLI, the real claude binary and the scripted model. The subject's first message
 * ("PICK-DB: … unresolved …") matches none of the built-in decision rules, so it is a decision
 * point only with `--decision-pattern PICK-DB`. Two CLI runs, two claude turns each.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import {
  makeSandbox,
  readRunReport,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = "e2e-decision-pattern";
const RUN = "pick-db-CONTROL-r1";

let sandbox: Sandbox;
const outs = { with: "", without: "" };
const clis: Partial<Record<keyof typeof outs, CliResult>> = {};
const reports: Partial<Record<keyof typeof outs, RunReport>> = {};

function rep(which: keyof typeof outs): RunReport {
  const r = reports[which];
  if (!r) throw new Error(`no report for the run ${which} the flag`);
  return r;
}

function turnField(r: RunReport, i: number, key: string): unknown {
  return r.interaction?.turns[i]?.[key];
}

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-decision-pattern");
  outs.with = sandbox.dir("with");
  outs.without = sandbox.dir("without");
  clis.with = await runCli(
    runArgs(SUITE, outs.with, "--decision-pattern", "PICK-DB", "--decision-pattern", "Pick one"),
    { env: sandbox.env() },
  );
  clis.without = await runCli(runArgs(SUITE, outs.without), { env: sandbox.env() });
  reports.with = await readRunReport(outs.with, RUN);
  reports.without = await readRunReport(outs.without, RUN);
}, 300_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("--decision-pattern", () => {
  it("makes the subject's message a decision point, answered by the task's reply", () => {
    expect(clis.with?.code, clis.with?.stderr).toBe(0);
    const r = rep("with");
    expect(r.interaction).toMatchObject({
      mode: "auto_user",
      actual_turns: 2,
      decision_points: 1,
      deterministic_replies: 1,
      simulated_replies: 0,
      end_reason: "completed",
    });
    expect(turnField(r, 0, "decision")).toBe("pattern:PICK-DB");
    expect(turnField(r, 1, "prompt")).toBe("Use sqlite.");
    expect(r.events_summary?.files_created).toEqual(["notes/db.md"]);
  });

  it("is recorded in the run's settings and the experiment's metadata", async () => {
    const r = rep("with");
    expect(r.interaction?.decision_patterns).toEqual(["PICK-DB", "Pick one"]);
    expect(r.interaction?.decision_patterns_cli).toEqual(["PICK-DB", "Pick one"]);
    const meta: unknown = JSON.parse(await readFile(path.join(outs.with, "metadata.json"), "utf8"));
    expect(meta).toMatchObject({ decision_patterns: ["PICK-DB", "Pick one"] });
  });

  it("without it the same message is no decision point: the loop nudges and runs out of turns", () => {
    const r = rep("without");
    expect(r.interaction).toMatchObject({
      actual_turns: 2,
      decision_points: 0,
      nudges: 1,
      end_reason: "max_turns",
      decision_patterns: [],
      decision_patterns_cli: [],
    });
    expect(turnField(r, 0, "decision")).toBeNull();
    expect(r.events_summary?.files_created).toEqual([]); // notes/db.md was never written
  });

  it("an empty pattern is bad input: exit 2 before any agent runs", async () => {
    const out = sandbox.dir("empty");
    const cli = await runCli(runArgs(SUITE, out, "--decision-pattern", " "), {
      env: sandbox.env(),
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("--decision-pattern: expected a non-empty text");
  });

  it("is an option of eval too (it shares run's options)", async () => {
    const help = await runCli(["eval", "--help"], { env: sandbox.env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--decision-pattern <text>");
  });
});
