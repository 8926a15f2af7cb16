import { createBwrapSandbox } from "./bwrap.js";
import { createDockerSandbox } from "./docker.js";
import { createLocalSandbox } from "./local.js";
import type { Sandbox, SandboxKind, SandboxOptions } from "./types.js";

/**
 * Make a sandbox for one run. Nothing is started yet: call `start()` before the first launch and
 * `stop()` (idempotent, never throws) in a `finally`. The record is complete after `start()`.
 */
export function createSandbox(kind: SandboxKind, opts: SandboxOptions): Promise<Sandbox> {
  switch (kind) {
    case "local":
      return Promise.resolve(createLocalSandbox(opts));
    case "bwrap":
      return Promise.resolve(createBwrapSandbox(opts));
    case "docker":
      return Promise.resolve(createDockerSandbox(opts));
  }
}
