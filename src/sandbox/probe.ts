import { capture, whichSync } from "./exec.js";
import type { SandboxProbe } from "./choose.js";

/** Ask the machine what it offers: a docker daemon that answers, a bwrap that can start. Bounded (10 s each). */
export async function probeSandboxes(signal?: AbortSignal): Promise<SandboxProbe> {
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
  return {
    dockerDaemon: d !== null && d.code === 0 && d.stdout.trim() !== "",
    bwrap: b !== null && b.code === 0,
  };
}
