/**
 * Models as a matrix axis, end to end with the built CLI, the real Claude Code binary and the
 * scripted model (docs/agents.md, "Models as a matrix axis"): one run of the e2e-models suite with
 * `--model large,small --count 2` (1 task × 2 treatments × 2 models × 2 reps = 8 runs). The script
 * answers by the model each request asks for (`when: model`), so the greeter Skill helps on
 * `large` and hurts on `small`; the assertions read the files the run wrote.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import type { Comparison } from "../../src/report/comparison/index.js";
import { readReports } from "../../src/store/read.js";
import { assertBuilt, makeSandbox, runArgs, runCli, type Sandbox } from "../helpers/cli.js";

let box: Sandbox;
let out: string;
let code: number | null;
let reports: RunReport[];
let comparison: Comparison;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("models");
  out = box.dir("out");
  const r = await runCli(
    runArgs(
      "e2e-models",
      out,
      "--model",
      "large,small",
      "--count",
      "2",
      "-j",
      "4",
      "--preflight",
      "off",
      "--exit-zero",
    ),
    { env: box.env() },
  );
  code = r.code;
  reports = (await readReports(out)).reports;
  comparison = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
}, 600_000);
afterAll(async () => {
  await box?.remove();
});

const text = (name: string): Promise<string> => readFile(path.join(out, name), "utf8");

describe("a two-model matrix", () => {
  it("runs every treatment on each model, the model in the run id, the plan and the report", async () => {
    expect(code).toBe(0);
    expect(reports.map((r) => r.run_id).sort()).toEqual([
      "tone-CONTROL~large-r1",
      "tone-CONTROL~large-r2",
      "tone-CONTROL~small-r1",
      "tone-CONTROL~small-r2",
      "tone-WITH_SKILL~large-r1",
      "tone-WITH_SKILL~large-r2",
      "tone-WITH_SKILL~small-r1",
      "tone-WITH_SKILL~small-r2",
    ]);
    for (const r of reports) {
      const model = r.run_id.includes("~large") ? "large" : "small";
      expect(r.model, r.run_id).toBe(model);
      const plan = JSON.parse(
        await readFile(path.join(out, "runs", r.run_id, "plan.json"), "utf8"),
      ) as { model: string };
      expect(plan.model, r.run_id).toBe(model);
      // The runs of one treatment on two models count their model requests apart.
      expect(r.model_api?.requests, r.run_id).toBe(r.treatment === "CONTROL" ? 2 : 3);
    }
    // metadata.json: the experiment's model is the first; a row names its model when it differs.
    const meta = JSON.parse(await text("metadata.json")) as {
      model: string;
      matrix: Array<{ run_id: string; model?: string }>;
    };
    expect(meta.model).toBe("large");
    for (const row of meta.matrix)
      expect(row.model, row.run_id).toBe(row.run_id.includes("~small") ? "small" : undefined);
  });

  it("gets each model's own answers: the Skill helps on large and hurts on small", () => {
    const passed = (treatment: string, model: string): string => {
      const rs = reports.filter((r) => r.treatment === treatment && r.model === model);
      return `${rs.filter((r) => r.passed).length}/${rs.length}`;
    };
    expect([
      passed("WITH_SKILL", "large"),
      passed("CONTROL", "large"),
      passed("WITH_SKILL", "small"),
      passed("CONTROL", "small"),
    ]).toEqual(["2/2", "0/2", "0/2", "2/2"]);
  });

  it("refuses the pooled verdict of arms that mix models and splits the comparison per model", () => {
    const v = comparison.verdict;
    expect(v.kind).toBe("mixed_models");
    expect(v.band).toBe("inconclusive");
    expect(v.reason).toMatch(/^mixed models: split per model\. /);
    expect(v.reason).toContain("`WITH_SKILL` helps on large, hurts on small.");
    expect(comparison.mixed_model_arms?.map((m) => m.treatment)).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(
      comparison.by_model?.map((m) => [
        m.model,
        m.comparison?.verdict.delta,
        m.comparison?.verdict.band,
      ]),
    ).toEqual([
      ["large", 1, "improved"],
      ["small", -1, "regressed"],
    ]);
  });

  it("shows the split in comparison_report.md and summary.md", async () => {
    const md = await text("comparison_report.md");
    expect(md).toContain("mixed models: split per model");
    expect(md).toContain("## By model");
    expect(md).toMatch(/\| large \| 4 \| 2\/2 \(100%\) \| 0\/2 \(0%\) \| \+1\.00 .*\(helps\) \|/);
    expect(md).toMatch(/\| small \| 4 \| 0\/2 \(0%\) \| 2\/2 \(100%\) \| -1\.00 .*\(hurts\) \|/);
    const summary = await text("summary.md");
    expect(summary).toContain("**Models:** large, small");
    expect(summary).toMatch(/\| tone \| WITH_SKILL \| small \| 2 \| 0\/2 \|/);
    expect(summary).toContain("## Aggregated by Treatment and Model");
  });

  it("keeps the models in the history store and the PR comment", async () => {
    const db = path.join(box.root, "history.db");
    expect(
      (await runCli(["history", "import", out, "--history", db], { env: box.env() })).code,
    ).toBe(0);
    const shown = await runCli(["history", "show", "--history", db, "--json"], { env: box.env() });
    const records = (JSON.parse(shown.stdout) as { records: Array<Record<string, unknown>> })
      .records;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      model: "large, small",
      band: "inconclusive",
      by_model: [
        { model: "large", band: "improved", delta: 1 },
        { model: "small", band: "regressed", delta: -1 },
      ],
    });
    const comment = await runCli(["comment", out], { env: box.env() });
    expect(comment.code).toBe(0);
    expect(comment.stdout).toContain("claude-code, large, small;");
    expect(comment.stdout).toContain("`WITH_SKILL` helps on large, hurts on small.");
  });
});
