/**
 * The command line end to end for isolation and CI output: `--sandbox` (and a task's own
 * `sandbox`/`memory` settings) recorded in report.json, an out-of-memory kill failing the
 * run, no container left behind, JUnit XML, and `--fail-under` with its result line.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
let out: string;
let junit: string;
let res: CliResult;

/** This run's containers only: other test files may have sandboxes of their own running meanwhile. */
function containers(runId: string): string {
  return execFileSync(
    "docker",
    ["ps", "-a", "--filter", `name=skillbench-${runId}-`, "--format", "{{.Names}}"],
    { encoding: "utf8" },
  ).trim();
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("skillbench-ci-sandbox-");
  out = box.dir("results");
  junit = path.join(box.root, "junit.xml");
  // hello runs under --sandbox bwrap... except that the oom task asks for docker itself:
  // the command line wins, so run the two tasks separately.
  res = await runCli(
    runArgs(
      "e2e-ci-sandbox",
      out,
      "--task",
      "hello",
      "--sandbox",
      "bwrap",
      "--junit",
      junit,
      "--fail-under",
      "pass@1=1.0",
      "--fail-under",
      "CONTROL:weighted_score=0.99",
      "--no-html",
    ),
    { env: box.env() },
  );
});

afterAll(async () => {
  await box.remove();
});

describe("--sandbox bwrap from the command line, with JUnit and thresholds", () => {
  it("records the sandbox in report.json", async () => {
    expect(res.code, res.stderr).not.toBe(2);
    const r = await readRunReport(out, "hello-CONTROL-r1");
    expect(r.passed).toBe(true);
    expect(r.sandbox?.kind).toBe("bwrap");
    expect(r.sandbox?.why).toBe("requested");
    expect(r.sandbox?.network_policy).toMatch(
      /^model endpoint only \(loopback relay\); no other network/,
    );
    expect(r.sandbox?.agent_version_inside).toMatch(/^2\.1\.328/);
  });

  it("writes JUnit XML and the machine-readable threshold line, and --no-html writes no HTML", async () => {
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain("<testcase");
    expect(xml).toMatch(/name="CONTROL r1"/);
    const line = res.stdout.split("\n").find((l) => l.startsWith("skillbench-result: "));
    expect(line).toBeDefined();
    const result: unknown = JSON.parse((line ?? "").slice("skillbench-result: ".length));
    expect(result).toMatchObject({ runs: 1, passed: 1 });
    expect(existsSync(path.join(out, "summary.html"))).toBe(false);
    expect(existsSync(path.join(out, "summary.md"))).toBe(true);
  });

  it("exits 0 when every threshold is met, and 1 (saying which) when one is not", async () => {
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/skillbench-result: \{"ok":true/);
    const low = await runCli(
      [
        "report",
        out,
        "--no-html",
        "--fail-under",
        "CONTROL:pass@1=1",
        "--fail-under",
        "pass^1=1.0",
      ],
      { env: box.env() },
    );
    expect(low.code, low.stderr).toBe(0);
    // The oom task is not in this folder; a task-less threshold on a treatment with no runs fails.
    const bad = await runCli(["report", out, "--no-html", "--fail-under", "NOPE:pass@1=0.5"], {
      env: box.env(),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/threshold failed/);
    expect(bad.stdout).toMatch(/skillbench-result: \{"ok":false/);
  });
});

describe("a task that asks for docker with a 256 MB limit", () => {
  it("is OOM-killed, the run fails with the kill recorded, and no container is left", async () => {
    const dockerOut = box.dir("docker-results");
    const r2 = await runCli(runArgs("e2e-ci-sandbox", dockerOut, "--task", "oom", "--no-html"), {
      env: box.env(),
    });
    expect(r2.code, r2.stderr).toBe(1);
    expect(r2.stderr).toMatch(/sandbox for oom: docker \(requested\)/);
    const r = await readRunReport(dockerOut, "oom-CONTROL-r1");
    expect(r.sandbox?.kind).toBe("docker");
    expect(r.sandbox?.limits?.memory).toBe("256m");
    expect(r.sandbox?.image_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.sandbox?.oom_kills ?? 0).toBeGreaterThanOrEqual(1);
    expect(r.checks_failed.some((c) => c.startsWith("Out of memory:"))).toBe(true);
    // The limit covers the whole container, the agent included: whichever process the kernel
    // kills (the allocating command, or the agent itself), the run ends promptly and says so.
    expect(r.checks_failed.some((c) => /137|ALLOC_EXIT/.test(c)) || r.outcome === "completed").toBe(
      true,
    );
    expect(containers("oom-CONTROL-r1")).toBe("");
  });
});
