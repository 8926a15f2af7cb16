import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  processAlive,
  removeLeftovers,
  type LeftoverOptions,
  tempOwner,
  tempStem,
} from "../../../src/sandbox/leftovers.js";
import { buildFailureCause, defaultImageTag } from "../../../src/sandbox/docker-image.js";
import { containerName, dockerRunArgs } from "../../../src/sandbox/docker-args.js";
import { relayStem } from "../../../src/util/temp-names.js";
import { RUN_MARKER_VAR, sweepOrphanedMarked } from "../../../src/util/process.js";

describe("temporary folder names carry the experiment id and the owner's pid", () => {
  it.each([
    ["hello-CONTROL-r1", "20261201-145017-8f8d8a", 4242],
    ["fix-xml-WITH_SKILL-r3", "20261201-145017-8f8d8a", 1],
    ["validator-home", "odd id/with spaces", 99999],
  ])("%s of %s, pid %d", (run, exp, pid) => {
    const name = `${tempStem(run, exp, pid)}AbC123`;
    expect(name.startsWith("skillbench-")).toBe(true);
    expect(tempOwner(name)).toEqual({ pid, experimentId: exp.replace(/[^A-Za-z0-9_.-]/g, "_") });
  });

  it("the relay's short folder (sbr-p<pid>-XXXXXX) names its owner too", () => {
    expect(tempOwner(`${relayStem(4242)}AbC123`)).toEqual({ pid: 4242, experimentId: "none" });
  });

  it.each([
    "skillbench-hello-CONTROL-r1-AbC123",
    "other-x1-p2-AbC123",
    "skillbench-x-p12-short",
    "sbr-AbC123",
  ])("%s is not ours to remove", (name) => expect(tempOwner(name)).toBeNull());

  it("a container name carries the experiment id", () => {
    expect(containerName("hello-CONTROL-r1", "ab12", "20261201-145017-8f8d8a")).toBe(
      "skillbench-hello-CONTROL-r1-x20261201-145017-8f8d8a-ab12",
    );
  });
});

describe("processAlive", () => {
  it("this process is alive; pid 0, negatives and an unused pid are not", () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(0)).toBe(false);
    expect(processAlive(-5)).toBe(false);
    expect(processAlive(2 ** 22 + 17)).toBe(false);
  });
});

describe("removeLeftovers (folders)", () => {
  let dir = "";
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("removes the folders of dead owners only, and lists them first under dryRun", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillbench-leftovers-test-"));
    const dead = `${tempStem("a-CONTROL-r1", "exp1", 111)}AAAAAA`;
    const live = `${tempStem("b-CONTROL-r1", "exp1", 222)}BBBBBB`;
    const foreign = "skillbench-c-CONTROL-r1-CCCCCC";
    for (const n of [dead, live, foreign])
      await mkdir(path.join(dir, n, "workspace"), { recursive: true });
    const alive = (pid: number): boolean => pid === 222;
    // Folders only: docker is asked only when a dead process left a container marker, and the
    // markers are looked for here, where there are none. Asked (the default), it would take every
    // skillbench container of this machine for one of a dead process (only pid 222 is "alive")
    // and remove them, other test files' running ones included (a CI run lost one so).
    const folders: LeftoverOptions = {
      tmpDirs: [dir],
      alive,
      docker: "when-marked",
      markerDir: dir,
    };
    const dry = await removeLeftovers({ ...folders, dryRun: true });
    expect(dry.folders).toEqual([path.join(dir, dead)]);
    expect(dry.containers).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual([dead, live, foreign].sort());
    const done = await removeLeftovers(folders);
    expect(done.folders).toEqual([path.join(dir, dead)]);
    expect((await readdir(dir)).sort()).toEqual([live, foreign].sort());
  });
});

describe("sweepOrphanedMarked (processes that escaped a run)", () => {
  it("finds, then kills, a process whose marker names an owner that is gone; never a live owner's", async () => {
    // The owner named is this (live) test process, and the sweep is told it is gone: the real
    // liveness check of every other skillbench on the machine (other test files' runs sweep
    // too) keeps its hands off this process, so only the sweep under test can kill it.
    const owner = process.pid;
    const child = spawn("sleep", ["1000"], {
      env: { ...process.env, [RUN_MARKER_VAR]: `p${owner}-sweep-test` },
      stdio: "ignore",
    });
    const exited = new Promise((r) => child.once("exit", r));
    const pid = child.pid ?? 0;
    // sweepOrphanedMarked's first argument says which owners are alive. Every owner but this
    // one is taken for alive: the sweep under test kills nothing but the process made here.
    const allAlive = (): boolean => true;
    const allButOwner = (p: number): boolean => p !== owner;
    try {
      expect(sweepOrphanedMarked(allAlive, true)).not.toContain(pid);
      expect(sweepOrphanedMarked(allButOwner, true)).toContain(pid);
      expect(child.exitCode).toBeNull();
      expect(sweepOrphanedMarked(allButOwner)).toContain(pid);
      await exited;
      expect(child.signalCode).toBe("SIGKILL");
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("docker run labels", () => {
  it("names the owner", () => {
    const args = dockerRunArgs({
      name: "n",
      image: "i",
      layout: {
        runDirs: { root: "/r", workspace: "/r/w", home: "/r/h", config: "/r/c", tmp: "/r/t" },
        agentBin: "/a/claude",
        agentBinReal: "/a/claude",
        nodeBin: "/usr/bin/node",
        nodeBinReal: "/usr/bin/node",
      },
      limits: { cpus: null, memory: null, pids: null },
      network: "none",
      user: null,
      labels: ["--label", "skillbench.pid=7"],
    });
    expect(args.slice(0, 8)).toEqual([
      "run",
      "-d",
      "--name",
      "n",
      "--label",
      "skillbench=1",
      "--label",
      "skillbench.pid=7",
    ]);
  });
});

describe("buildFailureCause", () => {
  const BANNER =
    "DEPRECATED: The legacy builder is deprecated and will be removed in a future release.\n            BuildKit is currently disabled; enable it by removing the DOCKER_BUILDKIT=0\n            environment-variable.\n\n";

  it("an image that cannot be pulled offline: the step, the registry error and what it means; never the banner", () => {
    const cause = buildFailureCause(
      "Sending build context to Docker daemon  4.608kB\nStep 1/2 : FROM debian:bookworm-slim\n",
      `${BANNER}Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host\n`,
    );
    expect(cause).toBe(
      'step 1/2 FROM debian:bookworm-slim: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host (the FROM image is not on this machine and cannot be pulled: no registry is reachable; build it locally, see docs/sandbox.md)',
    );
    expect(cause).not.toContain("DEPRECATED");
  });

  it("a RUN step that fails: its own last line of output and the builder's line", () => {
    const cause = buildFailureCause(
      "Step 1/2 : FROM skillbench-base:bookworm\n ---> 5d1\nStep 2/2 : RUN pip install nothing\n ---> Running in 1ab\n/bin/sh: 1: pip: not found\n",
      `${BANNER}The command '/bin/sh -c pip install nothing' returned a non-zero code: 127\n`,
    );
    expect(cause).toBe(
      "step 2/2 RUN pip install nothing: /bin/sh: 1: pip: not found: The command '/bin/sh -c pip install nothing' returned a non-zero code: 127",
    );
  });

  it("no output at all", () => {
    expect(buildFailureCause("", BANNER)).toBe("docker build failed with no output");
  });
});

describe("defaultImageTag", () => {
  it("changes with the Dockerfile and with the base image", () => {
    const a = defaultImageTag("FROM x", "sha256:1");
    expect(a).toMatch(/^skillbench-default:[0-9a-f]{12}$/);
    expect(defaultImageTag("FROM x", "sha256:2")).not.toBe(a);
    expect(defaultImageTag("FROM y", "sha256:1")).not.toBe(a);
  });
});
