/**
 * Results folders and the host stay intact (the built CLI, real claude, scripted model):
 * `--out` into a non-empty folder that is not a results folder, `--resume` into another suite's
 * results folder and a symlink out of the suite in environment/ are refused with exit 2 before any
 * agent runs; a results disk that fills up stops the experiment with exit 1 and the message
 * naming the file, and `--resume` completes it once there is space; a skillbench killed with -9
 * under docker leaves a container that the `--resume` removes.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandboxes } from "../../src/sandbox/index.js";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  reportedRunIds,
  runArgs,
  runCli,
  startCli,
  waitUntil,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("refusals");
});

afterAll(async () => {
  await box.remove();
});

describe("refused with exit 2 before any agent runs", () => {
  it("--out into a non-empty folder that is not a results folder", async () => {
    const out = box.dir("not-results");
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, "thesis.tex"), "precious\n");
    const r = await runCli(runArgs("e2e-isolation", out, "--task", "results-file"), {
      env: box.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not empty and is not a skillbench results folder");
    expect(await readdir(out)).toEqual(["thesis.tex"]);
  });

  it("--resume into another suite's results folder", async () => {
    const out = box.dir("other-suite");
    const first = await runCli(
      [
        "run",
        fixtureSuite("e2e-isolation-other"),
        "--model-script",
        path.join(fixtureSuite("e2e-isolation"), "model-script.yaml"),
        "--out",
        out,
        "--no-html",
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
      ],
      { env: box.env() },
    );
    expect(existsSync(path.join(out, "metadata.json")), first.stderr).toBe(true);
    const r = await runCli(runArgs("e2e-isolation", out, "--resume", "--task", "results-file"), {
      env: box.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--resume: .* holds the results of another suite/);
    expect(await reportedRunIds(out)).toEqual(["other-CONTROL-r1"]);
  });

  it("a symlink in environment/ that points outside the suite", async () => {
    const suite = box.dir("linked-suite");
    await cp(fixtureSuite("e2e-isolation"), suite, { recursive: true });
    const env = path.join(suite, "tasks", "results-file", "environment");
    await mkdir(env, { recursive: true });
    await symlink(box.home, path.join(env, "host-home"));
    const r = await runCli(
      [
        "run",
        suite,
        "--model-script",
        path.join(suite, "model-script.yaml"),
        "--out",
        box.dir("linked-out"),
        "--task",
        "results-file",
      ],
      { env: box.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `tasks/results-file/environment: symlink ${path.join(env, "host-home")} points outside the suite`,
    );
    expect(existsSync(box.dir("linked-out"))).toBe(false);
  });
});

function canMountTmpfs(): boolean {
  return process.getuid?.() === 0 && existsSync("/proc/filesystems");
}

describe.runIf(canMountTmpfs())("a results disk that fills up", () => {
  let mnt = "";
  afterAll(() => {
    if (mnt) execFileSync("umount", [mnt]);
  });

  it("stops new runs, exits 1 naming the file, and --resume completes once there is space", async () => {
    mnt = box.dir("small-disk");
    await mkdir(mnt, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=300k", "tmpfs", mnt]);
    const out = path.join(mnt, "out");
    const r = await runCli(
      runArgs("e2e-isolation", out, "--task", "fill", "-n", "3", "--no-html"),
      {
        env: box.env(),
      },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `skillbench: disk full while writing ${out}/\\S+: free space and run --resume --out ${out}\\n`,
      ),
    );
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    // The first run filled the disk; the other two never started.
    expect(r.stderr).not.toContain("fill-CONTROL-r2");
    execFileSync("mount", ["-o", "remount,size=20m", mnt]);
    const resumed = await runCli(
      runArgs("e2e-isolation", out, "--resume", "--task", "fill", "-n", "3", "--no-html"),
      { env: box.env() },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await reportedRunIds(out)).toEqual([
      "fill-CONTROL-r1",
      "fill-CONTROL-r2",
      "fill-CONTROL-r3",
    ]);
    expect((await readRunReport(out, "fill-CONTROL-r1")).status).toBe("passed");
  });
});

const probe = await probeSandboxes();
const dockerReady = probe.dockerDaemon && probe.dockerBaseImage === true;

function containersOf(experimentId: string): string {
  return execFileSync(
    "docker",
    [
      "ps",
      "-a",
      "--filter",
      `label=skillbench.experiment=${experimentId}`,
      "--format",
      "{{.Names}}",
    ],
    { encoding: "utf8" },
  ).trim();
}

describe.runIf(dockerReady || process.env.CI === "true")("kill -9 under docker", () => {
  it("leaves a container behind, which the --resume of that experiment removes", async () => {
    const out = box.dir("killed");
    const cli = startCli(
      runArgs("e2e-isolation", out, "--task", "slow", "--sandbox", "docker", "--timeout", "20"),
      {
        env: box.env(),
        detached: true,
      },
    );
    let experimentId = "";
    await waitUntil(
      async () => {
        const meta: unknown = existsSync(path.join(out, "metadata.json"))
          ? JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8"))
          : null;
        const m =
          typeof meta === "object" && meta !== null && "experiment_id" in meta
            ? meta.experiment_id
            : "";
        experimentId = typeof m === "string" ? m : "";
        return experimentId !== "" && containersOf(experimentId) !== "";
      },
      cli.done,
      "the run's container exists",
    );
    // The agent is running `sleep 240` inside it; skillbench gets no chance to clean up.
    process.kill(-(cli.child.pid ?? 0), "SIGKILL");
    await cli.done;
    expect(containersOf(experimentId)).not.toBe("");
    const resumed = await runCli(
      runArgs(
        "e2e-isolation",
        out,
        "--resume",
        "--task",
        "slow",
        "--sandbox",
        "docker",
        "--timeout",
        "20",
      ),
      { env: box.env() },
    );
    // Any skillbench run on this machine removes what dead skillbench processes left, so under
    // a parallel test run another test's `run` may remove the container first: the count in this
    // resume's note is not asserted, the end state is (no container of the experiment is left).
    expect(resumed.code).toBe(0);
    expect(containersOf(experimentId)).toBe("");
    expect(await reportedRunIds(out)).toEqual(["slow-CONTROL-r1"]);
  }, 300_000);
});
