import type { SandboxChoice, SandboxKind } from "./types.js";

/** What the machine offers, as found by `probeSandboxes` (src/sandbox/probe.ts). */
export interface SandboxProbe {
  /** A docker daemon answered `docker info`. */
  dockerDaemon: boolean;
  /** `bwrap` is installed and can start a sandbox. */
  bwrap: boolean;
}

export interface SandboxChoiceResult {
  kind: SandboxKind;
  why: string;
}

/**
 * `auto`: docker when the task has environment/Dockerfile and a daemon answers, else bwrap
 * when it works here, else local. An explicit kind is returned as is. Pure.
 */
export function chooseSandbox(
  choice: SandboxChoice,
  task: { hasDockerfile: boolean },
  probe: SandboxProbe,
): SandboxChoiceResult {
  if (choice !== "auto") return { kind: choice, why: "requested" };
  if (task.hasDockerfile && probe.dockerDaemon)
    return {
      kind: "docker",
      why: "auto: the task has environment/Dockerfile and a Docker daemon answers",
    };
  const noDocker = task.hasDockerfile
    ? "the task has a Dockerfile but no Docker daemon answers"
    : "the task has no environment/Dockerfile";
  if (probe.bwrap) return { kind: "bwrap", why: `auto: ${noDocker}; bubblewrap works` };
  return { kind: "local", why: `auto: ${noDocker}; bubblewrap is not usable; running unsandboxed` };
}
