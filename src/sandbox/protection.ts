import type { SandboxRecord } from "./types.js";
import { redactUrl, type NetworkPlan } from "./network.js";
import type { SandboxKind } from "./types.js";

export interface Protection {
  network_policy: string;
  protects: string[];
  does_not_protect: string[];
}

/** The network policy sentence and its protects / does-not-protect lines for bwrap and docker. Pure. */
function networkLines(
  kind: "bwrap" | "docker",
  plan: NetworkPlan,
  endpoint: string,
): { policy: string; protects: string[]; gaps: string[] } {
  const ns = kind === "bwrap" ? "an unshared network namespace (--unshare-net)" : "--network none";
  if (plan.mode === "relay" && plan.relay) {
    const r = plan.relay;
    return {
      policy:
        `model endpoint only (loopback relay); no other network: ${ns} with only loopback, where a relay on ` +
        `127.0.0.1:${r.innerPort} forwards through a unix socket in the run dir to ${r.host}:${r.port}${endpoint}`,
      protects: [
        `the network: only the model endpoint's host:port (${r.host}:${r.port}) is reachable; other host loopback services, the LAN and the internet are not`,
      ],
      gaps: [
        `every path on the model endpoint's server (${r.host}:${r.port}), e.g. other runs' /runs/<id> on the scripted model server`,
      ],
    };
  }
  if (plan.mode === "none") {
    return {
      policy: `no network: ${ns} with only loopback; nothing is relayed, so a model endpoint is unreachable`,
      protects: ["the network: nothing outside the sandbox is reachable"],
      gaps: [],
    };
  }
  const flag = kind === "bwrap" ? "the net namespace is shared" : "--network host";
  const why = plan.fallback
    ? `model-only was asked but ${plan.fallback}`
    : "requested (network: host)";
  return {
    policy: `host network (${flag}): ${why}; everything the host can reach is reachable${endpoint}`,
    protects: [],
    gaps: ["the network (shared with the host, including other loopback services)"],
  };
}

/** What each sandbox protects and does not, as recorded in every report (docs/sandbox.md). Pure. */
export function protectionOf(
  kind: SandboxKind,
  plan: NetworkPlan,
  modelEndpoint?: string,
): Protection {
  const endpoint = modelEndpoint ? ` (model endpoint ${redactUrl(modelEndpoint)})` : "";
  if (kind === "local") {
    return {
      network_policy: `host network, unrestricted${endpoint}`,
      protects: [
        "a fresh workspace, HOME, config and tmp dir per run",
        "a built environment: host variables are not inherited (credentials only by name)",
        "every process of the run is killed at its end (environment marker)",
      ],
      does_not_protect: [
        "the host filesystem: the agent can read and write anything the harness user can",
        "other runs' workspaces and the results folder",
        "the host home folders (/root, /home) and their secrets",
        "the network",
        "host resources (no cpu, memory or pids limits)",
      ],
    };
  }
  const net = networkLines(kind, plan, endpoint);
  if (kind === "bwrap") {
    return {
      network_policy: net.policy,
      protects: [
        "the host filesystem is read-only; the run dir (workspace, HOME, config, tmp) is the only writable place",
        "a private /tmp, /dev and /proc; a private pid, ipc and uts namespace; a new session (no terminal injection)",
        "the host home folders (/root, /home), the results folder and the folder of other runs' dirs are hidden (empty tmpfs)",
        "host unix sockets under /run and /var/run (the Docker daemon, D-Bus ...) are hidden (empty tmpfs)",
        "the whole sandbox dies with the harness (--die-with-parent, pid namespace)",
        ...net.protects,
      ],
      does_not_protect: [
        "reading the rest of the host filesystem (/etc, /usr, /opt, /work ...) read-only",
        ...net.gaps,
        "host resources (no cpu, memory or pids limits)",
        "the kernel (a namespace sandbox, not a VM)",
      ],
    };
  }
  return {
    network_policy: net.policy,
    protects: [
      "the host filesystem: only the run dir (workspace at /workspace, HOME/config/tmp under /skillbench/run) is mounted writable",
      "the agent binary and node are mounted read-only; nothing else of the host is visible",
      "the host home folders, the results folder and other runs' workspaces are not mounted",
      "cpu, memory and pids limits from [environment] (when set); an out-of-memory kill is recorded",
      "the container is removed at the end of the run (success, failure, timeout, Ctrl-C)",
      ...net.protects,
    ],
    does_not_protect: [
      ...net.gaps,
      "the kernel (a container, not a VM); the container runs as root when the harness does",
      "resources when [environment] sets no limits",
    ],
  };
}

/** The record of a sandbox that has no image and no limits (local, bwrap). */
export function plainRecord(
  kind: "local" | "bwrap",
  why: string | undefined,
  prot: ReturnType<typeof protectionOf>,
): SandboxRecord {
  return {
    kind,
    why: why ?? "requested",
    image_id: null,
    image_tag: null,
    agent_version_inside: null,
    limits: null,
    network_policy: prot.network_policy,
    protects: prot.protects,
    does_not_protect: prot.does_not_protect,
    oom_kills: null,
  };
}
