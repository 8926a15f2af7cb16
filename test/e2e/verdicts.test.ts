/**
 * Verdicts end to end through the built CLI, the real claude binary and the scripted model
 * (e2e-verdicts suite: greet and answer, CONTROL vs CANDIDATE):
 * - an imbalance between the arms (CANDIDATE loses 2 of 3 runs to 429s, CONTROL none) makes the
 *   verdict inconclusive, with the worst case beside the analysis-set difference;
 * - `--baseline-from DIR` reuses DIR's CONTROL runs and runs only CANDIDATE; a fingerprint
 *   mismatch (another --model) refuses with exit 2 and the list of differences; `--allow-drift`
 *   runs anyway and records them.
 * 12 claude spawns, 2 at a time.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comparison } from "../../src/report/comparison/index.js";
import {
  fixtureSuite,
  makeSandbox,
  reportedRunIds,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

let sandbox: Sandbox;
const dirs = { imbalance: "", base: "", frozen: "", drift: "", refused: "" };
const cli: Record<string, CliResult> = {};

const comparison = async (dir: string): Promise<Comparison> =>
  JSON.parse(await readFile(path.join(dir, "comparison.json"), "utf8")) as Comparison;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-verdicts");
  for (const k of Object.keys(dirs) as Array<keyof typeof dirs>) dirs[k] = sandbox.dir(k);
  const env = sandbox.env();
  cli.imbalance = await runCli(
    [
      ...runArgs("e2e-verdicts", dirs.imbalance, "--count", "3", "--task", "greet"),
      "--model-script",
      path.join(fixtureSuite("e2e-verdicts"), "imbalance-script.yaml"),
    ],
    { env },
  );
  cli.base = await runCli(runArgs("e2e-verdicts", dirs.base, "--count", "1"), { env });
  cli.frozen = await runCli(
    runArgs("e2e-verdicts", dirs.frozen, "--count", "1", "--baseline-from", dirs.base),
    { env },
  );
  cli.refused = await runCli(
    runArgs("e2e-verdicts", dirs.refused, "--baseline-from", dirs.base, "--model", "other-model"),
    { env },
  );
  cli.drift = await runCli(
    runArgs(
      "e2e-verdicts",
      dirs.drift,
      "--baseline-from",
      dirs.base,
      "--model",
      "other-model",
      "--allow-drift",
    ),
    { env },
  );
}, 600_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("exclusion imbalance", () => {
  it("CANDIDATE loses 2/3 runs to 429s, CONTROL 0/3: inconclusive, worst case shown", async () => {
    const c = await comparison(dirs.imbalance);
    expect(c.verdict.exclusion).toMatchObject({
      candidate: { excluded: 2, raw: 3 },
      baseline: { excluded: 0, raw: 3 },
      imbalanced: true,
    });
    expect(c.verdict.band).toBe("inconclusive");
    expect(c.verdict.delta).toBeCloseTo(0, 12); // 1/1 vs 3/3 in the analysis set
    expect(c.verdict.worst_case.delta).toBeCloseTo(1 / 3 - 1, 12); // 1/3 vs 3/3
    const md = await readFile(path.join(dirs.imbalance, "comparison_report.md"), "utf8");
    expect(md).toContain(
      "⚠️ **Inconclusive**: The arms lost different shares of runs to exclusion",
    );
    expect(md).toMatch(/\| Δ pass rate, worst case \| -0\.67 \[/);
  });
});

describe("--baseline-from", () => {
  it("reuses the frozen CONTROL runs and runs only CANDIDATE", async () => {
    expect(cli.base?.code).toBe(0);
    expect(cli.frozen?.stderr).toContain("4 runs planned (2 to run, 2 already complete)");
    expect(cli.frozen?.stderr).toContain("2 frozen run(s) reused");
    expect(await reportedRunIds(dirs.frozen)).toEqual([
      "answer-CANDIDATE-r1",
      "answer-CONTROL-r1",
      "greet-CANDIDATE-r1",
      "greet-CONTROL-r1",
    ]);
    const frozenReport = await readFile(
      path.join(dirs.frozen, "runs", "greet-CONTROL-r1", "report.json"),
      "utf8",
    );
    expect(frozenReport).toBe(
      await readFile(path.join(dirs.base, "runs", "greet-CONTROL-r1", "report.json"), "utf8"),
    );
    const c = await comparison(dirs.frozen);
    expect(c.frozen_baseline).toMatchObject({ treatment: "CONTROL", runs: 2, drift: [] });
    expect(c.run_counts.map((r) => r.runs)).toEqual([2, 2]);
  });

  it("a fingerprint mismatch refuses with exit 2 and the differences", async () => {
    expect(cli.refused?.code).toBe(2);
    expect(cli.refused?.stderr).toContain("do not match this run");
    expect(cli.refused?.stderr).toContain("model: frozen CLI default, now other-model");
    expect(await reportedRunIds(dirs.refused)).toEqual([]);
  });

  it("--allow-drift runs anyway and records the differences in metadata and the comparison", async () => {
    expect(await reportedRunIds(dirs.drift)).toHaveLength(4);
    const meta = JSON.parse(await readFile(path.join(dirs.drift, "metadata.json"), "utf8")) as {
      baseline_from: { drift: string[] };
    };
    expect(meta.baseline_from.drift).toEqual(["model: frozen CLI default, now other-model"]);
    const md = await readFile(path.join(dirs.drift, "comparison_report.md"), "utf8");
    expect(md).toContain("🧊 **Frozen baseline:**");
    expect(md).toContain("> - model: frozen CLI default, now other-model");
  });
});
