/**
 * Issue #38 item 4, through the built CLI with the scripted judge: a `--fail-under` on a judge
 * dimension is refused (exit 2, naming what is missing) until `skillbench judge calibrate` has
 * stored a calibration of the same judge whose α reaches the threshold; with agreeing labels it
 * is accepted. Bad labels exit 2 naming the file, the line and the field.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JudgeCalibrationSchema } from "../../src/judge/calibration/schema.js";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
let out: string;
const GATE = ["--fail-under", "judge.task_completion=0.5"];
const teamStore = (): string => path.join(box.root, "team", "history.db");

async function labelsFile(name: string, rows: unknown[]): Promise<string> {
  const file = path.join(box.root, name);
  await writeFile(
    file,
    rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n"),
  );
  return file;
}

/** The scripted judge scores the good task's runs 1 and the poor task's 0 on task_completion. */
const label = (run_id: string, value: number, rater?: string): Record<string, unknown> => ({
  run_id,
  dimension: "task_completion",
  label: value,
  ...(rater ? { rater } : {}),
});

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("judge-calibration");
  out = box.dir("results");
  const res = await runCli(
    runArgs(
      "e2e-judge-calibration",
      out,
      "--count",
      "2",
      "--judge",
      "--judge-model",
      "judge-model-x",
      "--judge-samples",
      "2",
      "--exit-zero",
    ),
    { env: box.env() },
  );
  expect(res.code, res.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await box.remove();
});

describe("judge calibrate and gates on judge dimensions", () => {
  it("a --fail-under on a judge dimension is refused without a calibration, naming what is missing", async () => {
    const res = await runCli(["report", out, ...GATE], { env: box.env() });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain("--fail-under judge.task_completion=0.5 is refused");
    expect(res.stderr).toContain(`none found at ${path.join(out, "judge-calibration.json")}`);
    expect(res.stderr).toMatch(
      /judge model judge-model-x, prompt digest [0-9a-f]{12}, rubric generic/,
    );
    // a threshold on anything else needs no calibration
    const plain = await runCli(["report", out, "--fail-under", "pass_rate=0.5"], {
      env: box.env(),
    });
    expect(plain.code, plain.stderr).toBe(0);
  });

  it("bad labels: exit 2 naming the file, the line and the field", async () => {
    const bad = await labelsFile("bad.jsonl", [
      label("good-CONTROL-r1", 1),
      label("good-CONTROL-r2", 1.5),
    ]);
    const res = await runCli(["judge", "calibrate", out, "--labels", bad], { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${bad}:2: label:`);
    const unknown = await labelsFile("unknown.jsonl", ["# a comment", "", label("nope-r9", 1)]);
    const res2 = await runCli(["judge", "calibrate", out, "--labels", unknown], {
      env: box.env(),
    });
    expect(res2.code).toBe(2);
    expect(res2.stderr).toContain(`${unknown}:3: run_id: no run nope-r9 in this results folder`);
  });

  it("labels that disagree: stored, and the gate is refused with the α below the threshold", async () => {
    const file = await labelsFile("disagree.jsonl", [
      label("good-CONTROL-r1", 0),
      label("good-CONTROL-r2", 1),
      label("poor-CONTROL-r1", 1),
      label("poor-CONTROL-r2", 0),
    ]);
    const cal = await runCli(["judge", "calibrate", out, "--labels", file], { env: box.env() });
    expect(cal.code, cal.stderr).toBe(0);
    expect(cal.stdout).toContain("❌ may not gate");
    const res = await runCli(["report", out, ...GATE], { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/α of task_completion = 0\.\d{3} .*is below the threshold 0\.67/);
  });

  it("labels that agree: the calibration is stored and the gate is accepted", async () => {
    const file = await labelsFile("agree.jsonl", [
      label("good-CONTROL-r1", 1, "ana"),
      label("good-CONTROL-r2", 1, "ana"),
      label("poor-CONTROL-r1", 0, "ana"),
      label("poor-CONTROL-r2", 0, "ana"),
      label("good-CONTROL-r1", 1, "ben"),
      label("poor-CONTROL-r2", 0, "ben"),
      { task: "good", repetition: 1, preferred: "tie" },
    ]);
    // recorded in a team's history store too (the disagreeing one went to the default beside the results)
    const cal = await runCli(
      ["judge", "calibrate", out, "--labels", file, "--history", teamStore()],
      { env: box.env() },
    );
    expect(cal.code, cal.stderr).toBe(0);
    expect(cal.stdout).toContain(`Recorded in the history store: ${teamStore()}`);
    expect(cal.stdout).toContain("| task_completion | 4 | 1.000 [1.000, 1.000] |");
    expect(cal.stdout).toContain("| task_completion | ana | 4 | 1.000 [1.000, 1.000] |");
    expect(cal.stdout).toContain("no pairwise judge results in this results folder");
    const stored = JudgeCalibrationSchema.parse(
      JSON.parse(await readFile(path.join(out, "judge-calibration.json"), "utf8")),
    );
    expect(stored.judge.model).toBe("judge-model-x");
    expect(stored.judge.prompt_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.judge.rubric).toEqual({
      profile: "generic",
      dimensions: ["instruction_adherence", "output_quality", "task_completion"],
    });
    expect(stored.raters).toEqual(["ana", "ben"]);
    const tc = stored.dimensions.find((d) => d.name === "task_completion");
    expect(tc?.alpha_ordinal.estimate).toBe(1);
    expect(tc?.raters.map((r) => [r.rater, r.units, r.kappa.estimate])).toEqual([
      ["ana", 4, 1],
      ["ben", 2, 1],
    ]);
    expect(tc?.raters[0]?.confusion).toEqual([
      [2, 0, 0],
      [0, 0, 0],
      [0, 0, 2],
    ]);
    // --judge-samples 2 of a deterministic judge: every run's two samples agree
    const rep = stored.repeatability.find((r) => r.dimension === "task_completion");
    expect(rep).toMatchObject({ runs: 4, samples_per_run: 2, mean_stdev: 0 });
    expect(rep?.alpha_ordinal.estimate).toBe(1);
    expect(stored.pairwise).toMatchObject({ labels: 1, judged_pairs: 0 });

    const res = await runCli(["report", out, ...GATE], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      '"metric":"judge.task_completion","value":0.5,"min":0.5,"ok":true',
    );
    // a stricter --judge-alpha-min than α = 1 cannot be; a dimension nobody labelled is refused
    const other = await runCli(["report", out, "--fail-under", "judge.output_quality=0.5"], {
      env: box.env(),
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("no human labels for output_quality");
  });

  it("--judge-calibration FILE vouches from elsewhere; another judge model's calibration does not", async () => {
    const stored = JSON.parse(await readFile(path.join(out, "judge-calibration.json"), "utf8"));
    const elsewhere = path.join(box.root, "elsewhere.json");
    await writeFile(elsewhere, JSON.stringify(stored));
    const other = path.join(box.root, "other-model.json");
    await writeFile(other, JSON.stringify({ ...stored, judge: { ...stored.judge, model: "m2" } }));
    const copy = box.dir("copy");
    // a results folder without its own calibration: the copy of the runs, reported there
    const { cp } = await import("node:fs/promises");
    await cp(out, copy, { recursive: true, filter: (s) => !s.endsWith("judge-calibration.json") });
    const refused = await runCli(["report", copy, ...GATE, "--judge-calibration", other], {
      env: box.env(),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${other}: calibrated judge model m2, the runs were judged by judge-model-x`,
    );
    // the default store beside the results holds the disagreeing calibration: named, and why
    const defaultStore = path.join(box.root, ".skillbench", "history.db");
    expect(refused.stderr).toMatch(
      new RegExp(
        `the history store ${defaultStore} \\(calibration of ${out}, [^)]+\\): α of task_completion = 0\\.\\d{3} .*is below the threshold`,
      ),
    );
    // the agreeing calibration in the team's store vouches for this new folder (no file of its own)
    const fromStore = await runCli(["report", copy, ...GATE, "--history", teamStore()], {
      env: box.env(),
    });
    expect(fromStore.code, fromStore.stderr).toBe(0);
    expect(fromStore.stdout).toContain(
      '"metric":"judge.task_completion","value":0.5,"min":0.5,"ok":true',
    );
    const ok = await runCli(["report", copy, ...GATE, "--judge-calibration", elsewhere], {
      env: box.env(),
    });
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe("eval: a manifest gate on a judge dimension (minJudgeTaskCompletion), the judge set by the manifest", () => {
  const skill = path.join(REPO_ROOT, "test", "fixtures", "skills", "judge-gated");
  const evalArgs = (out: string, ...extra: string[]): string[] => [
    "eval",
    skill,
    "--model-script",
    path.join(skill, "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "-j",
    "2",
    // no --judge flags: the manifest's judge section turns the judge on, with its model
    ...extra,
  ];

  it("refused after the runs (exit 2, naming the manifest's gate and the manifest's threshold); accepted on --resume after judge calibrate", async () => {
    const out = box.dir("eval");
    const first = await runCli(evalArgs(out), { env: box.env() });
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toContain(
      `${path.join(skill, "eval.yaml")}: evaluation.qualityGates.minJudgeTaskCompletion is refused`,
    );
    // evaluation.judgeAlphaMin: 0.8 in the manifest
    expect(first.stderr).toContain("with α(task_completion) ≥ 0.8");
    const labels = await labelsFile("eval-labels.jsonl", [
      label("note-WITH_SKILL-r1", 1),
      label("note-WITH_SKILL-r2", 1),
      label("note-CONTROL-r1", 0),
      label("note-CONTROL-r2", 0),
    ]);
    const cal = await runCli(["judge", "calibrate", out, "--labels", labels], { env: box.env() });
    expect(cal.code, cal.stderr).toBe(0);
    const resumed = await runCli(evalArgs(out, "--resume"), { env: box.env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      "PASS  minJudgeTaskCompletion: judge.task_completion = 1.000 ≥ 0.9",
    );
    expect(await readFile(path.join(out, "quality_gates.md"), "utf8")).toContain(
      "| `minJudgeTaskCompletion` | judge.task_completion | 1.000 | 0.9 | ✅ pass |",
    );
    // judged by the manifest's judge model
    expect((await readRunReport(out, "note-WITH_SKILL-r1")).judge?.model).toBe("judge-model-y");
  }, 240_000);
});
