/**
 * The default sandbox end to end (the built CLI, the real claude binary, the scripted model):
 * with no --sandbox a run on a machine with bubblewrap is sandboxed and says so; an agent that
 * hunts every process's environment for a host secret and prints encoded copies finds nothing
 * (and, as a check that the probe works, finds it under an explicit `--sandbox local`); a Python
 * validator that writes /workspace/_test_results.json reports its checks under bwrap and docker
 * (docker: skillbench's default image, which has python3); an image with a non-root USER works.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandboxes } from "../../src/sandbox/index.js";
import { listFiles } from "../../src/util/hash.js";
import {
  assertBuilt,
  makeSandbox,
  readRunFile,
  readRunReport,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const probe = await probeSandboxes();
const inCi = process.env.CI === "true";
const SECRET = `sec-${randomBytes(8).toString("hex")}`;
const LEAKS: Array<[string, string]> = [
  ["plain", SECRET],
  ["base64", Buffer.from(SECRET).toString("base64")],
  ["reversed", [...SECRET].reverse().join("")],
  ["hex", Buffer.from(SECRET).toString("hex")],
];

let box: Sandbox;
const outs: Record<string, string> = {};
const results: Record<string, CliResult> = {};

async function leaksIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const rel of await listFiles(dir)) {
    const text = await readFile(path.join(dir, rel), "latin1");
    for (const [how, value] of LEAKS) if (text.includes(value)) found.push(`${rel}: ${how}`);
  }
  return found;
}

function run(name: string, ...extra: string[]): Promise<CliResult> {
  outs[name] = box.dir(name);
  return runCli(runArgs("e2e-isolation", outs[name], "--no-html", ...extra), {
    env: box.env({ ISOLATION_PROBE_SECRET: SECRET }),
  }).then((r) => (results[name] = r));
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("sbx-default");
  await run("default", "--task", "results-file,secret-probe");
  await run("local", "--task", "secret-probe", "--sandbox", "local");
});

afterAll(async () => {
  await box.remove();
});

describe.runIf(probe.bwrap || inCi)("the default sandbox (auto) where bubblewrap works", () => {
  it("sandboxes every run with bwrap and says so in report.json", async () => {
    expect(results.default?.code).toBe(0);
    for (const task of ["results-file", "secret-probe"]) {
      const r = await readRunReport(outs.default ?? "", `${task}-CONTROL-r1`);
      expect(r.sandbox?.kind).toBe("bwrap");
      expect(r.sandbox?.why).toMatch(/^auto: .*bubblewrap works/);
    }
    expect(results.default?.stderr).toContain("sandbox for results-file: bwrap (auto:");
    expect(results.default?.stderr).not.toContain("local: the agent can read");
  });

  it("a host secret hunted in /proc/*/environ reaches no saved file, in any encoding", async () => {
    const stdout = await readRunFile(outs.default ?? "", "secret-probe-CONTROL-r1", "stdout.jsonl");
    expect(stdout).toMatch(/PROBE_DONE environs=\d+/);
    expect(stdout).not.toContain("FOUND in /proc/");
    expect(await leaksIn(outs.default ?? "")).toEqual([]);
    expect(results.default?.stdout).not.toContain(SECRET);
    expect(results.default?.stderr).not.toContain(SECRET);
  });

  it("the probe works: under --sandbox local it finds the secret, which redaction keeps out of saved files (the warning is on the console and in summary.md)", async () => {
    const stdout = await readRunFile(outs.local ?? "", "secret-probe-CONTROL-r1", "stdout.jsonl");
    // The agent read the secret (local does not hide other processes); the saved files still
    // hold no copy of it, in any of these encodings (redaction is the second line of defence).
    expect(stdout).toContain("FOUND in /proc/");
    expect(await leaksIn(outs.local ?? "")).toEqual([]);
    const warning = "local: the agent can read and change your files and environment";
    expect(results.local?.stderr).toContain(warning);
    const r = await readRunReport(outs.local ?? "", "secret-probe-CONTROL-r1");
    expect(r.sandbox?.kind).toBe("local");
    expect(r.sandbox?.why).toContain(warning);
    expect(await readFile(path.join(outs.local ?? "", "summary.md"), "utf8")).toContain(warning);
  });

  it("a Python validator writing /workspace/_test_results.json reports its checks (cwd and $WORKSPACE are /workspace)", async () => {
    const r = await readRunReport(outs.default ?? "", "results-file-CONTROL-r1");
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed).toEqual([
      "out_txt: 'hello'",
      "cwd_is_workspace: /workspace",
      "env_workspace: /workspace",
      "agent_cwd_is_workspace: '/workspace'",
      "context_readable: results-file",
    ]);
  });
});

const dockerReady =
  probe.dockerDaemon &&
  (() => {
    try {
      execFileSync("docker", ["image", "inspect", "skillbench-base:bookworm"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

describe.runIf(dockerReady || inCi)("docker: the default image and a non-root USER", () => {
  beforeAll(async () => {
    await run("docker", "--sandbox", "docker", "--task", "results-file,nonroot");
  }, 600_000);

  it("runs the Python validator in the default image and reports its /workspace/_test_results.json checks", async () => {
    expect(results.docker?.code, results.docker?.stderr).toBe(0);
    const r = await readRunReport(outs.docker ?? "", "results-file-CONTROL-r1");
    expect(r.sandbox?.kind).toBe("docker");
    expect(r.sandbox?.image_tag).toMatch(/^skillbench-default:[0-9a-f]{12}$/);
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed).toHaveLength(5);
  });

  it("an image with USER agent: the agent reaches the model, and agent and validators run as that user", async () => {
    const r = await readRunReport(outs.docker ?? "", "nonroot-CONTROL-r1");
    expect(r.outcome, r.checks_failed.join("\n")).toBe("completed");
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed).toEqual(["out_txt", "agent_uid_1234", "validator_uid_1234"]);
  });
});
