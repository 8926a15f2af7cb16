import type { Socket } from "node:net";
import type { ConnectionMeter } from "./relay.js";

/** A model server running in this process (what SandboxOptions.localModelServer takes). */
export interface LocalModelServer {
  url: string;
  accept(socket: Socket): void;
}

/** One process to start: what the harness would spawn without a sandbox. */
export interface LaunchSpec {
  cmd: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * Set by a launcher whose every launch gets a PID namespace of its own (bubblewrap): when the
   * command ends, the kernel ends every process it started, so nothing of it is left to find
   * by the run's marker (src/util/process.ts `killMarked`). Absent: processes may outlive it.
   */
  contained?: true;
}

/**
 * Turns a host command into the command that runs it inside a sandbox. Pure and synchronous:
 * the sandbox is already started. The identity launcher is `local`.
 */
export type Launcher = (spec: LaunchSpec) => LaunchSpec;

export {
  SandboxRecordSchema,
  type SandboxKind,
  type SandboxLimits,
  type SandboxRecord,
} from "../core/sandbox.js";
import type { ModelRequests, SandboxKind, SandboxRecord } from "../core/sandbox.js";
export type SandboxChoice = SandboxKind | "auto";

/**
 * `model-only` (default for bwrap and docker): a network namespace with only loopback, and the
 * model endpoint relayed into it (docs/sandbox.md); `host`: the run shares the host's network
 * (an explicit opt-out); `none`: loopback only, nothing relayed.
 */
export type NetworkPolicy = "model-only" | "host" | "none";

export interface RunDirsLike {
  root: string;
  workspace: string;
  home: string;
  config: string;
  tmp: string;
}

export interface SandboxTask {
  /** The task's environment/ folder (a Dockerfile there is built for docker); null when none. */
  environmentDir: string | null;
  cpus?: number | undefined;
  /** Docker syntax: `256m`, `1g`. */
  memory?: string | undefined;
  pids?: number | undefined;
}

export interface SandboxOptions {
  runDirs: RunDirsLike;
  task: SandboxTask;
  /** The agent binary on the host (the one `runClaudeTurn` is given). */
  agentBin: string;
  /** The results folder (hidden from bwrap; never mounted into docker). */
  resultsDir: string;
  /** The model endpoint base URL the agent uses (recorded; must be reachable under the network policy). */
  modelEndpoint?: string | undefined;
  /**
   * The model server when it runs in this process (skillbench's scripted model, a ModelServer):
   * the relay hands each connection straight to it (`accept`) when the endpoint has the origin of
   * its `url`, instead of connecting to its port.
   */
  localModelServer?: LocalModelServer | undefined;
  /**
   * Default `model-only`. `local` always shares the host network; there `host` only turns its
   * loopback tap in front of the model endpoint off (src/sandbox/local.ts).
   */
  network?: NetworkPolicy | undefined;
  /** Used in the docker image tag; `agentBin --version` is run on the host when absent. */
  agentVersion?: string | undefined;
  /** Why this kind was chosen (copied to the record). */
  why?: string | undefined;
  /** The experiment the run belongs to: in the container's name and labels (leftover cleanup). */
  experimentId?: string | undefined;
  /** docker: a unique part of the container name (the run id); sanitised. */
  runName?: string | undefined;
  /**
   * Extra host paths visible read-only inside, at the same path: bwrap re-exposes them even under
   * a hidden folder, docker mounts them (`-v p:p:ro`). Ignored by local.
   */
  exposeReadOnly?: string[] | undefined;
  /** docker: base image used when the task has no Dockerfile. Default `skillbench-base:bookworm`. */
  baseImage?: string | undefined;
  /**
   * Meters the bytes the model endpoint sends back on each connection the relay (or `local`'s
   * tap) passes on (the budgets, docs/budgets.md). The scripted model in this process meters its
   * own replies instead.
   */
  meter?: ConnectionMeter | undefined;
  /** Build / start / inspect commands are cancelled with this signal. */
  signal?: AbortSignal | undefined;
}

export interface Sandbox {
  kind: SandboxKind;
  /** Complete after start(); `oom_kills` is refreshed by stop(). */
  record: SandboxRecord;
  launcher: Launcher;
  /** docker: build/reuse the image, start the container, record image id and agent version inside. */
  start(): Promise<void>;
  /** Idempotent; removes the container (docker). Never throws. */
  stop(): Promise<void>;
  /** OOM kills so far (docker: read from the container's cgroup); null when unknown. */
  oomKills(): Promise<number | null>;
  /**
   * The model requests its relay (or `local`'s tap) has timed so far (src/sandbox/request-log.ts);
   * null or absent when none runs (no plain-http endpoint, or the scripted model in this
   * process, whose own log says more).
   */
  modelRequests?(): ModelRequests | null;
}

export const DEFAULT_BASE_IMAGE = "skillbench-base:bookworm";

/**
 * Starts a sandbox of the run's kind around a helper agent's own private folders (the judge's,
 * the simulated user's: never the subject's workspace), reaching `modelEndpoint` the way the
 * run's agent reaches its own; the caller stops it when its calls are done.
 */
export type HelperSandbox = (helper: {
  dirs: RunDirsLike;
  agentBin: string;
  modelEndpoint: string | undefined;
}) => Promise<{ launcher: Launcher; stop(): Promise<void> }>;
