import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { lchown, readdir } from "node:fs/promises";
import path from "node:path";
import { InputError, SkillbenchError, errorMessage } from "../core/errors.js";

import { capture, firstLine, hostToolEnv, whichSync } from "./exec.js";
import {
  containerName,
  dockerExecSpec,
  dockerRunArgs,
  agentInside,
  IN_NODE,
  relayExecArgs,
  relayProbeArgs,
  type DockerLayout,
} from "./docker-args.js";
import { ensureTaskImage } from "./docker-image.js";
import { markContainer, ownerLabels, unmarkContainer } from "./leftovers.js";
import { parseAgentVersion, parseOomKills } from "./image-tag.js";
import { planNetwork, RELAY_SOCKET_NAME, relayServer } from "./network.js";
import { protectionOf } from "./protection.js";
import { startHostRelay, type HostRelay } from "./relay.js";
import { createRequestLog } from "./request-log.js";
import {
  DEFAULT_BASE_IMAGE,
  type Sandbox,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxRecord,
} from "./types.js";

/** Containers started by this process and not yet removed: removed on process exit as a last resort. */
const live = new Map<string, string>();
let exitHook = false;
function track(name: string, dockerBin: string): void {
  live.set(name, dockerBin);
  // Before the container exists: a process killed from here on leaves the marker for the next run.
  markContainer(name);
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const [n, bin] of live)
      if (spawnSync(bin, ["rm", "-f", n], { stdio: "ignore", timeout: 10_000 }).status === 0)
        unmarkContainer(n);
  });
}

function dockerLimits(task: SandboxOptions["task"]): SandboxLimits {
  return { cpus: task.cpus ?? null, memory: task.memory ?? null, pids: task.pids ?? null };
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** uid and gid the container's commands run as (the image's USER), via the mounted node. */
async function innerUser(
  dockerBin: string,
  container: string,
  signal: AbortSignal | undefined,
): Promise<{ uid: number; gid: number } | null> {
  const r = await capture(
    dockerBin,
    ["exec", container, IN_NODE, "-e", "console.log(process.getuid() + ':' + process.getgid())"],
    { timeoutMs: 30_000, signal },
  );
  const m = /^(\d+):(\d+)\s*$/.exec(r.stdout);
  return r.code === 0 && m?.[1] && m[2] ? { uid: Number(m[1]), gid: Number(m[2]) } : null;
}

/** chown every entry under `root` (symlinks themselves, never their targets). */
async function chownTree(root: string, uid: number, gid: number): Promise<void> {
  await lchown(root, uid, gid);
  for (const e of await readdir(root, { withFileTypes: true, recursive: true })) {
    await lchown(path.join(e.parentPath, e.name), uid, gid);
  }
}

export function createDockerSandbox(opts: SandboxOptions): Sandbox {
  const dockerBin = whichSync("docker") ?? "docker";
  const nodeBin = process.execPath;
  const layout: DockerLayout = {
    runDirs: opts.runDirs,
    agentBin: opts.agentBin,
    agentBinReal: realOrSelf(opts.agentBin),
    nodeBin,
    nodeBinReal: realOrSelf(nodeBin),
    readOnly: [...new Set(opts.exposeReadOnly ?? [])],
  };
  const name = containerName(
    opts.runName ?? path.basename(opts.runDirs.root),
    randomBytes(4).toString("hex"),
    opts.experimentId,
  );
  const plan = planNetwork(opts.network ?? "model-only", opts.modelEndpoint);
  const network = plan.mode;
  const limits = dockerLimits(opts.task);
  const prot = protectionOf("docker", plan, opts.modelEndpoint);
  const record: SandboxRecord = {
    kind: "docker",
    why: opts.why ?? "requested",
    image_id: null,
    image_tag: null,
    agent_version_inside: null,
    limits,
    network_policy: prot.network_policy,
    protects: prot.protects,
    does_not_protect: prot.does_not_protect,
    oom_kills: null,
  };
  const hostEnv = hostToolEnv();
  let started = false;
  let relay: HostRelay | null = null;
  let stopping: Promise<void> | null = null;
  // The requests are timed unless the scripted model in this process serves them (its log does).
  const serve = plan.relay ? relayServer(opts.localModelServer, plan.relay) : undefined;
  const log = plan.relay && !serve ? createRequestLog("relay") : null;

  const oomKills = async (): Promise<number | null> => {
    if (!started) return null;
    const r = await capture(
      dockerBin,
      [
        "exec",
        name,
        "cat",
        "/sys/fs/cgroup/memory/memory.oom_control",
        "/sys/fs/cgroup/memory.events",
      ],
      {
        timeoutMs: 15_000,
      },
    );
    return parseOomKills(r.stdout);
  };

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (started) {
        const n = await oomKills().catch(() => null);
        if (n !== null) record.oom_kills = n;
      }
      // Always: a start() cut short may have created the container already.
      const rm = await capture(dockerBin, ["rm", "-f", name], { timeoutMs: 30_000 });
      live.delete(name);
      if (rm.code === 0 || /no such container/i.test(rm.stderr)) unmarkContainer(name);
      await relay?.close();
    })();
    return stopping;
  };

  const start = async (): Promise<void> => {
    if (!whichSync("docker"))
      throw new InputError(
        "docker sandbox: the docker client is not installed (run skillbench doctor)",
        { field: "sandbox" },
      );
    const ver =
      opts.agentVersion ??
      parseAgentVersion(
        (await capture(layout.agentBinReal, ["--version"], { signal: opts.signal })).stdout,
      ) ??
      "unknown";
    const image = await ensureTaskImage({
      dockerBin,
      environmentDir: opts.task.environmentDir,
      agentVersion: ver,
      baseImage: opts.baseImage ?? DEFAULT_BASE_IMAGE,
      signal: opts.signal,
    });
    record.image_tag = image;
    const id = await capture(dockerBin, ["image", "inspect", "-f", "{{.Id}}", image], {
      signal: opts.signal,
    });
    record.image_id = id.code === 0 ? id.stdout.trim() : null;
    const uid = process.getuid?.() ?? 0;
    const user = uid === 0 ? null : `${uid}:${process.getgid?.() ?? 0}`;
    track(name, dockerBin);
    const run = await capture(
      dockerBin,
      dockerRunArgs({
        name,
        image,
        layout,
        limits,
        network,
        user,
        labels: ownerLabels(opts.experimentId),
      }),
      {
        timeoutMs: 120_000,
        signal: opts.signal,
      },
    );
    if (run.code !== 0) {
      await stop();
      throw new SkillbenchError(
        "sandbox",
        `docker sandbox: could not start the container: ${run.stderr.trim() || firstLine(run)}`,
      );
    }
    started = true;
    const v = await capture(dockerBin, ["exec", name, agentInside(layout), "--version"], {
      timeoutMs: 60_000,
      signal: opts.signal,
    });
    record.agent_version_inside = v.code === 0 ? v.stdout.trim() : null;
    if (v.code !== 0) {
      await stop();
      throw new SkillbenchError(
        "sandbox",
        `docker sandbox: the agent binary does not run inside ${image}: ${v.stderr.trim() || firstLine(v)}`,
      );
    }
    if (plan.relay) {
      // Host side: the run root's unix socket -> the endpoint; inside: 127.0.0.1:<inner port> -> the socket.
      try {
        relay = await startHostRelay(
          path.join(opts.runDirs.root, RELAY_SOCKET_NAME),
          plan.relay,
          serve,
          log ?? undefined,
          opts.meter,
        );
      } catch (e) {
        await stop();
        throw new SkillbenchError(
          "sandbox",
          `docker sandbox: cannot start the model relay: ${errorMessage(e)}`,
        );
      }
    }
    // An image with a non-root USER, run by a root harness: the run dir (and the relay's socket)
    // become that user's, so the agent can write its workspace and HOME and reach the model.
    if (user === null) {
      const inner = await innerUser(dockerBin, name, opts.signal);
      if (inner && inner.uid !== 0) {
        await chownTree(opts.runDirs.root, inner.uid, inner.gid);
        record.protects.push(
          `the image's own user (uid ${inner.uid}) runs the agent and the validators; the run dir is given to it`,
        );
      }
    }
    if (plan.relay) {
      const d = await capture(dockerBin, relayExecArgs(name, plan.relay), {
        timeoutMs: 30_000,
        signal: opts.signal,
      });
      const p =
        d.code === 0
          ? await capture(dockerBin, relayProbeArgs(name, plan.relay), {
              timeoutMs: 30_000,
              signal: opts.signal,
            })
          : d;
      if (p.code !== 0) {
        await stop();
        throw new SkillbenchError(
          "sandbox",
          `docker sandbox: the model relay did not start inside the container: ${p.stderr.trim() || firstLine(p)}`,
        );
      }
    }
  };

  return {
    kind: "docker",
    record,
    launcher: (spec) =>
      dockerExecSpec(spec, { dockerBin, container: name, layout, hostEnv, relay: plan.relay }),
    start,
    stop,
    oomKills,
    modelRequests: () => log?.snapshot() ?? null,
  };
}
