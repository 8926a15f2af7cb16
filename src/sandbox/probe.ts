import { capture, whichSync } from "./exec.js";
import type { SandboxProbe } from "./choose.js";
import { DEFAULT_BASE_IMAGE } from "./types.js";

/**
 * Ask the machine what it offers: a docker daemon that answers (and has the base image), a bwrap
 * that can start. Bounded (10 s each).
 */
export async function probeSandboxes(
  signal?: AbortSignal,
  baseImage: string = DEFAULT_BASE_IMAGE,
): Promise<SandboxProbe> {
  const docker = whichSync("docker");
  const bwrap = whichSync("bwrap");
  const [d, b] = await Promise.all([
    docker
      ? capture(docker, ["info", "--format", "{{.ServerVersion}}"], { timeoutMs: 10_000, signal })
      : null,
    bwrap
      ? capture(
          bwrap,
          ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"],
          { timeoutMs: 10_000, signal },
        )
      : null,
  ]);
  const dockerDaemon = d !== null && d.code === 0 && d.stdout.trim() !== "";
  const img =
    dockerDaemon && docker
      ? await capture(docker, ["image", "inspect", "-f", "{{.Id}}", baseImage], {
          timeoutMs: 10_000,
          signal,
        })
      : null;
  return {
    dockerDaemon,
    dockerBaseImage: img !== null && img.code === 0,
    bwrap: b !== null && b.code === 0,
  };
}
