import { planNetwork } from "./network.js";
import { plainRecord, protectionOf } from "./protection.js";
import type { Sandbox, SandboxOptions, SandboxRecord } from "./types.js";

/** No isolation beyond the run's own dirs and built environment: the launcher is the identity. */
export function createLocalSandbox(opts: SandboxOptions): Sandbox {
  const prot = protectionOf("local", planNetwork("host", opts.modelEndpoint), opts.modelEndpoint);
  const record: SandboxRecord = plainRecord("local", opts.why, prot);
  return {
    kind: "local",
    record,
    launcher: (spec) => spec,
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    oomKills: () => Promise.resolve(null),
  };
}
