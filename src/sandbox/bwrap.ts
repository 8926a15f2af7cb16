import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { InputError, SkillbenchError, errorMessage } from "../core/errors.js";
import { bwrapSpec, hiddenDirs, type BwrapLayout, type RootEntry } from "./bwrap-args.js";
import { capture, firstLine, whichSync, type Captured } from "./exec.js";
import { PERL_RELAY_CHECK, planNetwork, RELAY_SOCKET_NAME, relayServer } from "./network.js";
import { isUnder } from "./path-map.js";
import { plainRecord, protectionOf } from "./protection.js";
import { startHostRelay, type HostRelay } from "./relay.js";
import { createRequestLog } from "./request-log.js";
import type { Sandbox, SandboxOptions, SandboxRecord } from "./types.js";

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The host's `/`, for bwrap to rebuild read-only on its own root. */
function listRootEntries(): RootEntry[] {
  const out: RootEntry[] = [];
  for (const d of readdirSync("/", { withFileTypes: true })) {
    if (d.isSymbolicLink()) {
      try {
        out.push({ name: d.name, kind: "symlink", target: readlinkSync(`/${d.name}`) });
      } catch {
        /* vanished */
      }
    } else if (d.isDirectory()) out.push({ name: d.name, kind: "dir" });
    else if (d.isFile()) out.push({ name: d.name, kind: "file" });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function bwrapLayout(
  opts: SandboxOptions,
  nodeBin: string = realOrSelf(process.execPath),
): BwrapLayout {
  const agentDirs = [
    path.dirname(path.resolve(opts.agentBin)),
    path.dirname(realOrSelf(opts.agentBin)),
  ];
  const plan = planNetwork(opts.network ?? "model-only", opts.modelEndpoint);
  const resultsDir = path.resolve(opts.resultsDir);
  // The inner relay runs with the host node: exposed read-only when it lives under a hidden folder.
  const nodeHidden =
    plan.relay !== null &&
    hiddenDirs(resultsDir, opts.runDirs.root).some((d) => isUnder(nodeBin, d));
  return {
    runDirs: opts.runDirs,
    rootEntries: listRootEntries(),
    resultsDir,
    network: plan.mode,
    relay: plan.relay
      ? { target: plan.relay, socketPath: path.join(opts.runDirs.root, RELAY_SOCKET_NAME), nodeBin }
      : null,
    exposeReadOnly: [
      ...new Set([...agentDirs, ...(nodeHidden ? [nodeBin] : []), ...(opts.exposeReadOnly ?? [])]),
    ],
    // /var/run is usually a symlink to /run, which is hidden already.
    existing: (p: string) => (p === "/var/run" ? isRealDir(p) : existsSync(p)),
  };
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The agent's `--version` as answered inside bubblewrap, per bwrap binary, agent binary, results
 * folder (where it can matter: askVersionInside) and read-only exposures: what decides whether
 * the agent can start in the sandbox, the same for every run of the process. Asked once, by the
 * first run (runs at once share the question); a failed answer is not kept, so each later run
 * asks again and reports its own error.
 */
const versionsInside = new Map<
  string,
  Promise<{ ok: true; version: string } | { ok: false; why: string }>
>();

function versionInside(
  key: string,
  ask: () => Promise<Captured>,
): Promise<{ ok: true; version: string } | { ok: false; why: string }> {
  let answer = versionsInside.get(key);
  if (!answer) {
    answer = ask().then((v) =>
      v.code === 0
        ? { ok: true as const, version: v.stdout.trim() }
        : { ok: false as const, why: v.stderr.trim() || firstLine(v) },
    );
    versionsInside.set(key, answer);
    void answer.then((a) => {
      if (!a.ok) versionsInside.delete(key);
    });
  }
  return answer;
}

/**
 * The host's perl, when it can run the Perl inner relay (its Socket, Fcntl and Errno agree with
 * the numbers written into the relay: PERL_RELAY_CHECK); asked once per process.
 */
let perlAnswer: Promise<string | null> | null = null;

function perlForRelay(): Promise<string | null> {
  perlAnswer ??= (async () => {
    const found = whichSync("perl");
    if (!found) return null;
    const bin = realOrSelf(found);
    const v = await capture(bin, ["-e", PERL_RELAY_CHECK], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: 30_000,
    });
    return v.code === 0 ? bin : null;
  })();
  return perlAnswer;
}

/**
 * The agent's `--version` inside bubblewrap for this layout: asked once per process and key
 * (versionInside), with the layout's run dirs as its workspace and HOME.
 */
function askVersionInside(
  opts: SandboxOptions,
  layout: BwrapLayout & { bwrapBin: string },
): Promise<{ ok: true; version: string } | { ok: false; why: string }> {
  // The results folder is hidden inside (a tmpfs over it). It can change the answer only when a
  // folder exposed read-only (the agent binary's own folders among them, bwrapLayout) lies under
  // it, or it under one of those; otherwise every results folder gets the same answer (a queue
  // worker's is new for each job: without this, each job asked again, on the path to its agent).
  const resultsDir = path.resolve(layout.resultsDir);
  const near = layout.exposeReadOnly.some(
    (p) => isUnder(path.resolve(p), resultsDir) || isUnder(resultsDir, path.resolve(p)),
  );
  const key = JSON.stringify([
    layout.bwrapBin,
    opts.agentBin,
    near ? resultsDir : null,
    layout.exposeReadOnly,
  ]);
  return versionInside(key, () => {
    const spec = bwrapSpec(
      {
        cmd: opts.agentBin,
        args: ["--version"],
        cwd: opts.runDirs.workspace,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: opts.runDirs.home },
      },
      layout,
    );
    return capture(spec.cmd, spec.args, {
      env: spec.env,
      cwd: spec.cwd,
      timeoutMs: 60_000,
      signal: opts.signal,
    });
  });
}

/**
 * Ask what a bwrap sandbox with these options asks when it starts (the agent's version inside,
 * whether perl can run the relay) ahead of time, e.g. in run dirs of its own while an experiment
 * is set up: the answers are kept for the process, so the first run's sandbox starts without
 * waiting for them. Never throws (a failed answer is not kept: the run asks again and says why).
 */
export async function warmBwrapSandbox(opts: SandboxOptions): Promise<void> {
  const layout = { ...bwrapLayout(opts), bwrapBin: whichSync("bwrap") ?? "bwrap" };
  await Promise.all([askVersionInside(opts, layout), layout.relay ? perlForRelay() : null]).catch(
    () => undefined,
  );
}

export function createBwrapSandbox(opts: SandboxOptions): Sandbox {
  const bwrapBin = whichSync("bwrap") ?? "bwrap";
  const layout = { ...bwrapLayout(opts), bwrapBin };
  const plan = planNetwork(opts.network ?? "model-only", opts.modelEndpoint);
  const prot = protectionOf("bwrap", plan, opts.modelEndpoint);
  const record: SandboxRecord = plainRecord("bwrap", opts.why, prot);
  let relay: HostRelay | null = null;
  // The requests are timed unless the scripted model in this process serves them (its log does).
  const serve = layout.relay ? relayServer(opts.localModelServer, layout.relay.target) : undefined;
  const log = layout.relay && !serve ? createRequestLog("relay") : null;
  return {
    kind: "bwrap",
    record,
    launcher: (spec) => bwrapSpec(spec, layout),
    async start() {
      if (!whichSync("bwrap"))
        throw new InputError(
          "bwrap sandbox: bubblewrap is not installed (apt-get install bubblewrap)",
          { field: "sandbox" },
        );
      // Whether perl can run the relay is asked at the same time as the version.
      const perlAsked = layout.relay ? perlForRelay() : null;
      const v = await askVersionInside(opts, layout);
      if (!v.ok) {
        throw new InputError(`bwrap sandbox: cannot start the agent inside bubblewrap: ${v.why}`, {
          field: "sandbox",
        });
      }
      record.agent_version_inside = v.version;
      if (layout.relay) {
        // The Perl relay when the host's perl is visible inside (not under a hidden folder).
        const perl = await perlAsked;
        layout.relay.perlBin =
          perl && !hiddenDirs(layout.resultsDir, opts.runDirs.root).some((d) => isUnder(perl, d))
            ? perl
            : null;
        try {
          relay = await startHostRelay(
            layout.relay.socketPath,
            layout.relay.target,
            serve,
            log ?? undefined,
            opts.meter,
          );
        } catch (e) {
          throw new SkillbenchError(
            "sandbox",
            `bwrap sandbox: cannot start the model relay on ${layout.relay.socketPath}: ${errorMessage(e)}`,
          );
        }
      }
    },
    async stop() {
      // Every sandboxed process (inner relays included) dies with its bwrap (pid namespace).
      await relay?.close();
    },
    oomKills: () => Promise.resolve(null),
    modelRequests: () => log?.snapshot() ?? null,
  };
}

/** The bwrap argument list for a layout (exported for `doctor` and docs). */
