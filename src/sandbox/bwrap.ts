import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { bwrapArgs, bwrapSpec, type BwrapLayout } from './bwrap-args.js';
import { capture, firstLine, whichSync } from './exec.js';
import { protectionOf } from './protection.js';
import type { Sandbox, SandboxOptions, SandboxRecord } from './types.js';

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export function bwrapLayout(opts: SandboxOptions): BwrapLayout {
  const agentDirs = [path.dirname(path.resolve(opts.agentBin)), path.dirname(realOrSelf(opts.agentBin))];
  return {
    runDirs: opts.runDirs,
    resultsDir: path.resolve(opts.resultsDir),
    network: opts.network ?? 'host',
    exposeReadOnly: [...new Set([...agentDirs, ...(opts.exposeReadOnly ?? [])])],
    existing: existsSync,
  };
}

export function createBwrapSandbox(opts: SandboxOptions): Sandbox {
  const bwrapBin = whichSync('bwrap') ?? 'bwrap';
  const layout = { ...bwrapLayout(opts), bwrapBin };
  const prot = protectionOf('bwrap', layout.network, opts.modelEndpoint);
  const record: SandboxRecord = {
    kind: 'bwrap',
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
    kind: 'bwrap',
    record,
    launcher: (spec) => bwrapSpec(spec, layout),
    async start() {
      if (!whichSync('bwrap')) throw new InputError('bwrap sandbox: bubblewrap is not installed (apt-get install bubblewrap)', { field: 'sandbox' });
      const spec = bwrapSpec(
        { cmd: opts.agentBin, args: ['--version'], cwd: opts.runDirs.workspace, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.runDirs.home } },
        layout,
      );
      const v = await capture(spec.cmd, spec.args, { env: spec.env, cwd: spec.cwd, timeoutMs: 60_000, signal: opts.signal });
      if (v.code !== 0) {
        throw new InputError(`bwrap sandbox: cannot start the agent inside bubblewrap: ${v.stderr.trim() || firstLine(v)}`, { field: 'sandbox' });
      }
      record.agent_version_inside = v.stdout.trim();
    },
    async stop() {
      // Nothing persists: every sandboxed process dies with its bwrap (pid namespace).
    },
    oomKills: () => Promise.resolve(null),
  };
}

/** The bwrap argument list for a layout (exported for `doctor` and docs). */
export { bwrapArgs };
