/**
 * Issue #38, judges you can trust, end to end with the scripted judge (docs/judge.md):
 * - fail closed: a judge that answers garbage, and garbage again to the repair turn, leaves the
 *   run's judge dimensions N/A with the cause; every report says so, and a `--fail-under` on the
 *   dimension fails with that cause instead of passing on the remaining runs;
 * - pairwise, positions swapped: a judge that always prefers the first position leaves every pair
 *   a tie with a position bias of 1.0, in comparison.json, comparison_report.md and the HTML, and
 *   `report` shows it again from the stored pairwise.json, and `rescore` takes the pairs from the
 *   judge cache without a judge request;
 * - ties are ties: a judge that scores longer answers higher is flagged as a verbosity bias;
 * - independence: a judge of the agent's own family is a warning in every report, and
 *   `--judge-independent` refuses it (exit 2).
 * - the judge under a budget: its calls metered apart from the runs', and counted again on
 *   `--resume` (a copy of the folder resumed with a budget its runs alone would leave room in).
 */
import { existsSync } from "node:fs";
import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = fixtureSuite("e2e-judge-trust");
let box: Sandbox;

function args(script: string, out: string, ...extra: string[]): string[] {
  return [
    "run",
    SUITE,
    "--model-script",
    path.join(SUITE, script),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--judge",
    "--judge-model",
    "scripted-judge",
    ...extra,
  ];
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("judge-trust-");
});

afterAll(async () => {
  await box.remove();
});

describe("a judge that fails closed", () => {
  let out: string;
  let res: CliResult;
  beforeAll(async () => {
    out = box.dir("garbage");
    res = await runCli(
      args(
        "model-script.yaml",
        out,
        "--fail-under",
        "CANDIDATE:judge.task_completion=0.5",
        // A budget none of it reaches: the judge's calls are metered apart (docs/budgets.md).
        "--budget-tokens",
        "100000000",
      ),
      { env: box.env() },
    );
  });

  it("meters the judge's calls under the budget as its own spend, never in the runs' metered", async () => {
    const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
      budget?: { spent_tokens: number; judge?: { calls: number; refused: number; tokens: number } };
    };
    let judgeTokens = 0;
    let runTokens = 0;
    for (const id of [
      "note-CONTROL-r1",
      "note-CONTROL-r2",
      "note-CANDIDATE-r1",
      "note-CANDIDATE-r2",
    ]) {
      const r = await readRunReport(out, id);
      judgeTokens += (r.judge?.tokens?.input ?? 0) + (r.judge?.tokens?.output ?? 0);
      runTokens += r.metered?.total_tokens ?? 0;
    }
    // Four runs' judges, one with its repair turn: five calls, their tokens the judge's own.
    expect(meta.budget?.judge).toMatchObject({ calls: 5, refused: 0 });
    expect(judgeTokens).toBeGreaterThan(0);
    expect(meta.budget?.judge?.tokens).toBe(judgeTokens);
    expect(meta.budget?.spent_tokens).toBe(runTokens);
    // The console's end line says the judge's spend apart from the runs'.
    expect(res.stdout).toContain(
      `Budget: spent $0.0000, ${runTokens} tokens; the judge $0.0000, ${judgeTokens} tokens in 5 call(s)`,
    );
  });

  it("leaves the failed run's judge dimensions N/A with the cause, never a score", async () => {
    const bad = await readRunReport(out, "note-CANDIDATE-r1");
    expect(bad.judge?.status).toBe("failed");
    expect(bad.judge?.repairs).toBe(1);
    expect(bad.judge?.dimensions.map((d) => [d.name, d.score])).toEqual([
      ["task_completion", null],
      ["output_quality", null],
      ["instruction_adherence", null],
    ]);
    expect(bad.judge?.dimensions[0]?.reason).toMatch(/also after one repair attempt/);
    const good = await readRunReport(out, "note-CANDIDATE-r2");
    expect(good.judge?.dimensions[0]?.score).toBe(0.9);
  });

  it("fails the threshold on that dimension with its cause (the other run alone would pass)", () => {
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(
      /CANDIDATE judge.task_completion is not computable: judge.task_completion is N\/A on 1 of 2 run\(s\) of CANDIDATE \(note-CANDIDATE-r1: judge failed: no parseable verdict/,
    );
  });

  it("says so in summary.md, comparison_report.md, comparison.json and the HTML", async () => {
    const note = /LLM judge failed on 1 of 4 judged run\(s\); their judge dimensions are N\/A/;
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toMatch(note);
    expect(await readFile(path.join(out, "comparison_report.md"), "utf8")).toMatch(note);
    const cmp = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as {
      judge?: { runs_judged: number; failed: { run_id: string }[] };
    };
    expect(cmp.judge?.runs_judged).toBe(4);
    expect(cmp.judge?.failed.map((f) => f.run_id)).toEqual(["note-CANDIDATE-r1"]);
    for (const page of ["summary.html", "comparison_report.html"]) {
      expect(existsSync(path.join(out, page))).toBe(true);
      expect(await readFile(path.join(out, page), "utf8")).toMatch(note);
    }
  });

  it("--resume counts the judge's earlier spend: a budget the runs alone would leave room in refuses", async () => {
    type Meta = {
      budget: {
        refused: string | null;
        unrun: string[];
        judge?: { calls: number; refused: number; tokens: number };
      };
    };
    const first = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as Meta;
    const reports = await Promise.all(
      ["note-CONTROL-r1", "note-CONTROL-r2", "note-CANDIDATE-r1", "note-CANDIDATE-r2"].map((id) =>
        readRunReport(out, id),
      ),
    );
    const runs = reports.map((r) => r.metered?.total_tokens ?? 0);
    const largest = Math.max(...runs);
    // A copy, so the folder the other tests read stays as it was.
    const resumed = box.dir("garbage-resumed");
    await cp(out, resumed, { recursive: true });
    // Room for the recorded runs and one more (a run is estimated at the largest of its task's),
    // but not once the judge's earlier calls are counted too: no run starts.
    const budget = runs.reduce((n, t) => n + t, 0) + largest;
    const again = await runCli(
      args(
        "model-script.yaml",
        resumed,
        "--resume",
        "--count",
        "3",
        "--budget-tokens",
        String(budget),
      ),
      { env: box.env() },
    );
    expect(again.code, again.stderr).toBe(1);
    const meta = JSON.parse(await readFile(path.join(resumed, "metadata.json"), "utf8")) as Meta;
    expect([...meta.budget.unrun].sort()).toEqual(["note-CANDIDATE-r3", "note-CONTROL-r3"]);
    expect(meta.budget.refused).toMatch(
      new RegExp(
        `the budget of ${budget} tokens has \\d+ left, the run is estimated at ${largest}`,
      ),
    );
    // budget.judge is the experiment's: the earlier invocation's five calls, none asked again.
    expect(meta.budget.judge).toEqual(first.budget.judge);
  });
});

describe("--judge pairwise with a judge that always prefers the first position", () => {
  let out: string;
  beforeAll(async () => {
    out = box.dir("first");
    const res = await runCli(
      args("script-first.yaml", out, "--exit-zero").flatMap((a) =>
        a === "--judge" ? ["--judge", "pairwise"] : [a],
      ),
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
  });

  it("judges each pair twice, positions swapped, and no run alone", async () => {
    const f = JSON.parse(await readFile(path.join(out, "pairwise.json"), "utf8")) as {
      candidate: string;
      baseline: string;
      pairs: {
        outcome: string;
        disagree: boolean;
        first: { preferred: string };
        second: { preferred: string };
      }[];
    };
    expect([f.candidate, f.baseline]).toEqual(["CANDIDATE", "CONTROL"]);
    expect(
      f.pairs.map((p) => [p.first.preferred, p.second.preferred, p.outcome, p.disagree]),
    ).toEqual([
      ["A", "A", "tie", true],
      ["A", "A", "tie", true],
    ]);
    expect((await readRunReport(out, "note-CANDIDATE-r1")).judge).toBeNull();
  });

  it("all ties and a position bias of 1.0 in comparison.json, comparison_report.md and the HTML", async () => {
    const cmp = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as {
      judge?: { pairwise?: Record<string, unknown> };
    };
    expect(cmp.judge?.pairwise).toMatchObject({
      pairs: 2,
      wins: 0,
      losses: 0,
      ties: 2,
      position_bias: 1,
      win_rate: null,
      sign_test: { tasks_better: 0, tasks_worse: 0, tasks_even: 1, p: null },
    });
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toContain("## Pairwise judge (positions swapped)");
    expect(md).toMatch(/\| 2 \| 0 \| 0 \| 2 \| 1\.00 \| — \|/);
    const html = await readFile(path.join(out, "comparison_report.html"), "utf8");
    expect(html).toContain('"position_bias":1');
  });

  it("`rescore` takes the pairs from the judge cache: no judge request, the same verdicts", async () => {
    type Pairs = {
      pairs: { outcome: string; first: { calls: number }; second: { calls: number } }[];
    };
    const before = JSON.parse(await readFile(path.join(out, "pairwise.json"), "utf8")) as Pairs;
    expect(before.pairs.map((p) => [p.first.calls, p.second.calls])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    const res = await runCli(
      [
        "rescore",
        out,
        "--judge",
        "pairwise",
        "--judge-model",
        "scripted-judge",
        "--model-script",
        path.join(SUITE, "script-first.yaml"),
        "--no-html",
      ],
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    const after = JSON.parse(await readFile(path.join(out, "pairwise.json"), "utf8")) as Pairs;
    // `calls` counts the requests each order sent: none.
    expect(after.pairs.map((p) => [p.outcome, p.first.calls, p.second.calls])).toEqual([
      ["tie", 0, 0],
      ["tie", 0, 0],
    ]);
  });

  it("`report` shows the stored pairwise verdicts again", async () => {
    const res = await runCli(["report", out, "--no-html"], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    expect(await readFile(path.join(out, "comparison_report.md"), "utf8")).toContain(
      "## Pairwise judge (positions swapped)",
    );
  });
});

describe("a judge that prefers the longer answer", () => {
  let out: string;
  beforeAll(async () => {
    out = box.dir("longer");
    const res = await runCli(args("script-longer.yaml", out, "--count", "3", "--exit-zero"), {
      env: box.env(),
    });
    expect(res.code, res.stderr).toBe(0);
  });

  it("records what the judge read, and the correlation per arm, flagged", async () => {
    const lens = await Promise.all(
      [1, 2, 3].map(
        async (r) => (await readRunReport(out, `note-CONTROL-r${r}`)).judge?.answer_chars ?? 0,
      ),
    );
    expect(lens[0]).toBeLessThan(lens[1] ?? 0);
    expect(lens[1]).toBeLessThan(lens[2] ?? 0);
    const cmp = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as {
      judge?: { verbosity?: { treatment: string; runs: number; r: number; flagged: boolean }[] };
    };
    const rows = cmp.judge?.verbosity ?? [];
    expect(rows.map((r) => [r.treatment, r.runs, r.flagged])).toEqual([
      ["CONTROL", 3, true],
      ["CANDIDATE", 3, true],
    ]);
    for (const r of rows) expect(r.r).toBeGreaterThan(0.9);
  });

  it("says so in summary.md, comparison_report.md and the HTML", async () => {
    const note =
      /Possible verbosity bias: the judge's score rises with answer length in .*CONTROL \(r = [01]\.\d\d over 3 runs\)/;
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toMatch(note);
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toMatch(note);
    expect(md).toMatch(
      /LLM judge score against answer length .*CONTROL [01]\.\d\d \(3 runs\) ⚠️ flagged/,
    );
    expect(await readFile(path.join(out, "summary.html"), "utf8")).toMatch(note);
  });
});

describe("a judge of the agent's own model family", () => {
  it("is a warning in summary.md, comparison_report.md and the HTML", async () => {
    const out = box.dir("family");
    const res = await runCli(
      args("script-longer.yaml", out, "--count", "1", "--exit-zero").map((a) =>
        a === "scripted-judge" ? "claude-haiku-judge" : a,
      ),
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    const note =
      /The LLM judge is of the same model family as the agent it judges: claude-haiku-judge judging claude-code, both anthropic, 2 run\(s\)/;
    for (const f of [
      "summary.md",
      "comparison_report.md",
      "summary.html",
      "comparison_report.html",
    ])
      expect(await readFile(path.join(out, f), "utf8")).toMatch(note);
  });

  it("is refused with --judge-independent (exit 2, nothing run)", async () => {
    const out = box.dir("family-refused");
    const res = await runCli(
      args("script-longer.yaml", out, "--count", "1", "--judge-independent").map((a) =>
        a === "scripted-judge" ? "claude-haiku-judge" : a,
      ),
      { env: box.env() },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /--judge-independent: the judge model claude-haiku-judge is of the anthropic family, as is the agent claude-code/,
    );
    expect(existsSync(path.join(out, "runs"))).toBe(false);
  });
});
