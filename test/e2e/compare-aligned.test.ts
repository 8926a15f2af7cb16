/**
 * `skillbench compare DIR_A DIR_B` end to end: the e2e-matrix suite (tasks needs-skill and tone,
 * CONTROL and WITH_SKILL) run twice with the real claude binary and the scripted model, 2 reps.
 * Between the runs the tone task's instruction changes and the scripted agent with the Skill starts
 * writing the wrong note. The aligned report must name the changed task and the changed model
 * script as drift, leave the task's runs unmatched, align the 4 needs-skill cases, and see WITH_SKILL's 2 cases flip from pass to fail
 * (CONTROL fails in both: it never invokes the required Skill).
 * The single-folder `compare DIR` still writes comparison_report.md.
 */
import { appendFile, cp, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlignedComparisonSchema, type AlignedComparison } from "../../src/report/aligned/index.js";
import { assertBuilt, fixtureSuite, makeSandbox, runCli, type Sandbox } from "../helpers/cli.js";

let box: Sandbox;
let dirA: string;
let dirB: string;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("compare-aligned");
  const suite = box.dir("suite");
  await cp(fixtureSuite("e2e-matrix"), suite, { recursive: true });
  const script = path.join(suite, "model-script.yaml");
  dirA = box.dir("A");
  dirB = box.dir("B");
  const run = async (out: string): Promise<void> => {
    const r = await runCli(
      [
        "run",
        suite,
        "--model-script",
        script,
        "--out",
        out,
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
        "-n",
        "2",
        "-j",
        "2",
        "--sandbox",
        "local",
        "--exit-zero",
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(0);
  };
  await run(dirA);
  await appendFile(path.join(suite, "tasks", "tone", "instruction.md"), "\nSay it warmly.\n");
  const text = await readFile(script, "utf8");
  const broken = text.replace(
    /(name: needs-skill-with-skill[\s\S]*?content: )"noted\\n"/,
    '$1"nope\\n"',
  );
  expect(broken).not.toBe(text);
  await writeFile(script, broken);
  await run(dirB);
}, 300_000);

afterAll(async () => {
  await box.remove();
});

describe("compare DIR_A DIR_B", () => {
  let report: AlignedComparison;
  let md: string;
  const out = (): string => box.dir("aligned");

  it("writes aligned_comparison_report.md and .json into --out", async () => {
    const r = await runCli(["compare", dirA, dirB, "--out", out()], { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(path.join(out(), "aligned_comparison_report.md"));
    report = AlignedComparisonSchema.parse(
      JSON.parse(await readFile(path.join(out(), "aligned_comparison_report.json"), "utf8")),
    );
    md = await readFile(path.join(out(), "aligned_comparison_report.md"), "utf8");
  });

  it("names the changed task and the changed model script as drift, and nothing else", () => {
    expect(report.changed_tasks.map((t) => t.task)).toEqual(["tone"]);
    // The script was edited between A and B: a different scripted model (issue 32, point 4).
    expect(report.drift).toHaveLength(2);
    expect(report.drift[0]).toMatch(
      /^endpoint: A scripted model sha256:[0-9a-f]{12}, B scripted model sha256:[0-9a-f]{12}$/,
    );
    expect(report.drift[1]).toMatch(
      /^task tone: content changed \(A sha256:[0-9a-f]{12}, B sha256:[0-9a-f]{12}\)$/,
    );
    expect(md).toMatch(
      /## What drifted between A and B\n\n- endpoint: A scripted model sha256:[0-9a-f]{12}, B scripted model sha256:[0-9a-f]{12}\n- task tone: content changed/,
    );
    expect(report.endpoint.label).toMatch(/scripted model/);
  });

  it("aligns the unchanged task's cases and leaves the changed task's runs unmatched", () => {
    const ids = report.cases.aligned.map((c) => c.b_run).sort();
    expect(ids).toEqual([
      "needs-skill-CONTROL-r1",
      "needs-skill-CONTROL-r2",
      "needs-skill-WITH_SKILL-r1",
      "needs-skill-WITH_SKILL-r2",
    ]);
    expect(report.cases.only_a.map((c) => c.run).sort()).toEqual([
      "tone-CONTROL-r1",
      "tone-CONTROL-r2",
      "tone-WITH_SKILL-r1",
      "tone-WITH_SKILL-r2",
    ]);
    expect(report.cases.only_b.map((c) => c.task)).toEqual(["tone", "tone", "tone", "tone"]);
    expect(new Set(report.cases.only_a.map((c) => c.task_hash)).size).toBe(1);
    expect(report.cases.only_a[0]?.task_hash).not.toBe(report.cases.only_b[0]?.task_hash);
  });

  it("compares the aligned cases with the paired statistics, per treatment", () => {
    const control = report.treatments.find((t) => t.treatment === "CONTROL");
    const skill = report.treatments.find((t) => t.treatment === "WITH_SKILL");
    expect(skill?.aligned_cases).toBe(2);
    expect(skill?.flipped_to_fail).toBe(2);
    expect(skill?.paired.tasks).toEqual(["needs-skill"]);
    expect(skill?.paired.baseline_pass_rate).toBe(1);
    expect(skill?.paired.candidate_pass_rate).toBe(0);
    expect(skill?.paired.delta_pass_rate?.estimate).toBe(-1);
    expect(skill?.paired.mcnemar).toMatchObject({ pairs: 2, baseline_only: 2, candidate_only: 0 });
    expect(control?.aligned_cases).toBe(2);
    expect(control?.flipped_to_fail).toBe(0);
    expect(control?.paired.delta_pass_rate?.estimate).toBe(0);
    expect(md).toMatch(/\| needs-skill \| WITH_SKILL \| 1 \| pass \| fail \|/);
  });

  it("one folder keeps its own comparison; bad input exits 2", async () => {
    const one = await runCli(["compare", dirB, "--no-html"], { env: box.env() });
    expect(one.code, one.stderr).toBe(0);
    expect(existsSync(path.join(dirB, "comparison_report.md"))).toBe(true);
    const bad = await runCli(["compare", dirA, dirB, "--candidate", "WITH_SKILL"], {
      env: box.env(),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--candidate applies to one folder's comparison only/);
    const none = await runCli(["compare", dirA, box.dir("nothing")], { env: box.env() });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing: no run reports found/);
  });
});
