import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { InputError, SkillbenchError, errorMessage } from "../core/errors.js";
import { hashTree } from "../util/hash.js";
import { capture, firstLine, hostToolEnv, whichSync } from "./exec.js";
import {
  containerName,
  dockerExecSpec,
  dockerRunArgs,
  agentInside,
  relayExecArgs,
  relayProbeArgs,
  type DockerLayout,
} from "./docker-args.js";
import { parseAgentVersion, parseOomKills, taskImageTag } from "./image-tag.js";
import { planNetwork, RELAY_SOCKET_NAME } from "./network.js";
import { protectionOf } from "./protection.js";
import { startHostRelay, type HostRelay } from "./relay.js";
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
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const [n, bin] of live)
      spawnSync(bin, ["rm", "-f", n], { stdio: "ignore", timeout: 10_000 });
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

/** Find or build the image for a task; returns its tag. */
async function ensureTaskImage(o: {
  dockerBin: string;
  environmentDir: string | null;
  agentVersion: string;
  baseImage: string;
  signal?: AbortSignal | undefined;
}): Promise<string> {
  const dockerfile = o.environmentDir ? path.join(o.environmentDir, "Dockerfile") : null;
  if (!dockerfile || !existsSync(dockerfile)) {
    const has = await capture(o.dockerBin, ["image", "inspect", o.baseImage], { signal: o.signal });
    if (has.code !== 0) {
      throw new InputError(
        `docker sandbox: base image ${o.baseImage} is missing; build it with .ci/setup-sandbox.sh (see docs/sandbox.md)`,
        { field: "sandbox" },
      );
    }
    return o.baseImage;
  }
  const ctxDir = o.environmentDir ?? ".";
  const tag = taskImageTag(await hashTree(ctxDir), o.agentVersion);
  const has = await capture(o.dockerBin, ["image", "inspect", tag], { signal: o.signal });
  if (has.code === 0) return tag;
  const built = await capture(o.dockerBin, ["build", "-q", "-t", tag, "-f", dockerfile, ctxDir], {
    timeoutMs: 900_000,
    signal: o.signal,
    env: { ...hostToolEnv(), DOCKER_BUILDKIT: "0" },
  });
  if (built.code !== 0) {
    throw new InputError(
      `docker sandbox: building ${dockerfile} failed: ${built.stderr.trim().slice(-800) || firstLine(built)}`,
      {
        file: dockerfile,
      },
    );
  }
  return tag;
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
  };
  const name = containerName(
    opts.runName ?? path.basename(opts.runDirs.root),
    randomBytes(4).toString("hex"),
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
      await capture(dockerBin, ["rm", "-f", name], { timeoutMs: 30_000 });
      live.delete(name);
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
      dockerRunArgs({ name, image, layout, limits, network, user }),
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
        relay = await startHostRelay(path.join(opts.runDirs.root, RELAY_SOCKET_NAME), plan.relay);
      } catch (e) {
        await stop();
        throw new SkillbenchError(
          "sandbox",
          `docker sandbox: cannot start the model relay: ${errorMessage(e)}`,
        );
      }
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
  };
}
