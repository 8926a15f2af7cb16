import { describe, expect, it } from "vitest";
import { bwrapArgs, bwrapCommand, bwrapSpec, hiddenDirs } from "../../../src/sandbox/bwrap-args.js";
import { chooseSandbox } from "../../../src/sandbox/choose.js";
import {
  CONTAINER_PATH,
  containerName,
  dockerExecSpec,
  dockerRunArgs,
  type DockerLayout,
} from "../../../src/sandbox/docker-args.js";
import { parseMemory, parseOomKills, taskImageTag } from "../../../src/sandbox/image-tag.js";
import { mapPath } from "../../../src/sandbox/path-map.js";
import { SandboxRecordSchema } from "../../../src/sandbox/types.js";
import { protectionOf } from "../../../src/sandbox/protection.js";
import { planNetwork } from "../../../src/sandbox/network.js";

const runDirs = {
  root: "/tmp/runs/r1",
  workspace: "/tmp/runs/r1/workspace",
  home: "/tmp/runs/r1/home",
  config: "/tmp/runs/r1/config",
  tmp: "/tmp/runs/r1/tmp",
};

describe("chooseSandbox", () => {
  it.each([
    ["auto", true, true, false, true, "docker"],
    ["auto", true, false, false, true, "bwrap"],
    ["auto", false, true, true, true, "bwrap"],
    ["auto", false, true, true, false, "docker"],
    ["auto", false, true, false, false, "local"],
    ["auto", false, false, false, false, "local"],
    ["auto", true, false, false, false, "local"],
    ["docker", false, false, false, false, "docker"],
    ["local", true, true, true, true, "local"],
    // docker not asked (null): bwrap works and the task has no Dockerfile (src/sandbox/probe.ts)
    ["auto", false, null, null, true, "bwrap"],
  ] as const)(
    "%s, dockerfile=%s, daemon=%s, base image=%s, bwrap=%s -> %s",
    (choice, hasDockerfile, dockerDaemon, dockerBaseImage, bwrap, kind) => {
      const r = chooseSandbox(choice, { hasDockerfile }, { dockerDaemon, dockerBaseImage, bwrap });
      expect(r.kind).toBe(kind);
      expect(r.why).toMatch(choice === "auto" ? /^auto: / : /^requested/);
      // Every local run says what it exposes, in the words the console and reports use.
      if (kind === "local")
        expect(r.why).toContain("local: the agent can read and change your files and environment");
      else expect(r.why).not.toContain("local:");
    },
  );
});

describe("taskImageTag", () => {
  it("is 12 hex, stable, and changes with the context or the agent version", () => {
    const a = taskImageTag("sha256:aaa", "2.1.328");
    expect(a).toMatch(/^skillbench-task:[0-9a-f]{12}$/);
    expect(taskImageTag("sha256:aaa", "2.1.328")).toBe(a);
    expect(taskImageTag("sha256:aab", "2.1.328")).not.toBe(a);
    expect(taskImageTag("sha256:aaa", "2.1.329")).not.toBe(a);
  });
});

describe("parsers", () => {
  it.each([
    ["256m", 256 * 1024 ** 2],
    ["1g", 1024 ** 3],
    ["512M", 512 * 1024 ** 2],
    ["1000", 1000],
    ["1.5g", 1.5 * 1024 ** 3],
    ["lots", null],
  ])("parseMemory(%s) = %s", (s, n) => expect(parseMemory(s)).toBe(n));

  it.each([
    ["oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", 2],
    ["low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n", 1],
    ["", null],
  ])("parseOomKills(%j) = %s", (t, n) => expect(parseOomKills(t)).toBe(n));
});

describe("mapPath", () => {
  const m = [
    { host: "/tmp/runs/r1/workspace", inside: "/workspace" },
    { host: "/tmp/runs/r1", inside: "/skillbench/run" },
  ];
  it.each([
    ["/tmp/runs/r1/workspace", "/workspace"],
    ["/tmp/runs/r1/workspace/a/b.txt", "/workspace/a/b.txt"],
    ["/tmp/runs/r1/home", "/skillbench/run/home"],
    ["/tmp/runs/r10/home", "/tmp/runs/r10/home"],
    ["sk-secret", "sk-secret"],
  ])("%s -> %s", (p, out) => expect(mapPath(p, m)).toBe(out));
});

const rootEntries = [
  { name: "bin", kind: "symlink" as const, target: "usr/bin" },
  { name: "dev", kind: "dir" as const },
  { name: "etc", kind: "dir" as const },
  { name: ".dockerenv", kind: "file" as const },
  { name: "proc", kind: "dir" as const },
  { name: "tmp", kind: "dir" as const },
  { name: "usr", kind: "dir" as const },
  { name: "workspace", kind: "dir" as const },
];

describe("bwrap arguments", () => {
  const layout = {
    runDirs,
    rootEntries,
    resultsDir: "/work/results",
    network: "host" as const,
    exposeReadOnly: ["/root/.local/bin"],
    existing: () => true,
  };

  it("hides the home folders, the results folder and the runs folder; nested ones are folded", () => {
    expect(hiddenDirs("/work/results", runDirs.root)).toEqual([
      "/tmp",
      "/root",
      "/home",
      "/var/tmp",
      "/run",
      "/var/run",
      "/work/results",
    ]);
    expect(hiddenDirs("/data/results", "/data/runs/r1")).toContain("/data/runs");
  });

  it("rebuilds the host root read-only entry by entry (not /dev, /proc, /workspace), then the tmpfs, the exposures, the run dir, /workspace, then read-only remounts", () => {
    const a = bwrapArgs(layout);
    expect(a.slice(0, 16)).toEqual([
      "--symlink",
      "usr/bin",
      "/bin",
      "--ro-bind",
      "/etc",
      "/etc",
      "--ro-bind-try",
      "/.dockerenv",
      "/.dockerenv",
      "--ro-bind",
      "/usr",
      "/usr",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
    ]);
    expect(a).not.toContain("/workspace/");
    const i = (x: string[]): number => a.findIndex((_, k) => x.every((y, j) => a[k + j] === y));
    expect(i(["--tmpfs", "/root"])).toBeLessThan(
      i(["--ro-bind-try", "/root/.local/bin", "/root/.local/bin"]),
    );
    expect(i(["--tmpfs", "/tmp"])).toBeLessThan(i(["--bind", runDirs.root, runDirs.root]));
    expect(i(["--bind", runDirs.root, runDirs.root])).toBeLessThan(
      i(["--bind", runDirs.workspace, "/workspace"]),
    );
    expect(i(["--bind", runDirs.workspace, "/workspace"])).toBeLessThan(
      i(["--remount-ro", "/root"]),
    );
    expect(i(["--remount-ro", "/"])).toBeGreaterThan(i(["--remount-ro", "/root"]));
    expect(a).not.toContain("--unshare-net");
    expect(a).toContain("--die-with-parent");
    expect(a.join(" ")).not.toContain("--remount-ro /tmp");
    expect(bwrapArgs({ ...layout, network: "none" })).toContain("--unshare-net");
  });

  it("makes a hidden folder of the root an empty folder of its own (read-only with the root) or a tmpfs (scratch), never binding it first", () => {
    const a = bwrapArgs({
      ...layout,
      rootEntries: [
        ...rootEntries,
        { name: "root", kind: "dir" as const },
        { name: "run", kind: "dir" as const },
        { name: "var", kind: "dir" as const },
      ],
    });
    const s = a.join(" ");
    for (const d of ["/tmp", "/root", "/run"]) expect(s).not.toContain(`--ro-bind ${d} ${d}`);
    expect(s).toContain("--dir /root");
    expect(s).toContain("--dir /run");
    expect(s).not.toContain("--tmpfs /root");
    expect(s).not.toContain("--remount-ro /root");
    // Not a root entry here: covered as before.
    expect(s).toContain("--tmpfs /home");
    expect(s).toContain("--remount-ro /home");
    // The scratch folders and nested hidden ones keep their tmpfs; /var itself is bound.
    expect(s).toContain("--tmpfs /tmp");
    expect(s).toContain("--ro-bind /var /var");
    expect(s).toContain("--tmpfs /var/tmp");
    expect(s).toContain("--tmpfs /work/results");
    expect(s).toContain("--remount-ro /work/results");
    // The exposure under /root comes after the empty folder, and / is made read-only last.
    const i = (x: string): number => a.indexOf(x);
    expect(i("/root/.local/bin")).toBeGreaterThan(i("/root"));
    const remounts = a.flatMap((x, k) => (x === "--remount-ro" ? [a[k + 1]] : []));
    expect(remounts.at(-1)).toBe("/");
  });

  it.each([
    ["/usr/bin/bash", "/usr/bin/bash"],
    ["/root/.pyenv/shims/python3", "python3"],
    ["/root/.local/bin/claude", "/root/.local/bin/claude"],
    ["node", "node"],
  ])("command %s runs as %s", (cmd, out) => expect(bwrapCommand(cmd, layout)).toBe(out));

  it("maps the workspace to /workspace in cwd, env values and arguments, and ends with -- cmd args", () => {
    const s = bwrapSpec(
      {
        cmd: "/usr/bin/bash",
        args: ["-c", "true", `${runDirs.workspace}/validation/check.sh`],
        cwd: runDirs.workspace,
        env: { A: "1", WORKSPACE: runDirs.workspace, HOME: runDirs.home },
      },
      { ...layout, bwrapBin: "/usr/bin/bwrap" },
    );
    expect(s.cmd).toBe("/usr/bin/bwrap");
    expect(s.env).toEqual({ A: "1", WORKSPACE: "/workspace", HOME: runDirs.home });
    expect(s.args.slice(-7)).toEqual([
      "--chdir",
      "/workspace",
      "--",
      "/usr/bin/bash",
      "-c",
      "true",
      "/workspace/validation/check.sh",
    ]);
  });

  it("gives a HOME in the hidden /tmp (the validators' fresh one) an empty folder inside", () => {
    const home = "/tmp/skillbench-validator-home-x";
    const s = bwrapSpec(
      { cmd: "/usr/bin/python3", args: ["c.py"], cwd: runDirs.workspace, env: { HOME: home } },
      { ...layout, bwrapBin: "/usr/bin/bwrap" },
    );
    const at = s.args.indexOf("--dir");
    expect(s.args[at + 1]).toBe(home);
    expect(at).toBeLessThan(s.args.indexOf("--chdir"));
  });
});

describe("docker arguments", () => {
  const layout: DockerLayout = {
    runDirs,
    agentBin: "/w/node_modules/.bin/claude",
    agentBinReal: "/w/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
    nodeBin: "/usr/bin/node",
    nodeBinReal: "/usr/bin/node",
  };

  it("names containers skillbench-<run>-<rand>", () => {
    expect(containerName("hello-file-WITH_SKILL-r1", "ab12")).toBe(
      "skillbench-hello-file-WITH_SKILL-r1-ab12",
    );
    expect(containerName("a b/c", "x")).toBe("skillbench-a_b_c-x");
  });

  it("runs detached with limits, mounts and sleep infinity", () => {
    const a = dockerRunArgs({
      name: "skillbench-x",
      image: "img:1",
      layout,
      limits: { cpus: 2, memory: "256m", pids: 100 },
      network: "host",
      user: null,
    });
    expect(a.slice(0, 4)).toEqual(["run", "-d", "--name", "skillbench-x"]);
    const s = a.join(" ");
    expect(s).toContain("--network host");
    expect(s).toContain("--cpus 2 --memory 256m --memory-swap 256m --pids-limit 100");
    expect(s).toContain(`-v ${runDirs.workspace}:/workspace`);
    expect(s).toContain(`-v ${runDirs.root}:/skillbench/run`);
    expect(s).toContain(
      "-v /w/node_modules/@anthropic-ai/claude-code/bin:/opt/skillbench/agent:ro",
    );
    expect(s).toContain("-v /usr/bin/node:/opt/skillbench/bin/node:ro");
    expect(a.slice(-4)).toEqual(["--entrypoint", "sleep", "img:1", "infinity"].slice(-4));
    expect(s).not.toContain("--user");
    const b = dockerRunArgs({
      name: "n",
      image: "i",
      layout,
      limits: { cpus: null, memory: null, pids: null },
      network: "none",
      user: "1000:1000",
    });
    expect(b.join(" ")).toContain("--network none");
    expect(b.join(" ")).toContain("--user 1000:1000");
    expect(b.join(" ")).not.toContain("--memory");
  });

  it("execs with every variable by name, values only in the client env, paths mapped", () => {
    const s = dockerExecSpec(
      {
        cmd: "/w/node_modules/.bin/claude",
        args: ["-p", "hi", "--add-dir", `${runDirs.workspace}/sub`],
        cwd: runDirs.workspace,
        env: { PATH: "/root/bin:/usr/bin", HOME: runDirs.home, ANTHROPIC_API_KEY: "sk-secret" },
      },
      {
        dockerBin: "/usr/bin/docker",
        container: "skillbench-x",
        layout,
        hostEnv: { DOCKER_HOST: "unix:///d.sock", SECRET: "no" },
      },
    );
    expect(s.cmd).toBe("/usr/bin/docker");
    expect(s.args).toEqual([
      "exec",
      "-i",
      "-w",
      "/workspace",
      "-e",
      "ANTHROPIC_API_KEY",
      "-e",
      "HOME",
      "-e",
      "PATH",
      "skillbench-x",
      "/opt/skillbench/agent/claude.exe",
      "-p",
      "hi",
      "--add-dir",
      "/workspace/sub",
    ]);
    expect(s.args.join(" ")).not.toContain("sk-secret");
    expect(s.env).toEqual({
      DOCKER_HOST: "unix:///d.sock",
      ANTHROPIC_API_KEY: "sk-secret",
      HOME: "/skillbench/run/home",
      PATH: CONTAINER_PATH,
    });
  });

  it.each([
    ["/usr/bin/node", "/opt/skillbench/bin/node"],
    ["/usr/bin/bash", "/usr/bin/bash"],
    ["/root/.pyenv/shims/python3", "python3"],
  ])("validator command %s runs as %s", (cmd, inside) => {
    const s = dockerExecSpec(
      { cmd, args: ["validation/x"], cwd: runDirs.workspace, env: {} },
      { dockerBin: "docker", container: "c", layout, hostEnv: {} },
    );
    expect(s.args[s.args.indexOf("c") + 1]).toBe(inside);
  });
});

describe("records", () => {
  it.each(["local", "bwrap", "docker"] as const)(
    "%s: the protection record parses and names its gaps",
    (kind) => {
      const p = protectionOf(
        kind,
        planNetwork("host", "http://127.0.0.1:1234/runs/a"),
        "http://127.0.0.1:1234/runs/a",
      );
      const rec = {
        kind,
        why: "requested",
        image_id: null,
        image_tag: null,
        agent_version_inside: null,
        limits: null,
        oom_kills: null,
        ...p,
      };
      expect(SandboxRecordSchema.parse(rec)).toEqual(rec);
      expect(p.does_not_protect.length).toBeGreaterThan(0);
      expect(p.network_policy).toContain("127.0.0.1");
    },
  );
});
