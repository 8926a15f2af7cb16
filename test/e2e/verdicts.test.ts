/**
 * Verdicts end to end through the built CLI, the real claude binary and the scripted model
 * (e2e-verdicts suite: greet and answer, CONTROL vs CANDIDATE). Each test runs only the CLI calls
 * it needs (small matrices, -j 2, --sandbox local), so no shared setup can time out for all:
 * - `calibrate`: CONTROL run 2 × 2 times on greet (it alternates pass/fail by repetition) →
 *   calibration.json and the summary section; a comparison beside it shows the noise floor;
 * - `run --until-decided`: CANDIDATE always passes, CONTROL never → decided (improved) at look 2;
 * - an imbalance between the arms (CANDIDATE loses 2 of 3 runs to 429s, CONTROL none) makes the
 *   verdict inconclusive, with the worst case beside the analysis-set difference;
 * - `--baseline-from DIR` reuses DIR's CONTROL runs; a fingerprint mismatch refuses with exit 2;
 *   `--allow-drift` runs anyway and records the differences.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comparison } from "../../src/report/comparison/index.js";
import { CalibrationSchema } from "../../src/report/calibration/types.js";
import { SequentialSchema } from "../../src/report/sequential/types.js";
import {
  fixtureSuite,
  makeSandbox,
  reportedRunIds,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = "e2e-verdicts";
const TIMEOUT = 420_000;
let sandbox: Sandbox;

const json = async (dir: string, file: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(dir, file), "utf8"));
const comparison = async (dir: string): Promise<Comparison> =>
  (await json(dir, "comparison.json")) as Comparison;
const local = ["-j", "2", "--sandbox", "local"];

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-verdicts");
});

afterAll(async () => {
  await sandbox?.remove();
});

describe("skillbench calibrate", () => {
  it(
    "runs one treatment as two arms, writes calibration.json and a summary section; a comparison beside it shows the noise floor",
    async () => {
      const root = sandbox.dir("results");
      const cal = path.join(root, "cal");
      const res = await runCli(
        [
          "calibrate",
          ...runArgs(
            SUITE,
            cal,
            "--treatment",
            "CONTROL",
            "--task",
            "greet",
            // 5 per arm: the fewest a noise floor is quoted from (docs/statistics.md §13)
            "--count",
            "5",
            ...local,
          ).slice(1),
        ],
        { env: sandbox.env() },
      );
      expect(res.stderr).toContain("10 runs planned");
      expect(res.code).toBe(0);
      const c = CalibrationSchema.parse(await json(cal, "calibration.json"));
      expect(c.settings).toMatchObject({ treatment: "CONTROL", per_arm: 5, splits: 200 });
      expect(c.tasks).toEqual([
        { task: "greet", runs: 10, passes: 5, pass_rate: 0.5, pair_disagreement: 50 / 90 },
      ]);
      expect(c.fingerprint.scripted).toBe(true);
      expect(c.resampled?.splits).toBe(200);
      const summary = await readFile(path.join(cal, "summary.md"), "utf8");
      expect(summary).toContain("## A/A calibration");
      expect(summary).toContain("| greet | 10 | 5 | 0.50 | 0.56 |");
      // the floor on the console, as summary.md ends its section
      const p95 = (c.resampled?.delta_abs_p95 ?? NaN).toFixed(2);
      const floor = `two halves of the same treatment differ by up to ±${p95} in pass rate (95% of 200 splits, 5 run(s) per arm)`;
      expect(res.stdout).toContain(`📏 Noise floor of CONTROL: ${floor}`);
      expect(summary).toContain(`📏 **Noise floor of \`CONTROL\`**: ${floor}`);

      const cmp = path.join(root, "cmp");
      const run = await runCli(runArgs(SUITE, cmp, "--task", "greet", "--count", "1", ...local), {
        env: sandbox.env(),
      });
      expect(run.code).toBe(0);
      const k = await comparison(cmp);
      expect(k.noise_floor).toMatchObject({ dir: cal, treatment: "CONTROL", arm: "baseline" });
      const md = await readFile(path.join(cmp, "comparison_report.md"), "utf8");
      expect(md).toContain("📏 **Noise floor** (A/A calibration of `CONTROL`, the baseline");
    },
    TIMEOUT,
  );

  it("refuses a list of treatments with exit 2", async () => {
    const res = await runCli(
      [
        "calibrate",
        ...runArgs(SUITE, sandbox.dir("cal-bad"), "--treatment", "CONTROL,CANDIDATE").slice(1),
      ],
      { env: sandbox.env() },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("calibrate takes exactly one treatment name");
  });
});

describe("run --until-decided", () => {
  it(
    "adds rounds until the band is decided, spending α across the looks",
    async () => {
      const dir = sandbox.dir("seq");
      const res = await runCli(
        [
          ...runArgs(
            SUITE,
            dir,
            "--task",
            "greet",
            "--count",
            "2",
            "--max-count",
            "6",
            "--until-decided",
            ...local,
          ),
          "--model-script",
          path.join(fixtureSuite(SUITE), "decided-script.yaml"),
        ],
        { env: sandbox.env() },
      );
      expect(res.code).toBe(1); // CONTROL's runs fail by design
      const s = SequentialSchema.parse(await json(dir, "sequential.json"));
      expect(s.status).toBe("decided");
      expect(s.looks.map((l) => [l.count, l.band])).toEqual([
        [2, "inconclusive"],
        [4, "improved"],
      ]);
      expect(s.looks[0]?.alpha_look).toBeCloseTo(0.000687, 5);
      expect(await reportedRunIds(dir)).toHaveLength(8);
      const c = await comparison(dir);
      expect(c.verdict.band).toBe("improved");
      expect(c.sequential).toMatchObject({ look: 2, count: 4, max_count: 6, status: "decided" });
    },
    TIMEOUT,
  );

  it(
    "the step summary's verdict is comparison_report.md's (the band at the last look's level), after the run, after `report` and after `rescore`",
    async () => {
      const dir = sandbox.dir("seq-summary");
      const stepSummary = path.join(sandbox.root, "seq-step-summary.md");
      await runCli(
        [
          ...runArgs(
            SUITE,
            dir,
            "--task",
            "greet",
            "--count",
            "2",
            "--max-count",
            "6",
            "--until-decided",
            ...local,
          ),
          "--model-script",
          path.join(fixtureSuite(SUITE), "decided-script.yaml"),
        ],
        { env: { ...sandbox.env(), GITHUB_STEP_SUMMARY: stepSummary } },
      );
      const c = await comparison(dir);
      expect(c.sequential).toMatchObject({ look: 2, status: "decided" });
      expect(await readFile(path.join(dir, "comparison_report.md"), "utf8")).toContain(
        c.verdict.headline,
      );
      const verdictLine = `**Verdict:** ${c.verdict.headline.replace(/\n+/g, " ")}`;
      const verdictOf = async (file: string): Promise<string[]> =>
        (await readFile(file, "utf8")).split("\n").filter((l) => l.startsWith("**Verdict:**"));
      expect(await verdictOf(stepSummary)).toEqual([verdictLine]);
      // `report` writes the reports again and the step summary from the same comparison.
      const again = path.join(sandbox.root, "seq-step-summary-report.md");
      const rep = await runCli(["report", dir, "--no-html"], {
        env: { ...sandbox.env(), GITHUB_STEP_SUMMARY: again },
      });
      expect(rep.code).toBe(0);
      expect(await verdictOf(again)).toEqual([verdictLine]);
      // So does `rescore` (its own reading and comparison, not a second one at the full level).
      const rescored = path.join(sandbox.root, "seq-step-summary-rescore.md");
      const res = await runCli(["rescore", dir, "--no-html"], {
        env: { ...sandbox.env(), GITHUB_STEP_SUMMARY: rescored },
      });
      expect(res.code).toBe(0);
      expect(await verdictOf(rescored)).toEqual([verdictLine]);
    },
    TIMEOUT,
  );

  it("--until-decided without --max-count is bad input", async () => {
    const res = await runCli(runArgs(SUITE, sandbox.dir("seq-bad"), "--until-decided"), {
      env: sandbox.env(),
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--until-decided needs --max-count");
  });
});

describe("exclusion imbalance", () => {
  it(
    "CANDIDATE loses 2/3 runs to 429s, CONTROL 0/3: inconclusive, worst case shown",
    async () => {
      const dir = sandbox.dir("imbalance");
      await runCli(
        [
          ...runArgs(SUITE, dir, "--count", "3", "--task", "greet", ...local),
          "--model-script",
          path.join(fixtureSuite(SUITE), "imbalance-script.yaml"),
        ],
        { env: sandbox.env() },
      );
      const c = await comparison(dir);
      expect(c.verdict.exclusion).toMatchObject({
        candidate: { excluded: 2, raw: 3 },
        baseline: { excluded: 0, raw: 3 },
        imbalanced: true,
      });
      expect(c.verdict.band).toBe("inconclusive");
      expect(c.verdict.delta).toBeCloseTo(0, 12);
      expect(c.verdict.worst_case.delta).toBeCloseTo(1 / 3 - 1, 12);
      const md = await readFile(path.join(dir, "comparison_report.md"), "utf8");
      expect(md).toContain(
        "⚠️ **Inconclusive**: The arms lost different shares of runs to exclusion",
      );
      expect(md).toMatch(/\| Δ pass rate, worst case \| -0\.67 \[/);
    },
    TIMEOUT,
  );
});

describe("--baseline-from", () => {
  it(
    "reuses the frozen CONTROL runs; a mismatch refuses with exit 2; --allow-drift records it",
    async () => {
      const env = sandbox.env();
      const base = sandbox.dir("base");
      expect((await runCli(runArgs(SUITE, base, "--task", "greet", ...local), { env })).code).toBe(
        0,
      );

      const frozen = sandbox.dir("frozen");
      const f = await runCli(
        runArgs(SUITE, frozen, "--task", "greet", "--baseline-from", base, ...local),
        { env },
      );
      expect(f.stderr).toContain("1 frozen run(s) reused");
      expect(await reportedRunIds(frozen)).toEqual(["greet-CANDIDATE-r1", "greet-CONTROL-r1"]);
      expect(
        await readFile(path.join(frozen, "runs", "greet-CONTROL-r1", "report.json"), "utf8"),
      ).toBe(await readFile(path.join(base, "runs", "greet-CONTROL-r1", "report.json"), "utf8"));
      expect((await comparison(frozen)).frozen_baseline).toMatchObject({
        treatment: "CONTROL",
        runs: 1,
        drift: [],
      });

      const refused = sandbox.dir("refused");
      const r = await runCli(
        runArgs(
          SUITE,
          refused,
          "--task",
          "greet",
          "--baseline-from",
          base,
          "--model",
          "other-model",
          ...local,
        ),
        { env },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("model: frozen CLI default, now other-model");
      expect(await reportedRunIds(refused)).toEqual([]);

      const drift = sandbox.dir("drift");
      await runCli(
        runArgs(
          SUITE,
          drift,
          "--task",
          "greet",
          "--baseline-from",
          base,
          "--model",
          "other-model",
          "--allow-drift",
          ...local,
        ),
        { env },
      );
      expect(await reportedRunIds(drift)).toHaveLength(2);
      const md = await readFile(path.join(drift, "comparison_report.md"), "utf8");
      expect(md).toContain("🧊 **Frozen baseline:**");
      expect(md).toContain("> - model: frozen CLI default, now other-model");
    },
    TIMEOUT,
  );
});
