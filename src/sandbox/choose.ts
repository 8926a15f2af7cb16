import { LOCAL_WARNING } from "../core/sandbox.js";
import type { SandboxChoice, SandboxKind } from "./types.js";

/** What the machine offers, as found by `probeSandboxes` (src/sandbox/probe.ts). */
export interface SandboxProbe {
  /**
   * A docker daemon answered `docker info`; null: not asked, because bwrap works and no `auto`
   * run's task has environment/Dockerfile (the only cases where `auto` reads it).
   */
  dockerDaemon: boolean | null;
  /** The daemon has the base image (`skillbench-base:bookworm`) that tasks without a Dockerfile use. */
  dockerBaseImage?: boolean | null | undefined;
  /** `bwrap` is installed and can start a sandbox. */
  bwrap: boolean;
}

export interface SandboxChoiceResult {
  kind: SandboxKind;
  why: string;
}

/**
 * The sandbox asked for a run: `--sandbox`, else its task's `[environment] sandbox`, else the
 * suite's (skillbench.yaml), else `auto` (docs/sandbox.md). Pure.
 */
export function requestedSandbox(
  cli: SandboxChoice | null | undefined,
  task: { environment: { sandbox?: SandboxChoice | undefined } } | undefined,
  suite: SandboxChoice | null | undefined,
): SandboxChoice {
  return cli ?? task?.environment.sandbox ?? suite ?? "auto";
}

/**
 * `auto` (the default): docker when the task has environment/Dockerfile and a daemon answers;
 * else bwrap when it starts here; else docker with the base image; else local, with
 * `LOCAL_WARNING` in its reason. An explicit kind is returned as is. Pure.
 */
export function chooseSandbox(
  choice: SandboxChoice,
  task: { hasDockerfile: boolean },
  probe: SandboxProbe,
): SandboxChoiceResult {
  if (choice !== "auto")
    return { kind: choice, why: choice === "local" ? `requested; ${LOCAL_WARNING}` : "requested" };
  if (task.hasDockerfile && probe.dockerDaemon === true)
    return {
      kind: "docker",
      why: "auto: the task has environment/Dockerfile and a Docker daemon answers",
    };
  const noDocker = task.hasDockerfile
    ? "the task has a Dockerfile but no Docker daemon answers"
    : "the task has no environment/Dockerfile";
  if (probe.bwrap) return { kind: "bwrap", why: `auto: ${noDocker}; bubblewrap works` };
  if (probe.dockerDaemon === true && probe.dockerBaseImage === true)
    return {
      kind: "docker",
      why: `auto: ${noDocker}; bubblewrap is not usable; a Docker daemon answers with the base image`,
    };
  const dockerGap =
    probe.dockerDaemon !== true
      ? "no Docker daemon answers"
      : "Docker has no base image (build it with .ci/setup-sandbox.sh)";
  return {
    kind: "local",
    why: `auto: ${noDocker}; bubblewrap is not usable; ${dockerGap}; ${LOCAL_WARNING}`,
  };
}
