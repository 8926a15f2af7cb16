// The sandbox probe asks docker only when `auto` may use it, and a run asks docker for leftover
// containers only when a process that is gone left a container marker (src/sandbox/probe.ts,
// src/sandbox/leftovers.ts). A fake docker and bwrap on PATH record what they were asked.
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { probeSandboxes } from "../../../src/sandbox/probe.js";
import {
  containerMarker,
  markContainer,
  removeLeftovers,
  unmarkContainer,
} from "../../../src/sandbox/leftovers.js";

let dir = "";
let log = "";
const savedPath = process.env.PATH;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-probe-test-"));
  log = path.join(dir, "calls.log");
  const bin = path.join(dir, "bin");
  await mkdir(bin);
  // docker: `info` answers a version, `image inspect` an id, `ps` one container of pid 111.
  await writeFile(
    path.join(bin, "docker"),
    `#!/bin/sh\necho "docker $*" >> "${log}"\ncase "$1" in\n  info) echo 27.0.3 ;;\n  image) echo sha256:abc ;;\n  ps) printf 'skillbench-a-x1-zz\\t111\\t%s\\n' "$(hostname)" ;;\nesac\nexit 0\n`,
  );
  await writeFile(
    path.join(bin, "bwrap"),
    `#!/bin/sh\necho "bwrap" >> "${log}"\n[ -e "${dir}/bwrap-fails" ] && exit 1\nexit 0\n`,
  );
  await chmod(path.join(bin, "docker"), 0o755);
  await chmod(path.join(bin, "bwrap"), 0o755);
  process.env.PATH = `${bin}:${savedPath ?? ""}`;
});

afterEach(async () => {
  await rm(log, { force: true });
  await rm(path.join(dir, "bwrap-fails"), { force: true });
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(dir, { recursive: true, force: true });
});

const calls = async (): Promise<string[]> =>
  (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);

describe("probeSandboxes", () => {
  it.each([
    // docker option, an auto task has a Dockerfile, bwrap exit code -> what was asked, the answer
    [undefined, false, 0, ["docker info", "docker image", "bwrap"], true, true],
    ["always", false, 1, ["docker info", "docker image", "bwrap"], true, false],
    ["if-needed", false, 0, ["bwrap"], null, true],
    ["if-needed", true, 0, ["docker info", "docker image", "bwrap"], true, true],
    ["if-needed", false, 1, ["bwrap", "docker info", "docker image"], true, false],
  ] as const)(
    "docker %s, Dockerfile under auto %s, bwrap exit %d: asks %j",
    async (docker, dockerfileAuto, bwrapCode, asked, daemon, bwrap) => {
      if (bwrapCode !== 0) await writeFile(path.join(dir, "bwrap-fails"), "");
      const p = await probeSandboxes({ docker, dockerfileAuto });
      expect(p).toEqual({ dockerDaemon: daemon, dockerBaseImage: daemon, bwrap });
      const got = (await calls()).map((c) => c.split(" ").slice(0, 2).join(" "));
      // docker and bwrap are asked at the same time when both are: compare as sets then.
      expect([...got].sort()).toEqual([...asked].sort());
      if (docker === "if-needed" && !dockerfileAuto && bwrapCode !== 0)
        expect(got[0]).toBe("bwrap");
    },
  );
});

describe("container markers", () => {
  let markers = "";
  beforeAll(async () => {
    markers = await mkdtemp(path.join(tmpdir(), "skillbench-markers-test-"));
  });
  afterAll(async () => {
    await rm(markers, { recursive: true, force: true });
  });

  it("a marker names the owner pid and the container", async () => {
    expect(path.basename(containerMarker("skillbench-a-x1-zz", 4242, markers))).toBe(
      ".skillbench-container-p4242-skillbench-a-x1-zz",
    );
    markContainer("skillbench-own-test");
    const mine = containerMarker("skillbench-own-test");
    expect(await readdir(path.dirname(mine))).toContain(path.basename(mine));
    unmarkContainer("skillbench-own-test");
    expect(await readdir(path.dirname(mine))).not.toContain(path.basename(mine));
  });

  const alive = (pid: number): boolean => pid === 222;
  const empty = async (): Promise<string> => mkdtemp(path.join(markers, "tmp-"));

  it("when-marked, no marker of a dead process: docker is not asked", async () => {
    await writeFile(containerMarker("skillbench-b-x1-yy", 222, markers), "");
    const r = await removeLeftovers({
      docker: "when-marked",
      markerDir: markers,
      tmpDirs: [await empty()],
      alive,
    });
    expect(r.containers).toEqual([]);
    expect(await calls()).toEqual([]);
  });

  it("always: docker is asked even with no marker", async () => {
    const r = await removeLeftovers({
      markerDir: await empty(),
      tmpDirs: [await empty()],
      alive,
    });
    expect(r.containers).toEqual(["skillbench-a-x1-zz"]);
    expect((await calls()).map((c) => c.split(" ")[1])).toEqual(["ps", "rm"]);
  });

  it("when-marked, a dead process's marker: docker removes its containers, then the marker goes (the live one stays)", async () => {
    const dead = containerMarker("skillbench-a-x1-zz", 111, markers);
    await writeFile(dead, "");
    const dry = await removeLeftovers({
      docker: "when-marked",
      markerDir: markers,
      tmpDirs: [await empty()],
      alive,
      dryRun: true,
    });
    expect(dry.containers).toEqual(["skillbench-a-x1-zz"]);
    expect(await readdir(markers)).toContain(path.basename(dead));
    const r = await removeLeftovers({
      docker: "when-marked",
      markerDir: markers,
      tmpDirs: [await empty()],
      alive,
    });
    expect(r.containers).toEqual(["skillbench-a-x1-zz"]);
    expect((await calls()).map((c) => c.split(" ")[1])).toEqual(["ps", "ps", "rm"]);
    const left = await readdir(markers);
    expect(left).not.toContain(path.basename(dead));
    expect(left).toContain(".skillbench-container-p222-skillbench-b-x1-yy");
  });
});
