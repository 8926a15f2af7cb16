import { planNetwork, relayServer, relayTarget, rewriteEndpointEnv } from "./network.js";
import { plainRecord, protectionOf } from "./protection.js";
import { startLoopbackTap, type LoopbackTap } from "./relay.js";
import { createRequestLog } from "./request-log.js";
import type { Sandbox, SandboxOptions, SandboxRecord } from "./types.js";

/**
 * No isolation beyond the run's own dirs and built environment: the launcher is the identity,
 * except that a plain-http model endpoint is reached through a loopback tap (a port of its own
 * on 127.0.0.1, piped to the endpoint) that times each request as the sandboxes' relay does
 * (docs/statistics.md §8). The scripted model in this process keeps its own log instead, and an
 * https endpoint cannot be tapped without breaking its certificate check: neither is tapped, nor
 * is a task's endpoint under `network: host`.
 */
export function createLocalSandbox(opts: SandboxOptions): Sandbox {
  const prot = protectionOf("local", planNetwork("host", opts.modelEndpoint), opts.modelEndpoint);
  const record: SandboxRecord = plainRecord("local", opts.why, prot);
  // `network: host` (a task that needs the network as it is) opts out: the agent then reaches the
  // endpoint by its own name (the tap makes it send `Host: 127.0.0.1:<port>`, as the relay does).
  const target = opts.network === "host" ? null : relayTarget(opts.modelEndpoint);
  const tapped = target !== null && !relayServer(opts.localModelServer, target) ? target : null;
  const log = tapped ? createRequestLog("tap") : null;
  let tap: LoopbackTap | null = null;
  return {
    kind: "local",
    record,
    launcher: (spec) =>
      tapped && tap
        ? { ...spec, env: rewriteEndpointEnv(spec.env, { ...tapped, innerPort: tap.port }).env }
        : spec,
    async start() {
      if (tapped && log) tap = await startLoopbackTap(tapped, log, opts.meter);
    },
    async stop() {
      await tap?.close();
    },
    oomKills: () => Promise.resolve(null),
    modelRequests: () => log?.snapshot() ?? null,
  };
}
