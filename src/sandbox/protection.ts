import type { NetworkPolicy, SandboxKind } from './types.js';

export interface Protection {
  network_policy: string;
  protects: string[];
  does_not_protect: string[];
}

/** What each sandbox protects and does not, as recorded in every report (docs/sandbox.md). Pure. */
export function protectionOf(kind: SandboxKind, network: NetworkPolicy, modelEndpoint?: string): Protection {
  const endpoint = modelEndpoint ? ` (model endpoint ${modelEndpoint.replace(/\/\/[^/@]*@/, '//')})` : '';
  if (kind === 'local') {
    return {
      network_policy: `host network, unrestricted${endpoint}`,
      protects: [
        'a fresh workspace, HOME, config and tmp dir per run',
        'a built environment: host variables are not inherited (credentials only by name)',
        'every process of the run is killed at its end (environment marker)',
      ],
      does_not_protect: [
        'the host filesystem: the agent can read and write anything the harness user can',
        "other runs' workspaces and the results folder",
        'the host home folders (/root, /home) and their secrets',
        'the network',
        'host resources (no cpu, memory or pids limits)',
      ],
    };
  }
  if (kind === 'bwrap') {
    return {
      network_policy:
        network === 'host'
          ? `host network: the net namespace is shared so that the loopback model endpoint is reachable; so is everything else the host can reach${endpoint}`
          : 'no network (unshared net namespace); a model endpoint is unreachable',
      protects: [
        'the host filesystem is read-only; the run dir (workspace, HOME, config, tmp) is the only writable place',
        'a private /tmp, /dev and /proc; a private pid, ipc and uts namespace; a new session (no terminal injection)',
        "the host home folders (/root, /home), the results folder and the folder of other runs' dirs are hidden (empty tmpfs)",
        'the whole sandbox dies with the harness (--die-with-parent, pid namespace)',
      ],
      does_not_protect: [
        'reading the rest of the host filesystem (/etc, /usr, /opt, /work ...) read-only',
        network === 'host' ? 'the network (shared with the host, including other loopback services)' : 'nothing network-related (no network)',
        'host resources (no cpu, memory or pids limits)',
        'the kernel (a namespace sandbox, not a VM)',
      ],
    };
  }
  return {
    network_policy:
      network === 'host'
        ? `host network (--network host): the loopback model endpoint is reachable; so is everything else the host can reach${endpoint}`
        : 'no network (--network none); a model endpoint is unreachable',
    protects: [
      'the host filesystem: only the run dir (workspace at /workspace, HOME/config/tmp under /skillbench/run) is mounted writable',
      'the agent binary and node are mounted read-only; nothing else of the host is visible',
      "the host home folders, the results folder and other runs' workspaces are not mounted",
      'cpu, memory and pids limits from [environment] (when set); an out-of-memory kill is recorded',
      'the container is removed at the end of the run (success, failure, timeout, Ctrl-C)',
    ],
    does_not_protect: [
      network === 'host' ? 'the network (host network, including other loopback services)' : 'nothing network-related (no network)',
      'the kernel (a container, not a VM); the container runs as root when the harness does',
      'resources when [environment] sets no limits',
    ],
  };
}
