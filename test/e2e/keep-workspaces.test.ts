/**
 * `run --keep-workspaces` (issue 39 point 6): each kept workspace is printed and recorded in its
 * run's report.json (`artifacts.kept_workspace`), and the next skillbench run, which removes the
 * temporary folders of processes that are gone, leaves the kept ones alone.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("keep-ws");
});
afterAll(async () => {
  await box.remove();
});

describe("run --keep-workspaces", () => {
  it("prints and records each kept workspace, and the next run does not sweep it", async () => {
    const out = box.dir("kept");
    const r = await runCli(
      [
        ...runArgs(
          "e2e-matrix",
          out,
          "--keep-workspaces",
          "--task",
          "needs-skill",
          "--sandbox",
          "local",
        ),
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(1); // CONTROL fails the needs-skill task; both runs complete
    const printed = [...r.stderr.matchAll(/kept the workspace of (\S+): (\S+)\n/g)].map((m) => ({
      run: m[1] ?? "",
      dir: m[2] ?? "",
    }));
    expect(printed.map((p) => p.run).sort()).toEqual([
      "needs-skill-CONTROL-r1",
      "needs-skill-WITH_SKILL-r1",
    ]);
    for (const p of printed) {
      expect(existsSync(p.dir), p.dir).toBe(true);
      // The workspace the agent left: the scripted agent writes note.txt.
      expect(await readdir(p.dir)).toContain("note.txt");
      const report = await readRunReport(out, p.run);
      expect(report.artifacts.kept_workspace).toBe(p.dir);
    }

    // The process that kept them is gone: a later run sweeps its leftovers, never kept folders.
    const again = await runCli(
      [...runArgs("e2e-matrix", box.dir("later"), "--task", "tone", "--sandbox", "local")],
      { env: box.env() },
    );
    expect([0, 1]).toContain(again.code);
    for (const p of printed) expect(existsSync(p.dir), p.dir).toBe(true);
    // Nothing else of the first run's temporary folders is left (they were not kept).
    const left = (await readdir(box.tmp)).filter((n) => n.startsWith("skillbench-needs-skill"));
    expect(left.every((n) => n.endsWith("-kept"))).toBe(true);
  }, 180_000);

  it("without the flag, reports name no kept workspace", async () => {
    const out = box.dir("not-kept");
    const r = await runCli(
      [
        ...runArgs(
          "e2e-matrix",
          out,
          "--task",
          "needs-skill",
          "--treatment",
          "WITH_SKILL",
          "--sandbox",
          "local",
        ),
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("kept the workspace");
    const report = JSON.parse(
      await readFile(path.join(out, "runs", "needs-skill-WITH_SKILL-r1", "report.json"), "utf8"),
    ) as { artifacts: Record<string, unknown> };
    expect("kept_workspace" in report.artifacts).toBe(false);
  }, 120_000);
});
