/** Argument building for the docker sandbox. Pure. */
import path from "node:path";
import { mapEnvValues, mapPath, type PathMapping } from "./path-map.js";
import {
  INNER_PROBE_SOURCE,
  INNER_RELAY_SOURCE,
  RELAY_SOCKET_NAME,
  rewriteEndpointEnv,
  type NetworkPlan,
  type RelayTarget,
} from "./network.js";
import type { LaunchSpec, RunDirsLike, SandboxLimits } from "./types.js";

/** Where things live inside the container. */
const IN_WORKSPACE = "/workspace";
const IN_RUN_ROOT = "/skillbench/run";
const IN_AGENT_DIR = "/opt/skillbench/agent";
const IN_BIN_DIR = "/opt/skillbench/bin";
export const IN_NODE = `${IN_BIN_DIR}/node`;
export const CONTAINER_PATH = `${IN_BIN_DIR}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;

export interface DockerLayout {
  runDirs: RunDirsLike;
  /** The agent binary as given, and its resolved real path (its folder is mounted read-only). */
  agentBin: string;
  agentBinReal: string;
  /** The host node binary (validators in .js) as given and resolved. */
  nodeBin: string;
  nodeBinReal: string;
  /** Host folders mounted read-only at the same path (e.g. the suite's validation python_path). */
  readOnly?: readonly string[] | undefined;
}

/** Host run dirs -> container paths: the workspace at /workspace, the rest of the run root under /skillbench/run. */
function dockerPathMappings(l: DockerLayout): PathMapping[] {
  return [
    { host: l.runDirs.workspace, inside: IN_WORKSPACE },
    { host: l.runDirs.root, inside: IN_RUN_ROOT },
  ];
}

export function agentInside(l: DockerLayout): string {
  return path.posix.join(IN_AGENT_DIR, path.basename(l.agentBinReal));
}

/**
 * Docker container names: [a-zA-Z0-9][a-zA-Z0-9_.-]*: `skillbench-<run>-<rand>`, or
 * `skillbench-<run>-x<experiment id>-<rand>` when the experiment is known.
 */
export function containerName(runName: string, rand: string, experimentId?: string): string {
  const safe = runName
    .replace(/[^A-Za-z0-9_.-]/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 80);
  const exp = experimentId ? `-x${experimentId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40)}` : "";
  return `skillbench-${safe || "run"}${exp}-${rand}`;
}

export interface DockerRunInput {
  name: string;
  image: string;
  layout: DockerLayout;
  limits: SandboxLimits;
  /** `host` -> `--network host`; `none` and `relay` -> `--network none` (loopback only). */
  network: NetworkPlan["mode"];
  /** Host uid:gid when not root (files in the workspace stay the user's); null for root. */
  user: string | null;
  /** Extra `--label` arguments (the owner: pid, host, experiment id). */
  labels?: string[] | undefined;
}

/** `docker run -d ...` for the per-run container that idles until commands are exec'd into it. */
export function dockerRunArgs(i: DockerRunInput): string[] {
  const l = i.layout;
  const args = ["run", "-d", "--name", i.name, "--label", "skillbench=1", ...(i.labels ?? [])];
  args.push("--init");
  args.push("--network", i.network === "host" ? "host" : "none");
  if (i.limits.cpus !== null) args.push("--cpus", String(i.limits.cpus));
  if (i.limits.memory !== null)
    args.push("--memory", i.limits.memory, "--memory-swap", i.limits.memory);
  if (i.limits.pids !== null) args.push("--pids-limit", String(i.limits.pids));
  if (i.user !== null) args.push("--user", i.user);
  args.push("-v", `${l.runDirs.root}:${IN_RUN_ROOT}`);
  args.push("-v", `${l.runDirs.workspace}:${IN_WORKSPACE}`);
  args.push("-v", `${path.dirname(l.agentBinReal)}:${IN_AGENT_DIR}:ro`);
  args.push("-v", `${l.nodeBinReal}:${IN_NODE}:ro`);
  for (const p of l.readOnly ?? []) args.push("-v", `${p}:${p}:ro`);
  args.push("-w", IN_WORKSPACE, "--entrypoint", "sleep", i.image, "infinity");
  return args;
}

/**
 * The command inside the container for a host command: the agent binary and this node map to
 * their mounts; other absolute commands outside the standard system folders run by name (found
 * on the container's PATH); run-dir paths map to their mounts.
 */
function commandInside(cmd: string, l: DockerLayout, mappings: readonly PathMapping[]): string {
  if (cmd === l.agentBin || cmd === l.agentBinReal) return agentInside(l);
  if (cmd === l.nodeBin || cmd === l.nodeBinReal) return IN_NODE;
  if (!path.isAbsolute(cmd)) return cmd;
  const mapped = mapPath(cmd, mappings);
  if (mapped !== cmd) return mapped;
  if (/^\/(usr\/)?s?bin\//.test(cmd)) return cmd;
  return path.basename(cmd);
}

/** The relay's unix socket inside the container (the run root is mounted at /skillbench/run). */
export const IN_RELAY_SOCKET = `${IN_RUN_ROOT}/${RELAY_SOCKET_NAME}`;

/** `docker exec -d <container> node -e <inner relay> <socket> <port>`: the long-lived inner relay. */
export function relayExecArgs(container: string, relay: RelayTarget): string[] {
  return [
    "exec",
    "-d",
    container,
    IN_NODE,
    "-e",
    INNER_RELAY_SOURCE,
    IN_RELAY_SOCKET,
    String(relay.innerPort),
  ];
}

/** `docker exec <container> node -e <probe> <port>`: exits 0 once the inner relay accepts connections. */
export function relayProbeArgs(container: string, relay: RelayTarget): string[] {
  return [
    "exec",
    container,
    IN_NODE,
    "-e",
    INNER_PROBE_SOURCE,
    String(relay.innerPort),
    IN_RELAY_SOCKET,
  ];
}

/**
 * `docker exec -i -w <dir> -e NAME ... <container> cmd args` for one host command. Every variable is
 * passed by name (`-e NAME`): its value travels in the docker client's own environment, never on
 * the command line nor in a file. PATH is the container's own. Endpoint URLs are rewritten to the
 * inner relay when one runs. Returns the spec to spawn on the host.
 */
export function dockerExecSpec(
  spec: LaunchSpec,
  o: {
    dockerBin: string;
    container: string;
    layout: DockerLayout;
    hostEnv: Record<string, string>;
    relay?: RelayTarget | null | undefined;
  },
): LaunchSpec {
  const mappings = dockerPathMappings(o.layout);
  // Under `relay`, endpoint URLs point at the inner relay (127.0.0.1:<inner port>, same path).
  const inner = mapEnvValues(
    o.relay ? rewriteEndpointEnv(spec.env, o.relay).env : spec.env,
    mappings,
  );
  inner.PATH = CONTAINER_PATH;
  const names = Object.keys(inner).sort();
  const args = ["exec", "-i", "-w", mapPath(spec.cwd, mappings)];
  for (const n of names) args.push("-e", n);
  args.push(
    o.container,
    commandInside(spec.cmd, o.layout, mappings),
    ...spec.args.map((a) => mapPath(a, mappings)),
  );
  // The docker client's environment: what it needs itself, then the values it forwards by name.
  const env: Record<string, string> = {};
  for (const k of [
    "DOCKER_HOST",
    "DOCKER_CONFIG",
    "DOCKER_CONTEXT",
    "DOCKER_TLS_VERIFY",
    "DOCKER_CERT_PATH",
  ]) {
    const v = o.hostEnv[k];
    if (v !== undefined) env[k] = v;
  }
  Object.assign(env, inner);
  // PATH is set inside by value, but `-e PATH` takes it from here: keep the container's PATH.
  env.PATH = CONTAINER_PATH;
  return { cmd: o.dockerBin, args, cwd: spec.cwd, env };
}
