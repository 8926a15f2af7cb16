import { capture, whichSync } from "./exec.js";
import type { SandboxProbe } from "./choose.js";
import { DEFAULT_BASE_IMAGE } from "./types.js";

export interface ProbeOptions {
  signal?: AbortSignal | undefined;
  baseImage?: string | undefined;
  /**
   * When to ask docker (`docker info`, then `docker image inspect` of the base image):
   * `always` (the default), or `if-needed`: together with bwrap when `dockerfileAuto` (an `auto`
   * run's task has environment/Dockerfile, where docker comes first), else only when bwrap cannot
   * start (docker with the base image is auto's next choice). `chooseSandbox` never reads the
   * docker answer otherwise, and the docker client costs ~60-90 ms of CPU a call (docs/sandbox.md).
   */
  docker?: "always" | "if-needed" | undefined;
  /** With `docker: "if-needed"`: whether an `auto` run's task has environment/Dockerfile. */
  dockerfileAuto?: boolean | undefined;
}

/** `docker info`, then the base image: the docker half of the probe. */
async function probeDocker(
  docker: string | null,
  baseImage: string,
  signal: AbortSignal | undefined,
): Promise<Pick<SandboxProbe, "dockerDaemon" | "dockerBaseImage">> {
  const d = docker
    ? await capture(docker, ["info", "--format", "{{.ServerVersion}}"], {
        timeoutMs: 10_000,
        signal,
      })
    : null;
  const dockerDaemon = d !== null && d.code === 0 && d.stdout.trim() !== "";
  const img =
    dockerDaemon && docker
      ? await capture(docker, ["image", "inspect", "-f", "{{.Id}}", baseImage], {
          timeoutMs: 10_000,
          signal,
        })
      : null;
  return { dockerDaemon, dockerBaseImage: img !== null && img.code === 0 };
}

/**
 * Ask the machine what it offers: a docker daemon that answers (and has the base image), a bwrap
 * that can start. Bounded (10 s each). With `docker: "if-needed"`, docker's answer is null when
 * it was not needed (see ProbeOptions).
 */
export async function probeSandboxes(o: ProbeOptions = {}): Promise<SandboxProbe> {
  const docker = whichSync("docker");
  const bwrap = whichSync("bwrap");
  const baseImage = o.baseImage ?? DEFAULT_BASE_IMAGE;
  const dockerNow = (o.docker ?? "always") === "always" || o.dockerfileAuto === true;
  const [d, b] = await Promise.all([
    dockerNow ? probeDocker(docker, baseImage, o.signal) : null,
    bwrap
      ? capture(
          bwrap,
          ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"],
          { timeoutMs: 10_000, signal: o.signal },
        )
      : null,
  ]);
  const bwrapWorks = b !== null && b.code === 0;
  const dockerAnswer = d ?? (bwrapWorks ? null : await probeDocker(docker, baseImage, o.signal));
  return {
    dockerDaemon: dockerAnswer?.dockerDaemon ?? null,
    dockerBaseImage: dockerAnswer?.dockerBaseImage ?? null,
    bwrap: bwrapWorks,
  };
}

/**
 * probeSandboxes with its answers kept for `ttlMs` per set of options (the signal aside): for a
 * long-lived process that sets up one run after another (a queue worker: each job is a `runSuite`
 * of one run, docs/distributed.md), where asking bubblewrap again for every job was on the path
 * to the job's agent. What the machine offers seldom changes within a minute; after `ttlMs` the
 * next job asks again. An answer that fails (a rejected probe) is not kept.
 */
export function keptProbes(
  ttlMs: number,
  probe: (o: ProbeOptions) => Promise<SandboxProbe> = probeSandboxes,
  now: () => number = Date.now,
): (o?: ProbeOptions) => Promise<SandboxProbe> {
  const kept = new Map<string, { at: number; answer: Promise<SandboxProbe> }>();
  return (o = {}) => {
    const key = JSON.stringify([o.docker ?? "always", o.dockerfileAuto ?? false, o.baseImage]);
    const k = kept.get(key);
    if (k && now() - k.at < ttlMs) return k.answer;
    const answer = probe(o);
    const entry = { at: now(), answer };
    kept.set(key, entry);
    answer.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    return answer;
  };
}
