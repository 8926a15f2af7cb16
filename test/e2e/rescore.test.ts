/**
 * rescore: recompute every report from stored runs, with no agent spawned.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  filesUnder,
  readRunReport,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
let out: string;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("skillbench-rescore-");
  out = box.dir("results");
  const res = await runCli(runArgs("e2e-matrix", out, "--task", "tone", "--exit-zero"), {
    env: box.env(),
  });
  expect(res.code, res.stderr).toBe(0);
});

afterAll(async () => {
  await box.remove();
});

async function lineCount(file: string): Promise<number> {
  return (await readFile(file, "utf8")).split("\n").filter(Boolean).length;
}

describe("skillbench rescore", () => {
  it("reproduces the stored reports exactly when nothing changed", async () => {
    const before = await readRunReport(out, "tone-WITH_SKILL-r1");
    const res = await runCli(["rescore", out], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/2 runs re-scored, 0 changed/);
    const after = await readRunReport(out, "tone-WITH_SKILL-r1");
    expect(after).toEqual(before);
  });

  it("re-interprets stored validator output and re-renders the reports, with no agent", async () => {
    const requests = await lineCount(path.join(out, "model-requests.jsonl"));
    const validationFile = path.join(out, "runs", "tone-WITH_SKILL-r1", "validation.json");
    const validation = JSON.parse(await readFile(validationFile, "utf8")) as {
      scripts: Array<{ raw_result: unknown }>;
    };
    expect(validation.scripts.length).toBeGreaterThan(0);
    // As if the validator had reported one more failed check.
    const first = validation.scripts[0];
    if (!first) throw new Error("no script");
    first.raw_result = { passed: [], failed: ["tone: rescored failure"] };
    await writeFile(validationFile, JSON.stringify(validation));

    const res = await runCli(["rescore", out], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/2 runs re-scored, 1 changed/);
    const report = await readRunReport(out, "tone-WITH_SKILL-r1");
    expect(report.passed).toBe(false);
    expect(report.checks_failed).toContain("tone: rescored failure");
    expect(report.rubric?.dimensions.find((d) => d.name === "completion")?.score).toBe(0);
    const summary = await readFile(path.join(out, "summary.md"), "utf8");
    expect(summary).toContain("tone: rescored failure");
    // No agent ran: the model server saw no new request.
    expect(await lineCount(path.join(out, "model-requests.jsonl"))).toBe(requests);
  });

  it("scores with another profile on request, and refuses an unknown one", async () => {
    const bad = await runCli(["rescore", out, "--profile", "nope"], { env: box.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Profile not found: nope/);
  });

  it("says clearly why an older or foreign folder cannot be re-scored", async () => {
    const res = await runCli(["rescore", box.dir("empty")], { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/suite\.json: missing/);
  });
});

describe("skillbench rescore on worker threads (-j)", () => {
  /** A copy of the results folder with one validator output changed (so that a run is rescored differently). */
  async function changedCopy(name: string): Promise<string> {
    const dir = box.dir(name);
    await cp(out, dir, { recursive: true });
    const validationFile = path.join(dir, "runs", "tone-CONTROL-r1", "validation.json");
    const validation = JSON.parse(await readFile(validationFile, "utf8")) as {
      scripts: Array<{ raw_result: unknown }>;
    };
    const first = validation.scripts[0];
    if (!first) throw new Error("no script");
    first.raw_result = { passed: [], failed: ["tone: changed for the threads"] };
    await writeFile(validationFile, JSON.stringify(validation));
    return dir;
  }

  it("writes the same bytes on two threads as on one", async () => {
    const one = await changedCopy("threads-one");
    const two = await changedCopy("threads-two");
    const a = await runCli(["rescore", one, "-j", "1"], { env: box.env() });
    const b = await runCli(["rescore", two, "-j", "2"], { env: box.env() });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout).toMatch(/2 runs re-scored, 1 changed\n/);
    expect(b.stdout).toMatch(/2 runs re-scored, 1 changed \(2 threads\)\n/);
    expect((await readRunReport(two, "tone-CONTROL-r1")).checks_failed).toContain(
      "tone: changed for the threads",
    );
    // Every file but the run index (its shared values are numbered in the order runs end).
    const files = (await filesUnder(one)).filter((f) => !f.endsWith(".run-index.jsonl"));
    expect(files).toEqual((await filesUnder(two)).filter((f) => !f.endsWith(".run-index.jsonl")));
    expect(files).toContain(path.join("runs", "tone-CONTROL-r1", "report.json"));
    for (const f of files) {
      const [x, y] = await Promise.all([readFile(path.join(one, f)), readFile(path.join(two, f))]);
      expect(y.equals(x), f).toBe(true);
    }
  });

  it("stops with the worker's error, as one thread would (exit 2, the file named)", async () => {
    const dir = await changedCopy("threads-bad");
    const reportFile = path.join(dir, "runs", "tone-WITH_SKILL-r1", "report.json");
    await writeFile(reportFile, "{ not json");
    const one = await runCli(["rescore", dir, "-j", "1"], { env: box.env() });
    const two = await runCli(["rescore", dir, "-j", "2"], { env: box.env() });
    expect(one.code).toBe(2);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain(reportFile);
    expect(two.stderr).toBe(one.stderr);
    const profile = await runCli(["rescore", out, "-j", "2", "--profile", "nope"], {
      env: box.env(),
    });
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/Profile not found: nope/);
  });
});
