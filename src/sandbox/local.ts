import { planNetwork } from './network.js';
import { protectionOf } from './protection.js';
import type { Sandbox, SandboxOptions, SandboxRecord } from './types.js';

/** No isolation beyond the run's own dirs and built environment: the launcher is the identity. */
export function createLocalSandbox(opts: SandboxOptions): Sandbox {
  const prot = protectionOf('local', planNetwork('host', opts.modelEndpoint), opts.modelEndpoint);
  const record: SandboxRecord = {
    kind: 'local',
    why: opts.why ?? 'requested',
    image_id: null,
    image_tag: null,
    agent_version_inside: null,
    limits: null,
    network_policy: prot.network_policy,
    protects: prot.protects,
    does_not_protect: prot.does_not_protect,
    oom_kills: null,
  };
  return {
    kind: 'local',
    record,
    launcher: (spec) => spec,
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    oomKills: () => Promise.resolve(null),
  };
}
