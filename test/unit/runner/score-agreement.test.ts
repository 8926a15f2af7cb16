/**
 * Run and rescore score a run through one step over one workspace view (the manifest and the
 * saved copy): an expected binary artifact and an expected artifact over 1 MB, which the saved
 * copy leaves out, count as present for both, and a rescore reproduces the run's report exactly.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeDriver, replayDriver } from "../../../src/agents/index.js";
import { WorkspaceManifestSchema } from "../../../src/core/workspace-manifest.js";
import { rescoreResults } from "../../../src/runner/rescore.js";
import { runPaths } from "../../../src/store/layout.js";
import { readRunReport } from "../../../src/store/run-files.js";
import { runSuite } from "../../../src/runner/run-suite.js";
import { readReports } from "../../../src/store/read.js";

const tmp: string[] = [];
afterAll(async () => {
  for (const d of tmp) await rm(d, { recursive: true, force: true });
});

const PNG = `\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR${"\u0000".repeat(64)}`;
const BIG = "row,value\n".repeat(150_000); // 1.5 MB of text

async function suiteWithArtifacts(root: string): Promise<string> {
  const suite = path.join(root, "suite");
  const task = path.join(suite, "tasks", "chart");
  await mkdir(path.join(task, "validation"), { recursive: true });
  await writeFile(path.join(task, "instruction.md"), "Draw the chart into out/chart.png.\n");
  await writeFile(
    path.join(task, "task.toml"),
    [
      "[validation]",
      'test_scripts = ["check.sh"]',
      "",
      "[evaluation]",
      'expected_artifacts = ["out/chart.png", "out/table.csv", "out/*.png"]',
      "",
    ].join("\n"),
  );
  await writeFile(
    path.join(task, "validation", "check.sh"),
    '#!/usr/bin/env bash\necho \'{"passed": ["chart_drawn"], "failed": []}\'\n',
    { mode: 0o755 },
  );
  await mkdir(path.join(suite, "treatments"), { recursive: true });
  await writeFile(path.join(suite, "treatments", "t.yaml"), "CONTROL:\n  description: plain\n");
  return suite;
}

function resultLine(ws: string): string {
  const ev = [
    { type: "system", subtype: "init", session_id: "s", cwd: ws, model: "m" },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Done.",
      session_id: "s",
      num_turns: 1,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  ];
  return ev.map((e) => `${JSON.stringify(e)}\n`).join("");
}

describe("one scoring step for run and rescore", () => {
  it("agrees on a binary and a > 1 MB expected artifact", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "skillbench-agree-"));
    tmp.push(root);
    const suite = await suiteWithArtifacts(root);
    const out = path.join(root, "out");
    const driver = replayDriver({
      recorded: claudeDriver,
      play: (r) => ({
        stdout: resultLine(r.workspace),
        files: { "out/chart.png": PNG, "out/table.csv": BIG, "notes.md": "drawn\n" },
      }),
    });
    const summary = await runSuite({
      suite,
      count: 1,
      out,
      driver,
      sandbox: "local",
      html: false,
      hostEnv: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-replay" },
    });
    expect(summary.reports).toHaveLength(1);
    const run = (await readReports(out)).reports[0]!;
    const artifacts = run.rubric?.dimensions.find((d) => d.name.includes("artifact"));
    expect(artifacts?.checks.every((c) => c.passed)).toBe(true);
    expect(artifacts?.checks.map((c) => c.passed)).toEqual([true, true, true]);

    // The manifest lists both artifacts with size and hash; the saved copy leaves them out.
    const dir = path.join(out, "runs", run.run_id);
    const manifest = WorkspaceManifestSchema.parse(
      JSON.parse(await readFile(path.join(dir, "workspace-manifest.json"), "utf8")),
    );
    const entry = (p: string) => manifest.entries.find((e) => e.path === p);
    expect(entry("out/chart.png")).toMatchObject({
      kind: "file",
      size: Buffer.byteLength(PNG),
      saved: false,
      reason: "binary",
    });
    expect(entry("out/chart.png")?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(entry("out/table.csv")).toMatchObject({
      size: BIG.length,
      saved: false,
      reason: "over 1 MB",
    });
    expect(entry("out")).toMatchObject({ kind: "dir", saved: false });
    expect(entry("notes.md")).toMatchObject({ saved: true, size: 6 });
    expect(entry("validation/check.sh")).toMatchObject({ saved: false });
    expect(manifest.omitted).toBe(0);
    await expect(readFile(path.join(dir, "workspace", "out", "chart.png"))).rejects.toThrow();

    const rescored = await rescoreResults(out, {
      html: false,
      hostEnv: { PATH: process.env.PATH },
    });
    expect(rescored.changed).toEqual([]);
    expect(rescored.reports.map((r) => r.run_id)).toEqual([run.run_id]);
    const strip = (r: object) => ({ ...r, timestamp: "" });
    const stored = () => readRunReport(runPaths(out, run.run_id));
    expect(strip(await stored())).toEqual(strip(run));

    // A results folder written before manifests falls back to the saved copy, as rescore always
    // did: there the binary and the large artifact are missing.
    await rm(path.join(dir, "workspace-manifest.json"));
    const old = await rescoreResults(out, { html: false, hostEnv: { PATH: process.env.PATH } });
    expect(old.changed).toEqual([run.run_id]);
    const oldArtifacts = (await stored()).rubric?.dimensions.find((d) =>
      d.name.includes("artifact"),
    );
    expect(oldArtifacts?.checks.map((c) => c.passed)).toEqual([false, false, false]);
  });
});
