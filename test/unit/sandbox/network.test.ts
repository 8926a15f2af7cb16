import { describe, expect, it } from "vitest";
import { bwrapArgs, bwrapSpec } from "../../../src/sandbox/bwrap-args.js";
import {
  dockerExecSpec,
  dockerRunArgs,
  IN_RELAY_SOCKET,
  relayExecArgs,
  type DockerLayout,
} from "../../../src/sandbox/docker-args.js";
import {
  INNER_RELAY_SOURCE,
  planNetwork,
  relayTarget,
  rewriteEndpointEnv,
  type RelayTarget,
} from "../../../src/sandbox/network.js";
import { protectionOf } from "../../../src/sandbox/protection.js";

const runDirs = {
  root: "/tmp/runs/r1",
  workspace: "/tmp/runs/r1/workspace",
  home: "/tmp/runs/r1/home",
  config: "/tmp/runs/r1/config",
  tmp: "/tmp/runs/r1/tmp",
};
const EP = "http://127.0.0.1:4100/runs/t/CONTROL/1/subject";

describe("relay target of an endpoint", () => {
  it.each([
    [EP, { host: "127.0.0.1", port: 4100, origin: "http://127.0.0.1:4100", innerPort: 4100 }],
    [
      "http://localhost/x",
      { host: "localhost", port: 80, origin: "http://localhost", innerPort: 41080 },
    ],
    [
      "http://[::1]:5000",
      { host: "::1", port: 5000, origin: "http://[::1]:5000", innerPort: 5000 },
    ],
    ["https://api.anthropic.com", null],
    ["not a url", null],
    [undefined, null],
  ])("%s -> %j", (ep, out) => expect(relayTarget(ep)).toEqual(out));
});

describe("network plan", () => {
  it.each([
    ["model-only", EP, "relay", false],
    ["model-only", "https://api.anthropic.com", "host", true],
    ["model-only", undefined, "host", true],
    ["host", EP, "host", false],
    ["none", EP, "none", false],
  ] as const)("%s with %s -> %s (fallback %s)", (req, ep, mode, fallback) => {
    const p = planNetwork(req, ep);
    expect(p.mode).toBe(mode);
    expect(p.fallback !== null).toBe(fallback);
    expect(p.relay !== null).toBe(mode === "relay");
  });
});

describe("endpoint variables are rewritten to the inner relay", () => {
  const relay: RelayTarget = {
    host: "127.0.0.1",
    port: 4100,
    origin: "http://127.0.0.1:4100",
    innerPort: 4100,
  };
  it.each([
    [EP, "http://127.0.0.1:4100/runs/t/CONTROL/1/subject", true],
    ["http://127.0.0.1:4100", "http://127.0.0.1:4100", true],
    ["http://localhost:4100/a?b=1", "http://localhost:4100/a?b=1", false],
    ["http://127.0.0.1:4101/a", "http://127.0.0.1:4101/a", false],
    ["/usr/bin", "/usr/bin", false],
  ])("%s -> %s", (v, out, changed) => {
    const r = rewriteEndpointEnv({ ANTHROPIC_BASE_URL: v, HOME: "/h" }, relay);
    expect(r.env).toEqual({ ANTHROPIC_BASE_URL: out, HOME: "/h" });
    expect(r.changed).toBe(changed);
  });
  it("keeps path and query verbatim and moves a privileged port to the fallback port", () => {
    const low = relayTarget("http://10.0.0.5/v1");
    if (!low) throw new Error("no target");
    expect(
      rewriteEndpointEnv(
        { SKILLBENCH_X: "http://10.0.0.5/v1?k=a/b", ANTHROPIC_BASE_URL: "http://10.0.0.5:80" },
        low,
      ).env,
    ).toEqual({
      SKILLBENCH_X: "http://127.0.0.1:41080/v1?k=a/b",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:41080",
    });
  });
});

describe("bwrap under the relay", () => {
  const relay = {
    target: { host: "127.0.0.1", port: 4100, origin: "http://127.0.0.1:4100", innerPort: 4100 },
    socketPath: "/tmp/runs/r1/.skillbench-model.sock",
    nodeBin: "/usr/bin/node",
  };
  const layout = {
    runDirs,
    rootEntries: [{ name: "usr", kind: "dir" as const }],
    resultsDir: "/work/results",
    network: "relay" as const,
    relay,
    exposeReadOnly: [],
    existing: () => true,
    bwrapBin: "/usr/bin/bwrap",
  };

  it.each([
    ["relay", true],
    ["none", true],
    ["host", false],
  ] as const)("network %s: --unshare-net %s", (network, unshared) => {
    expect(bwrapArgs({ ...layout, network }).includes("--unshare-net")).toBe(unshared);
  });

  it("wraps a command that names the endpoint in the inner relay and rewrites its env", () => {
    const s = bwrapSpec(
      {
        cmd: "/x/claude",
        args: ["-p", "hi"],
        cwd: runDirs.workspace,
        env: { ANTHROPIC_BASE_URL: EP.replace("4100", "4100"), A: "1" },
      },
      layout,
    );
    expect(s.args.slice(s.args.indexOf("--") + 1)).toEqual([
      "/usr/bin/node",
      "-e",
      INNER_RELAY_SOURCE,
      relay.socketPath,
      "4100",
      "/x/claude",
      "-p",
      "hi",
    ]);
    expect(s.env).toEqual({ ANTHROPIC_BASE_URL: EP, A: "1" });
    // A PID namespace per launch: what the agent starts ends with it (LaunchSpec.contained).
    expect(s.contained).toBe(true);
  });

  it("runs a command without endpoint variables (a validator) as it is, still without network", () => {
    const s = bwrapSpec(
      {
        cmd: "/usr/bin/bash",
        args: ["check.sh"],
        cwd: runDirs.workspace,
        env: { PATH: "/usr/bin" },
      },
      layout,
    );
    expect(s.args.slice(s.args.indexOf("--") + 1)).toEqual(["/usr/bin/bash", "check.sh"]);
    expect(s.args).toContain("--unshare-net");
    expect(s.contained).toBe(true);
  });

  it.each(["relay", "none", "host"] as const)(
    "network %s: every launch has its own PID namespace (contained)",
    (network) => {
      const s = bwrapSpec(
        { cmd: "/usr/bin/true", args: [], cwd: runDirs.workspace, env: {} },
        { ...layout, network },
      );
      expect(s.args).toContain("--unshare-pid");
      expect(s.contained).toBe(true);
    },
  );
});

describe("docker under the relay", () => {
  const layout: DockerLayout = {
    runDirs,
    agentBin: "/w/claude",
    agentBinReal: "/w/claude",
    nodeBin: "/usr/bin/node",
    nodeBinReal: "/usr/bin/node",
  };
  const relay: RelayTarget = {
    host: "127.0.0.1",
    port: 80,
    origin: "http://127.0.0.1",
    innerPort: 41080,
  };

  it("runs the container with --network none and the relay with docker exec -d", () => {
    expect(
      dockerRunArgs({
        name: "c",
        image: "i",
        layout,
        limits: { cpus: null, memory: null, pids: null },
        network: "relay",
        user: null,
      }).join(" "),
    ).toContain("--network none");
    expect(relayExecArgs("c", relay)).toEqual([
      "exec",
      "-d",
      "c",
      "/opt/skillbench/bin/node",
      "-e",
      INNER_RELAY_SOURCE,
      IN_RELAY_SOCKET,
      "41080",
    ]);
    expect(IN_RELAY_SOCKET).toBe("/skillbench/run/.skillbench-model.sock");
  });

  it("passes the rewritten endpoint by name", () => {
    const s = dockerExecSpec(
      {
        cmd: "/w/claude",
        args: [],
        cwd: runDirs.workspace,
        env: { ANTHROPIC_BASE_URL: "http://127.0.0.1/runs/a", HOME: runDirs.home },
      },
      { dockerBin: "docker", container: "c", layout, hostEnv: {}, relay },
    );
    expect(s.env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:41080/runs/a");
    expect(s.args.join(" ")).not.toContain("41080");
    // docker exec processes outlive the command in the container: the marker scan still runs.
    expect(s.contained).toBeUndefined();
  });
});

describe("network records", () => {
  it.each([
    [
      "bwrap",
      "model-only",
      EP,
      /^model endpoint only \(loopback relay\); no other network: an unshared network namespace/,
    ],
    [
      "docker",
      "model-only",
      EP,
      /^model endpoint only \(loopback relay\); no other network: --network none/,
    ],
    [
      "bwrap",
      "host",
      EP,
      /^host network \(the net namespace is shared\): requested \(network: host\)/,
    ],
    ["docker", "host", EP, /^host network \(--network host\): requested/],
    [
      "docker",
      "model-only",
      "https://api.anthropic.com",
      /^host network \(--network host\): model-only was asked but the model endpoint https:\/\/api\.anthropic\.com is not a plain http:\/\/ URL/,
    ],
    ["bwrap", "none", EP, /^no network/],
  ] as const)("%s %s %s", (kind, req, ep, re) => {
    const p = protectionOf(kind, planNetwork(req, ep), ep);
    expect(p.network_policy).toMatch(re);
    const gaps = p.does_not_protect.join("\n");
    if (req === "model-only" && ep === EP) {
      expect(p.protects.join("\n")).toContain("only the model endpoint");
      expect(gaps).toContain("every path on the model endpoint's server");
    }
    if (p.network_policy.startsWith("host network"))
      expect(gaps).toContain("the network (shared with the host");
  });
});
