/**
 * The Skill's steps and trajectory assertions end to end (docs/trajectory.md): one `eval` of
 * test/fixtures/skills/stepper with the real claude binary and the scripted model, one run per
 * arm. The scripted agent opens the Skill and writes the report but skips the format
 * reference: skill_adherence 2/3 on WITH_SKILL (N/A on CONTROL, where no Skill fired), and the
 * `tools.sequence` assertion fails with the trajectory in its message. Then a manifest with a
 * bad step is refused (exit 2, file, field, line) before any run.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SKILL = path.join(REPO_ROOT, "test", "fixtures", "skills", "stepper");

let box: Sandbox;
let out: string;
let run: CliResult;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("trajectory");
  out = box.dir("out");
  run = await runCli(
    [
      "eval",
      SKILL,
      "--model-script",
      path.join(SKILL, "model-script.yaml"),
      "--out",
      out,
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      "--preflight",
      "off",
      "-j",
      "2",
    ],
    { env: box.env() },
  );
}, 180_000);

afterAll(async () => {
  await box.remove();
});

describe("a Skill with three declared steps, one skipped", () => {
  it("scores skill_adherence 2/3 where the Skill fired, N/A where it did not", async () => {
    expect(run.code, run.stderr).toBe(0);
    const withSkill = await readRunReport(out, "report-WITH_SKILL-r1");
    const d = withSkill.rubric?.dimensions.find((x) => x.name === "skill_adherence");
    expect(d?.score).toBeCloseTo(2 / 3, 12);
    expect(d?.reason).toBe(
      "2/3 steps met in order; missed: read the format (no tool call matches)",
    );
    expect(d?.checks).toEqual([
      { name: "step 1: open the Skill", passed: true },
      { name: "step 2: read the format", passed: false },
      { name: "step 3: write the report", passed: true },
      { name: "forbidden: command /rm -rf/", passed: true },
    ]);
    const control = await readRunReport(out, "report-CONTROL-r1");
    const c = control.rubric?.dimensions.find((x) => x.name === "skill_adherence");
    expect(c?.score).toBeNull();
    expect(c?.reason).toBe("the Skill did not fire (stepper not invoked)");
  });

  it("shows it in summary.md per treatment and beside lift in the comparison", async () => {
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    const header = summary.split("\n").find((l) => l.startsWith("| Task | Treatment"));
    const col =
      header
        ?.split("|")
        .map((s) => s.trim())
        .indexOf("skill_adherence") ?? -1;
    expect(col).toBeGreaterThan(0);
    const cellOf = (t: string) =>
      summary
        .split("\n")
        .find((l) => l.startsWith(`| report | ${t} |`))
        ?.split("|")
        .map((s) => s.trim())[col];
    expect(cellOf("WITH_SKILL")).toBe("0.67");
    expect(cellOf("CONTROL")).toBe("N/A");
    expect(summary).toContain(
      "[RUBRIC] skill_adherence: 0.67 - 2/3 steps met in order; missed: read the format (no tool call matches)",
    );
    const comparison = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(comparison).toContain(
      "| Skill adherence | `WITH_SKILL` 0.67 (1 run), `CONTROL` N/A | share of the Skill's declared steps met, over the runs where the Skill fired (N/A: it fired in none) |",
    );
  });
});

describe("a trajectory assertion", () => {
  it("fails with the agent's tool calls in order in the validator's message", async () => {
    const withSkill = await readRunReport(out, "report-WITH_SKILL-r1");
    expect(withSkill.checks_failed).toEqual([
      "tools_sequence:skill>read>write: stopped at read (step 2 of 3); trajectory (2 calls): Skill → Write",
    ]);
    expect(withSkill.checks_passed).toContain("tools_contains:skill");
    const control = await readRunReport(out, "report-CONTROL-r1");
    expect(control.checks_failed).toContain(
      "tools_contains:skill: skill was not called; trajectory (1 calls): Write",
    );
  });

  it("refuses a bad step before any run: exit 2, file, field and line", async () => {
    const dir = box.dir("bad");
    await mkdir(dir, { recursive: true });
    const manifest = (await readFile(path.join(SKILL, "eval.yaml"), "utf8")).replace(
      '{command: "rm -rf"}',
      '{command: "rm -rf ("}',
    );
    await writeFile(path.join(dir, "eval.yaml"), manifest);
    await writeFile(path.join(dir, "SKILL.md"), await readFile(path.join(SKILL, "SKILL.md")));
    const bad = await runCli(["eval", dir, "--out", box.dir("bad-out")], { env: box.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /eval\.yaml: evaluation\.steps\.forbidden\[0\]\.command: Invalid regular expression: \/rm -rf \(\/: Unterminated group \(line 19\)/,
    );
  });
});
