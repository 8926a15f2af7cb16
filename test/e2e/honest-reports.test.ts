/**
 * Honest reports, end to end through the built CLI, the real claude binary and the scripted
 * model (e2e-verdicts suite, 2 tasks x CONTROL/CANDIDATE):
 * - `--resume` with a smaller `--count` never shrinks the experiment: every complete stored run
 *   stays in every report, and metadata.json says what was asked this time;
 * - a `--model-script` run says so in summary.md, comparison_report.md/.json, both HTML pages and
 *   the JUnit properties, and its first line names the endpoint and where it came from.
 * 8 claude spawns (count 2), then a resume that spawns none.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeSandbox,
  reportedRunIds,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const LABEL = "scripted model (offline): not a measurement of a real model";
let sandbox: Sandbox;
let out: string;
let first: CliResult;
let resumed: CliResult;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-honest");
  out = sandbox.dir("out");
  const junit = path.join(sandbox.root, "junit.xml");
  first = await runCli(runArgs("e2e-verdicts", out, "--count", "2", "--junit", junit), {
    env: sandbox.env(),
  });
  resumed = await runCli(
    runArgs("e2e-verdicts", out, "--resume", "--count", "1", "--task", "greet"),
    { env: sandbox.env() },
  );
}, 300_000);

afterAll(async () => {
  await sandbox?.remove();
});

const read = (rel: string): Promise<string> => readFile(path.join(out, rel), "utf8");

describe("--resume never shrinks an experiment", () => {
  it("the first run wrote 8 runs; the resume with --count 1 --task greet ran none and kept all 8", async () => {
    expect(first.code).toBe(1); // CONTROL fails on rep 2
    expect(resumed.stderr).toContain("8 runs planned (0 to run, 8 already complete)");
    expect(resumed.stderr).toMatch(/6 complete stored run\(s\) outside this .* are kept/);
    expect(await reportedRunIds(out)).toHaveLength(8);
    const meta = JSON.parse(await read("metadata.json")) as {
      matrix: unknown[];
      count: number;
      last_invocation: { runs: number; kept_outside_request: number; asked: string };
    };
    expect(meta.matrix).toHaveLength(8);
    expect(meta.count).toBe(2);
    expect(meta.last_invocation).toMatchObject({ runs: 2, kept_outside_request: 6 });
    expect(meta.last_invocation.asked).toContain("--count 1");
    const summary = await read("summary.md");
    expect(summary).toContain("- Total Runs: 8");
    expect(summary).toMatch(
      /Resumed: this invocation asked for --count 1.*keep all 8 complete stored run\(s\)/,
    );
    const cmp = JSON.parse(await read("comparison.json")) as {
      run_counts: Array<{ treatment: string; runs: number }>;
    };
    expect(cmp.run_counts.map((r) => r.runs)).toEqual([4, 4]);
  });
});

describe("a --model-script run says so in every report", () => {
  it("the start-up line names the endpoint and its source", () => {
    expect(first.stderr).toMatch(
      /model endpoint: skillbench's scripted model server http:\/\/127\.0\.0\.1:\d+ playing .*model-script\.yaml \(from --model-script\)/,
    );
  });

  it("summary.md, comparison_report.md, comparison.json, both HTML pages and JUnit carry the label", async () => {
    expect(await read("summary.md")).toContain(LABEL);
    expect(await read("comparison_report.md")).toContain(LABEL);
    const cmp = JSON.parse(await read("comparison.json")) as { endpoint: unknown };
    expect(cmp.endpoint).toEqual({ scripted: true, label: LABEL });
    for (const page of ["summary.html", "comparison_report.html"]) {
      const html = await read(page);
      expect(html).toContain(`"scripted_label":"${LABEL}"`);
    }
    const junit = await readFile(path.join(sandbox.root, "junit.xml"), "utf8");
    const props = junit.match(/<property name="model_endpoint" value="([^"]*)"\/>/g) ?? [];
    expect(props).toHaveLength(8);
    expect(props[0]).toContain(LABEL);
  });
});
