/** Argument building for the bubblewrap sandbox. Pure. */
import path from "node:path";
import { mapEnvValues, mapPath, isUnder, type PathMapping } from "./path-map.js";
import {
  INNER_RELAY_PERL,
  INNER_RELAY_SOURCE,
  rewriteEndpointEnv,
  type NetworkPlan,
  type RelayTarget,
} from "./network.js";
import type { LaunchSpec, RunDirsLike } from "./types.js";

/**
 * Host folders hidden behind an empty tmpfs (besides the results folder). `/run` (and a
 * `/var/run` that is not a symlink to it) goes too: it holds unix sockets such as the Docker
 * daemon's, which a network namespace does not isolate.
 */
const HIDDEN_HOST_DIRS = ["/tmp", "/root", "/home", "/var/tmp", "/run", "/var/run"];
/** Hidden folders that stay writable (a private, empty scratch space). */
const SCRATCH_DIRS = ["/tmp", "/var/tmp"];

/** The workspace's path inside the sandbox (as in docker and in the original harness). */
const BWRAP_WORKSPACE = "/workspace";

/** One entry of the host's `/`: re-created inside (bwrap's own root is an empty tmpfs). */
export interface RootEntry {
  name: string;
  kind: "dir" | "file" | "symlink";
  /** The link's target, for a symlink. */
  target?: string | undefined;
}

/** Root entries that bwrap makes itself (`--dev`, `--proc`) or that the sandbox replaces. */
const OWN_ROOT_ENTRIES = new Set(["dev", "proc", BWRAP_WORKSPACE.slice(1)]);

export interface BwrapLayout {
  runDirs: RunDirsLike;
  /** The host's `/` as listed by `readdir` (each entry bound read-only, symlinks re-created). */
  rootEntries: RootEntry[];
  resultsDir: string;
  /** `host` shares the host's network; `none` and `relay` get a namespace with only loopback. */
  network: NetworkPlan["mode"];
  /**
   * `relay`: the endpoint, the run dir's unix socket and the interpreter of the inner relay: the
   * Perl one when `perlBin` is set (cheaper to start), else node's.
   */
  relay?:
    | {
        target: RelayTarget;
        socketPath: string;
        nodeBin: string;
        perlBin?: string | null | undefined;
      }
    | null
    | undefined;
  /** Host paths re-exposed read-only after hiding (e.g. the agent binary's folder when it lives under /root). */
  exposeReadOnly: string[];
  /** Folders that exist on this host (a tmpfs can only hide a folder that exists or can be created). */
  existing: (p: string) => boolean;
}

/**
 * The folders to hide: the fixed list, the results folder and the folder holding the run dirs
 * (other runs' workspaces live beside this one), dropping any inside another one.
 */
export function hiddenDirs(resultsDir: string, runRoot: string): string[] {
  const parent = path.dirname(path.resolve(runRoot));
  const all = [...HIDDEN_HOST_DIRS, path.resolve(resultsDir), ...(parent === "/" ? [] : [parent])];
  const unique = [...new Set(all)];
  return unique.filter((d) => !unique.some((o) => o !== d && isUnder(d, o)));
}

/**
 * `bwrap` arguments before the command: host root read-only, a private /dev, /proc and pid
 * namespace, the hidden folders behind tmpfs, then the run's own dirs bound writable (the only
 * writable places), the read-only exposures, and the network policy.
 */
export function bwrapArgs(l: BwrapLayout): string[] {
  // Each entry of the host root read-only, on bwrap's own (tmpfs) root, so that /workspace can be
  // made even though the host has no such folder (a read-only bind of / would forbid the mkdir).
  const args: string[] = [];
  const hidden = hiddenDirs(l.resultsDir, l.runDirs.root).filter((d) => l.existing(d));
  // A hidden folder that is itself an entry of the root is not bound first only to be covered:
  // a scratch one gets only its tmpfs below; any other one is an empty folder of bwrap's root,
  // which the last remount makes read-only (what a tmpfs remounted read-only gives, without the
  // bind, the tmpfs and the remount; bwrap re-reads the mount table after each: docs/sandbox.md).
  const emptyRootDirs = new Set<string>();
  for (const e of l.rootEntries) {
    if (OWN_ROOT_ENTRIES.has(e.name)) continue;
    const p = `/${e.name}`;
    if (e.kind === "symlink" && e.target !== undefined) args.push("--symlink", e.target, p);
    else if (e.kind === "dir" && hidden.includes(p)) {
      if (SCRATCH_DIRS.includes(p)) continue;
      args.push("--dir", p);
      emptyRootDirs.add(p);
    } else if (e.kind === "dir") args.push("--ro-bind", p, p);
    else args.push("--ro-bind-try", p, p);
  }
  args.push("--dev", "/dev", "--proc", "/proc");
  const covered = hidden.filter((d) => !emptyRootDirs.has(d));
  for (const d of covered) args.push("--tmpfs", d);
  for (const p of l.exposeReadOnly) args.push("--ro-bind-try", p, p);
  // The run root holds the workspace, home, config and tmp dirs (and the validators' HOME made later).
  args.push("--bind", l.runDirs.root, l.runDirs.root);
  for (const w of [l.runDirs.workspace, l.runDirs.home, l.runDirs.config, l.runDirs.tmp]) {
    if (!isUnder(w, l.runDirs.root)) args.push("--bind", w, w);
  }
  // The workspace again at /workspace: the path the agent and the validators work in.
  args.push("--bind", l.runDirs.workspace, BWRAP_WORKSPACE);
  // Hidden folders are empty and read-only (writing there fails), except the private scratch dirs.
  for (const d of covered) if (!SCRATCH_DIRS.includes(d)) args.push("--remount-ro", d);
  // bwrap's own root (where the mount points were made) is read-only too.
  args.push("--remount-ro", "/");
  // A PID namespace per launch: its processes all end with the command (LaunchSpec.contained).
  args.push(
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--die-with-parent",
    "--new-session",
  );
  if (l.network !== "host") args.push("--unshare-net");
  return args;
}

/** Commands that live under a hidden folder run by name (found on PATH inside). */
export function bwrapCommand(
  cmd: string,
  l: Pick<BwrapLayout, "resultsDir" | "exposeReadOnly" | "runDirs">,
): string {
  if (!path.isAbsolute(cmd)) return cmd;
  if (l.exposeReadOnly.some((e) => isUnder(cmd, e)) || isUnder(cmd, l.runDirs.root)) return cmd;
  return hiddenDirs(l.resultsDir, l.runDirs.root).some((d) => isUnder(cmd, d))
    ? path.basename(cmd)
    : cmd;
}

/**
 * The host spec that runs `spec` inside bwrap. The workspace is at /workspace inside: cwd,
 * arguments and environment values naming it are mapped (the rest of the run dir keeps its path).
 * Under `relay`, a command whose environment names the model endpoint (ANTHROPIC_BASE_URL ...)
 * gets those variables rewritten to http://127.0.0.1:<inner port>/<same path> and runs as
 * `perl -e <inner relay> <socket> <inner port> cmd args` (`node -e` without a usable perl): the
 * relay listens inside the command's
 * own network namespace before the command starts, and exits with its status. Other commands
 * (validators) run as they are, with loopback only.
 */
export function bwrapSpec(spec: LaunchSpec, l: BwrapLayout & { bwrapBin: string }): LaunchSpec {
  const mappings = bwrapPathMappings(l);
  const cmd = mapPath(bwrapCommand(spec.cmd, l), mappings);
  const env = mapEnvValues(spec.env, mappings);
  const args = spec.args.map((a) => mapPath(a, mappings));
  const home = env.HOME;
  // A HOME in a hidden scratch folder (the validators' fresh one) is made empty inside the private /tmp.
  const homeDir =
    home !== undefined &&
    path.isAbsolute(home) &&
    !isUnder(home, l.runDirs.root) &&
    SCRATCH_DIRS.some((d) => isUnder(home, d) && home !== d)
      ? ["--dir", home]
      : [];
  const head = [...bwrapArgs(l), ...homeDir, "--chdir", mapPath(spec.cwd, mappings), "--"];
  if (l.network === "relay" && l.relay) {
    const r = rewriteEndpointEnv(env, l.relay.target);
    if (r.changed) {
      return {
        cmd: l.bwrapBin,
        args: [
          ...head,
          ...(l.relay.perlBin
            ? [l.relay.perlBin, "-e", INNER_RELAY_PERL]
            : [l.relay.nodeBin, "-e", INNER_RELAY_SOURCE]),
          l.relay.socketPath,
          String(l.relay.target.innerPort),
          cmd,
          ...args,
        ],
        cwd: spec.cwd,
        env: r.env,
        contained: true,
      };
    }
  }
  return { cmd: l.bwrapBin, args: [...head, cmd, ...args], cwd: spec.cwd, env, contained: true };
}

/** Host workspace -> /workspace (the rest of the run dir keeps its host path inside). */
function bwrapPathMappings(l: Pick<BwrapLayout, "runDirs">): PathMapping[] {
  return [{ host: l.runDirs.workspace, inside: BWRAP_WORKSPACE }];
}
