/**
 * End to end: `skillbench run` with the real claude binary against the scripted model
 * (test/fixtures/suites/e2e-compare: one task, CONTROL vs CANDIDATE, 6 reps), then
 * writeComparison on the results. Rep 6 of both treatments gets HTTP 429 on every
 * attempt (CLAUDE_CODE_MAX_RETRIES=0), so it is excluded and each treatment's analysis set
 * is reps 1-5: CANDIDATE passes reps 1-4 (c = 4), CONTROL reps 1-2 (c = 2).
 * 12 short claude spawns, two at a time. Runs dist/: `npm run build` first (npm test does).
 */
import { spawn } from "node:child_process";
import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildComparison,
  writeComparison,
  type Comparison,
} from "../../src/report/comparison/index.js";
import { readMetadata } from "../../src/store/metadata.js";
import { readReports } from "../../src/store/read.js";

const SUITE = path.resolve("test/fixtures/suites/e2e-compare");
const CLI = path.resolve("dist/cli/main.js");

let root: string;
let outDir: string;
let exitCode: number | null;
let stderr = "";
let md = "";
let json: Comparison;
let written: unknown;

function runCli(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, CI: "1" },
    });
    child.stdout.on("data", () => undefined);
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/** The cells of a markdown table, keyed by its header, one record per row. */
function tableRows(text: string, firstHeader: string): Array<Record<string, string>> {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${firstHeader}`));
  if (start < 0) throw new Error(`no table starting with ${firstHeader}`);
  const split = (l: string): string[] => l.slice(2, -2).split(" | ");
  const header = split(lines[start] ?? "");
  const rows: Array<Record<string, string>> = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith("|")) break;
    const cells = split(l);
    rows.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
  }
  return rows;
}

beforeAll(async () => {
  await access(CLI).catch(() => {
    throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  });
  root = await mkdtemp(path.join(tmpdir(), "skillbench-e2e-compare-"));
  outDir = path.join(root, "out");
  exitCode = await runCli([
    "run",
    SUITE,
    "--model-script",
    path.join(SUITE, "model-script.yaml"),
    "--count",
    "6",
    "-j2",
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--out",
    outDir,
  ]);
  await writeComparison(outDir);
  md = await readFile(path.join(outDir, "comparison_report.md"), "utf8");
  written = JSON.parse(await readFile(path.join(outDir, "comparison.json"), "utf8"));
  // The same object, rebuilt from the stored results (typed, for the field checks below).
  json = buildComparison({
    reports: (await readReports(outDir)).reports,
    metadata: await readMetadata(path.join(outDir, "metadata.json")),
  });
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("comparison of a real run", () => {
  it("ran every run (exit 1: some failed)", () => {
    expect(stderr).not.toContain("internal error");
    expect(exitCode).toBe(1);
  });

  it("comparison.json holds the Comparison object", () => {
    expect(written).toEqual(JSON.parse(JSON.stringify(json)));
  });

  it("defaults the roles: CANDIDATE vs CONTROL", () => {
    expect(json.roles).toEqual({ candidate: "CANDIDATE", baseline: "CONTROL", control: "CONTROL" });
    expect(md).toContain("- Candidate: `CANDIDATE`\n- Baseline: `CONTROL`\n- Control: `CONTROL`");
    expect(json.warnings).toEqual([]);
  });

  // Hand-computed, n = 5 (analysis set): C(n−c,k)/C(n,k) and C(c,k)/C(n,k).
  it.each([
    {
      treatment: "CANDIDATE",
      cells: {
        "pass@1": "0.80",
        "pass@2": "1.00",
        "pass@5": "1.00",
        "pass^1 strict": "0.00",
        "pass^2 strict": "0.00",
        "pass^5 strict": "0.00",
        "pass^1 unbiased": "0.80",
        "pass^2 unbiased": "0.60",
        "pass^5 unbiased": "0.00",
        "c/n": "4/5",
      },
      at: { 1: 0.8, 2: 1, 5: 1 },
      unbiased: { 1: 0.8, 2: 0.6, 5: 0 },
    },
    {
      treatment: "CONTROL",
      cells: {
        "pass@1": "0.40",
        "pass@2": "0.70",
        "pass@5": "1.00",
        "pass^1 strict": "0.00",
        "pass^2 strict": "0.00",
        "pass^5 strict": "0.00",
        "pass^1 unbiased": "0.40",
        "pass^2 unbiased": "0.10",
        "pass^5 unbiased": "0.00",
        "c/n": "2/5",
      },
      at: { 1: 0.4, 2: 0.7, 5: 1 },
      unbiased: { 1: 0.4, 2: 0.1, 5: 0 },
    },
  ])("pass@k / pass^k of $treatment", ({ treatment, cells, at, unbiased }) => {
    const row = tableRows(md, "Metric | Treatment | pass@1").find((r) => r.Treatment === treatment);
    expect(row).toMatchObject({ Metric: "overall", ...cells });
    const j = json.pass_k.rows.find((r) => r.treatment === treatment && r.metric === "overall");
    expect(json.pass_k.ks).toEqual([1, 2, 5]);
    for (const [k, v] of Object.entries(at)) expect(j?.pass_at_k[k]).toBeCloseTo(v, 12);
    for (const [k, v] of Object.entries(unbiased))
      expect(j?.pass_hat_k_unbiased[k]).toBeCloseTo(v, 12);
    for (const k of ["1", "2", "5"]) expect(j?.pass_hat_k_strict[k]).toBe(0);
    const b = json.pass_k.bootstrap.find(
      (r) => r.treatment === treatment && r.metric === "overall",
    );
    expect(b?.pass_at_k["1"]?.estimate).toBeCloseTo(at[1], 12);
  });

  it("task outcomes aggregate every run", () => {
    expect(tableRows(md, "Task | ")).toEqual([
      { Task: "greet", CONTROL: "2/5 (flip)", CANDIDATE: "4/5 (flip)" },
    ]);
  });

  it("the 429 runs are excluded from the analysis set but listed", () => {
    expect(json.data_quality).toEqual([
      expect.objectContaining({ treatment: "CONTROL", raw: 6, analysis: 5, excluded: 1 }),
      expect.objectContaining({ treatment: "CANDIDATE", raw: 6, analysis: 5, excluded: 1 }),
    ]);
    expect(json.run_counts.map((r) => [r.treatment, r.runs, r.passed])).toEqual([
      ["CONTROL", 5, 2],
      ["CANDIDATE", 5, 4],
    ]);
    expect(json.excluded_runs.map((r) => [r.run_id, r.reason_code])).toEqual([
      ["greet-CONTROL-r6", "rate_limited"],
      ["greet-CANDIDATE-r6", "rate_limited"],
    ]);
    const excluded = tableRows(md.slice(md.indexOf("## Excluded runs")), "Run | Task");
    expect(excluded.map((r) => r.Run)).toEqual(["`greet-CONTROL-r6`", "`greet-CANDIDATE-r6`"]);
    expect(excluded[0]?.Reason).toContain("rate_limited");
    expect(tableRows(md, "Treatment | Raw runs")).toEqual([
      {
        Treatment: "CONTROL",
        "Raw runs": "6",
        "Analysis set": "5",
        Flagged: expect.any(String),
        Excluded: "1",
      },
      { Treatment: "CANDIDATE", "Raw runs": "6", "Analysis set": "5", Flagged: "0", Excluded: "1" },
    ]);
  });

  it("verdict: inconclusive with one task (the interval spans −margin and 0); no rubric regression", () => {
    expect(json.verdict.kind).toBe("no_regression");
    expect(json.verdict.band).toBe("inconclusive");
    expect(md).toContain(
      "⚠️ **Inconclusive**: Not resolved at this sample size: Δ pass rate +0.40",
    );
    expect(md).not.toContain("is stable");
    // the decision's interval projected from the observed rates (docs/statistics.md §9)
    expect(json.verdict.runs_needed).toMatchObject({
      status: "more_runs",
      goal: "improvement",
      per_treatment_total: 15,
      more_per_treatment: 10,
      more_per_task: 10,
    });
    expect(json.paired.candidate_pass_rate).toBeCloseTo(0.8, 12);
    expect(json.paired.baseline_pass_rate).toBeCloseTo(0.4, 12);
    expect(json.paired.delta_pass_rate?.estimate).toBeCloseTo(0.4, 12);
    expect(json.paired.sign_test).toEqual({ pos: 1, neg: 0, ties: 0, p: 1 });
    expect(json.paired.distinguishable).toBe(false);
    expect(json.paired.reps_needed).toBe(23);
    expect(md).toContain("is not distinguishable from noise at this sample size");
  });
});
