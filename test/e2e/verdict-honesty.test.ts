/**
 * A verdict that never contradicts itself (issue 32), end to end through the built CLI, the real
 * claude binary and the scripted model (--sandbox local, -j 2):
 * - point 2: 3 vs 3 runs with equal pass rates where one CANDIDATE run stops before its second
 *   artifact (artifact_presence Δ −0.17) is not "Regressed": the dimension is unresolved, named in
 *   the reason, in comparison.json, comparison_report.md, the HTML page and on the console;
 * - point 8: `run` prints the same verdict block as `eval`, made of the comparison's own lines
 *   (one interval, its method, the noise sentence, what would resolve it);
 * - point 3: `run --until-decided` on two tasks that disagree warns at the first look that
 *   --max-count cannot decide, with the number of tasks that would (stderr, sequential.json,
 *   comparison.json, comparison_report.md, the console block);
 * - point 7: `calibrate --count 1` warns, quotes no noise floor (console, summary.md), a
 *   comparison beside it shows none, and `compare --calibration` naming it is refused;
 * - point 8: `eval SKILL --until-decided` and `calibrate SKILL` take a Skill folder.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comparison } from "../../src/report/comparison/index.js";
import { SequentialSchema } from "../../src/report/sequential/types.js";
import { CalibrationSchema } from "../../src/report/calibration/types.js";
import {
  fixtureSuite,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const TIMEOUT = 300_000;
const local = ["-j", "2", "--sandbox", "local"];
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-verdict-honesty");
});

afterAll(async () => {
  await sandbox?.remove();
});

const read = (dir: string, file: string): Promise<string> => readFile(path.join(dir, file), "utf8");
const signed = (x: number): string => {
  const s = x.toFixed(2);
  return s === "-0.00" || !s.startsWith("-") ? `+${s.replace(/^-/, "")}` : s;
};

describe("rubric regressions under noise control (point 2) and run's verdict block (point 8)", () => {
  let dir: string;
  let res: CliResult;
  let c: Comparison;

  beforeAll(async () => {
    dir = sandbox.dir("rubric-noise");
    res = await runCli(runArgs("e2e-rubric-noise", dir, "--count", "3", ...local), {
      env: sandbox.env(),
    });
    c = JSON.parse(await read(dir, "comparison.json")) as Comparison;
  }, TIMEOUT);

  it("equal pass rates and one run short of an artifact: not Regressed, the dimension unresolved", async () => {
    expect(res.code, res.stderr).toBe(0);
    expect(c.run_counts.map((r) => [r.treatment, r.passed, r.runs])).toEqual([
      ["CONTROL", 3, 3],
      ["CANDIDATE", 3, 3],
    ]);
    const art = c.rubric.dimensions.find((d) => d.name === "artifact_presence");
    expect(art?.delta).toBeCloseTo(-1 / 6, 12);
    expect(art?.regression).toBe(false);
    expect(art?.test?.status).toBe("unresolved");
    expect(art?.test?.ci?.high).toBeGreaterThan(-0.05);
    expect(c.verdict.band).not.toBe("regressed");
    expect(c.verdict.regressions).toEqual([]);
    expect(c.verdict.unresolved.map((u) => u.dimension)).toEqual(["artifact_presence"]);
    expect(c.verdict.reason).toContain(
      "Unresolved rubric dimensions (mean Δ below the tolerance, interval not; they do not move the band): artifact_presence (Δ -0.17 [",
    );

    const md = await read(dir, "comparison_report.md");
    expect(md).not.toContain("❌ **Regressed**");
    expect(md).toMatch(
      /\| artifact_presence \| 1\.00±0\.00 \(100%\) \| 0\.83±0\.29 \(100%\) \| -0\.17 \[[^\]]+\] \(unresolved\) \|/,
    );
    expect(md).toContain(
      "Unresolved rubric dimensions (mean Δ below −0.05, but the interval does not lie below it: not counted): **artifact_presence** Δ -0.17",
    );
    const html = await read(dir, "comparison_report.html");
    expect(html).toContain("Unresolved rubric dimensions");
    expect(html).not.toContain("regresses on the rubric");
    expect(res.stdout).toContain("artifact_presence (Δ -0.17 [");
    expect(res.stdout).not.toContain("Regressed");
  });

  it("the efficiency reason says whole seconds, the original's wording (point 9)", async () => {
    const r = await readRunReport(dir, "greet-CONTROL-r1");
    const line = r.rubric_lines.find((l) => l.includes("efficiency"));
    expect(line).toMatch(/^\[RUBRIC\] efficiency: 1\.00 - turns=\d+ tools=\d+ dur=\d+s$/);
  });

  it("run prints the verdict block: the band, the one interval with its method, the conclusion", () => {
    const v = c.verdict;
    const delta = `${signed(v.delta ?? NaN)} [${signed(v.ci?.low ?? NaN)}, ${signed(v.ci?.high ?? NaN)}]`;
    const plain = (s: string): string => s.replace(/\*\*|`/g, "");
    expect(res.stdout).toContain("\nVerdict (CANDIDATE vs CONTROL):\n");
    expect(res.stdout).toContain(`  ${plain(v.headline)}\n`);
    expect(res.stdout).toContain(`  Δ pass rate ${delta}: ${plain(v.method)}.\n`);
    expect(res.stdout).toContain(`  ${plain(c.paired.conclusion)}\n`);
    // every Δ pass rate printed on the console is the one interval
    const printed = [...res.stdout.matchAll(/Δ pass rate ([+-]\d\.\d\d \[[^\]]+\])/g)].map(
      (m) => m[1],
    );
    expect(printed.length).toBeGreaterThanOrEqual(3);
    for (const p of printed) expect(p).toBe(delta);
    // the block sits between the run count and the files, as eval prints it
    expect(res.stdout.indexOf("6/6 runs passed")).toBeLessThan(res.stdout.indexOf("Verdict ("));
    expect(res.stdout.indexOf("Verdict (")).toBeLessThan(res.stdout.indexOf("Results: "));
  });
});

describe("run --until-decided plans ahead (point 3)", () => {
  it(
    "two tasks that disagree: at the first look it warns that --max-count cannot decide, with the tasks needed",
    async () => {
      const dir = sandbox.dir("seq-plan");
      const res = await runCli(
        [
          ...runArgs(
            "e2e-verdicts",
            dir,
            "--count",
            "1",
            "--max-count",
            "2",
            "--until-decided",
            ...local,
          ),
          "--model-script",
          path.join(fixtureSuite("e2e-verdicts"), "spread-script.yaml"),
        ],
        { env: sandbox.env() },
      );
      const warning =
        "⚠️ Plan: even if the first round's rates hold, --max-count 2 cannot show improvement at 2 task(s): the tasks disagree, so the task-clustered interval (1 degree(s) of freedom) stays too wide at any number of repetitions. About 8 tasks as spread as these would; add tasks, or expect an inconclusive band.";
      // said at the first look, before the second round ran
      const at = res.stderr.indexOf(warning);
      expect(at, res.stderr).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThan(res.stderr.indexOf("look 2:"));
      expect(res.stderr).toContain("look 1: 1 of at most 2 repetitions");
      const s = SequentialSchema.parse(JSON.parse(await read(dir, "sequential.json")));
      expect(s.plan).toMatchObject({
        tasks: 2,
        goal: "improvement",
        decidable: false,
        tasks_needed: 8,
        text: warning,
      });
      expect(s.status).toBe("max_count");
      const c = JSON.parse(await read(dir, "comparison.json")) as Comparison;
      expect(c.verdict.band).toBe("inconclusive");
      expect(c.verdict.runs_needed.status).toBe("more_tasks");
      expect(c.sequential?.plan).toBe(warning);
      expect(await read(dir, "comparison_report.md")).toContain(warning);
      expect(res.stdout).toContain(`  ${warning}\n`);
    },
    TIMEOUT,
  );
});

describe("calibrate below the minimum (point 7)", () => {
  it(
    "--count 1 warns, records the runs, quotes no floor (console, summary.md), and no comparison beside it shows one",
    async () => {
      const root = sandbox.dir("cal-root");
      const cal = path.join(root, "cal");
      const res = await runCli(
        [
          "calibrate",
          ...runArgs(
            "e2e-verdicts",
            cal,
            "--treatment",
            "CONTROL",
            "--task",
            "greet",
            "--count",
            "1",
            ...local,
          ).slice(1),
        ],
        { env: sandbox.env() },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(
        "warning: calibrate --count 1: 1 run(s) per arm is below the minimum of 5: the runs are recorded, but no noise floor is quoted from them",
      );
      const none =
        "No noise floor quoted: 1 run(s) per arm (--count 1) is below the minimum of 5; a floor from so few runs is itself noise.";
      expect(res.stdout).toContain(`⚠️ ${none}`);
      expect(res.stdout).not.toContain("📏");
      const summary = await read(cal, "summary.md");
      expect(summary).toContain("⚠️ **No noise floor quoted**: 1 run(s) per arm (--count 1)");
      expect(summary).toContain("| task | runs | passes | pass rate | pair disagreement |");
      expect(summary).not.toContain("📏");

      const cmp = path.join(root, "cmp");
      const run = await runCli(
        runArgs("e2e-verdicts", cmp, "--task", "greet", "--count", "1", ...local),
        {
          env: sandbox.env(),
        },
      );
      expect(run.code).toBe(0);
      const k = JSON.parse(await read(cmp, "comparison.json")) as Comparison;
      expect(k.noise_floor).toBeNull();
      expect(await read(cmp, "comparison_report.md")).not.toContain("Noise floor");
      // named explicitly, it is refused with the reason
      const named = await runCli(["compare", cmp, "--calibration", cal, "--no-html"], {
        env: sandbox.env(),
      });
      expect(named.code).toBe(2);
      expect(named.stderr).toContain(
        "its noise floor is not quoted: 1 run(s) per arm (--count 1) is below the minimum of 5",
      );
    },
    TIMEOUT,
  );
});

describe("calibrate and --until-decided take a Skill folder (point 8)", () => {
  const skill = path.join(REPO_ROOT, "test", "fixtures", "skills", "comet-style");
  const skillArgs = (cmd: string, out: string, ...extra: string[]): string[] => [
    cmd,
    skill,
    "--model-script",
    path.join(skill, "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    ...local,
    ...extra,
  ];

  it(
    "eval SKILL --until-decided runs in rounds; its console verdict is comparison.json's (the look's level)",
    async () => {
      const dir = sandbox.dir("eval-seq");
      const res = await runCli(
        skillArgs("eval", dir, "--count", "1", "--max-count", "2", "--until-decided"),
        { env: sandbox.env() },
      );
      expect(res.stderr).toContain("look 1: 1 of at most 2 repetitions");
      const s = SequentialSchema.parse(JSON.parse(await read(dir, "sequential.json")));
      expect(s.looks.map((l) => l.count)).toEqual([1, 2]);
      const c = JSON.parse(await read(dir, "comparison.json")) as Comparison;
      expect(c.sequential).toMatchObject({ look: 2, max_count: 2 });
      const plain = (x: string): string => x.replace(/\*\*|`/g, "");
      expect(res.stdout).toContain(
        `Verdict (WITH_SKILL vs CONTROL):\n  ${plain(c.verdict.headline)}\n`,
      );
      expect(res.stdout).toContain(plain(c.verdict.method));
      expect(res.stdout).toContain("Quality gates (WITH_SKILL):");
    },
    TIMEOUT,
  );

  it(
    "calibrate SKILL --treatment WITH_SKILL compiles the Skill as eval does and calibrates it",
    async () => {
      const dir = sandbox.dir("skill-cal");
      const res = await runCli(
        skillArgs("calibrate", dir, "--treatment", "WITH_SKILL", "--count", "1"),
        { env: sandbox.env() },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(
        "skillbench calibrate: Skill changelog-keeper (" +
          skill +
          "), treatments CONTROL, WITH_SKILL",
      );
      const cal = CalibrationSchema.parse(JSON.parse(await read(dir, "calibration.json")));
      expect(cal.settings.treatment).toBe("WITH_SKILL");
      expect(cal.tasks.map((t) => [t.task, t.runs])).toEqual([["record-fix", 2]]);
      expect(res.stdout).toContain("No noise floor quoted");
    },
    TIMEOUT,
  );
});
