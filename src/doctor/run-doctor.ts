import { existsSync } from "node:fs";
import { allDrivers, defaultAgent } from "../agents/index.js";
import { capture, whichSync } from "../sandbox/exec.js";
import { DEFAULT_BASE_IMAGE } from "../sandbox/types.js";
import { removeLeftovers } from "../sandbox/leftovers.js";
import { worstStatus } from "./render.js";
import type { DoctorCheck, DoctorOptions, DoctorReport } from "./types.js";

const SETUP = "run .ci/setup-sandbox.sh as root (docs/sandbox.md)";

/** The default agent's binary (`--agent-bin` checks it): every command needs it, so missing fails. */
async function defaultAgentCheck(o: DoctorOptions): Promise<DoctorCheck> {
  const d = defaultAgent();
  const name = `${d.name} binary`;
  const pkg = d.packageName ?? d.name;
  const b = d.resolveBinary({ agentBin: o.agentBin, env: o.env ?? process.env });
  if ("error" in b)
    return {
      name,
      status: "fail",
      detail: b.error,
      fix: `npm install (the pinned ${pkg}), or pass --agent-bin / SKILLBENCH_${d.name.toUpperCase()}_BIN`,
    };
  const v = await capture(b.path, ["--version"], { timeoutMs: 30_000 });
  if (v.code !== 0)
    return {
      name,
      status: "fail",
      detail: `${b.path} (from ${b.source}) does not run: ${(v.error ?? v.stderr).trim().slice(0, 200)}`,
      fix: `reinstall ${pkg}`,
    };
  return {
    name,
    status: "ok",
    detail: `${v.stdout.trim()} at ${b.path} (from ${b.source})`,
    fix: null,
  };
}

/**
 * The other agents' binaries (optional dependencies): a missing one is a warning, since only
 * `--agent <name>` needs it.
 */
async function otherAgentChecks(o: DoctorOptions): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const d of allDrivers()) {
    if (d.name === defaultAgent().name) continue;
    const name = `${d.name} binary`;
    const b = d.resolveBinary({ env: o.env ?? process.env });
    if ("error" in b) {
      out.push({
        name,
        status: "warn",
        detail: `${b.error} (--agent ${d.name} is unavailable)`,
        fix: `npm install (with optional dependencies: the pinned ${d.packageName ?? d.name})`,
      });
      continue;
    }
    const v = await capture(b.path, ["--version"], { timeoutMs: 30_000 });
    out.push(
      v.code === 0
        ? {
            name,
            status: "ok",
            detail: `${d.displayName} ${v.stdout.trim()} at ${b.path} (from ${b.source})`,
            fix: null,
          }
        : {
            name,
            status: "warn",
            detail: `${b.path} (from ${b.source}) does not run: ${(v.error ?? v.stderr).trim().slice(0, 200)}`,
            fix: `reinstall ${d.packageName ?? d.name}`,
          },
    );
  }
  return out;
}

async function dockerChecks(o: DoctorOptions): Promise<DoctorCheck[]> {
  const docker = whichSync("docker");
  if (!docker)
    return [
      {
        name: "docker",
        status: "warn",
        detail: "the docker client is not installed: --sandbox docker is unavailable",
        fix: SETUP,
      },
    ];
  const info = await capture(docker, ["info", "--format", "{{.ServerVersion}}"], {
    timeoutMs: 10_000,
  });
  if (info.code !== 0)
    return [
      {
        name: "docker",
        status: "warn",
        detail: "the docker daemon does not answer",
        fix: `start dockerd, or ${SETUP}`,
      },
    ];
  const out: DoctorCheck[] = [
    { name: "docker", status: "ok", detail: `daemon ${info.stdout.trim()} answers`, fix: null },
  ];
  const image = o.baseImage ?? DEFAULT_BASE_IMAGE;
  const img = await capture(docker, ["image", "inspect", "-f", "{{.Id}}", image], {
    timeoutMs: 10_000,
  });
  out.push(
    img.code === 0
      ? {
          name: "docker base image",
          status: "ok",
          detail: `${image} ${img.stdout.trim().slice(0, 19)}`,
          fix: null,
        }
      : {
          name: "docker base image",
          status: "warn",
          detail: `${image} is missing (tasks FROM it cannot build)`,
          fix: SETUP,
        },
  );
  return out;
}

async function bwrapCheck(): Promise<DoctorCheck> {
  const bwrap = whichSync("bwrap");
  if (!bwrap)
    return {
      name: "bubblewrap",
      status: "warn",
      detail: "not installed: --sandbox bwrap is unavailable",
      fix: "apt-get install bubblewrap",
    };
  const r = await capture(
    bwrap,
    ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"],
    { timeoutMs: 10_000 },
  );
  if (r.code !== 0)
    return {
      name: "bubblewrap",
      status: "warn",
      detail: `installed but cannot start a sandbox: ${r.stderr.trim().slice(0, 200)}`,
      fix: "enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run as root",
    };
  return { name: "bubblewrap", status: "ok", detail: `${bwrap} starts a sandbox`, fix: null };
}

function browserCheck(o: DoctorOptions): DoctorCheck {
  const p = o.chromium ?? "/usr/bin/chromium";
  return existsSync(p)
    ? { name: "browser (HTML tests)", status: "ok", detail: p, fix: null }
    : {
        name: "browser (HTML tests)",
        status: "warn",
        detail: `${p} not found: the HTML report tests cannot run`,
        fix: "apt-get install chromium",
      };
}

async function pythonCheck(o: DoctorOptions): Promise<DoctorCheck> {
  const py = whichSync("python3", (o.env ?? process.env).PATH);
  if (!py)
    return {
      name: "python3",
      status: "warn",
      detail: "not found: .py validators cannot run",
      fix: "apt-get install python3",
    };
  const v = await capture(py, ["--version"], { timeoutMs: 10_000 });
  return {
    name: "python3",
    status: v.code === 0 ? "ok" : "warn",
    detail: `${(v.stdout || v.stderr).trim()} at ${py}`,
    fix: v.code === 0 ? null : "reinstall python3",
  };
}

function endpointCheck(o: DoctorOptions): DoctorCheck {
  const env = o.env ?? process.env;
  if (o.modelScript)
    return {
      name: "model endpoint",
      status: "ok",
      detail: `scripted model (${o.modelScript})`,
      fix: null,
    };
  const url = env.ANTHROPIC_BASE_URL;
  const key = env.ANTHROPIC_API_KEY ?? env.ANTHROPIC_AUTH_TOKEN;
  if (key)
    return {
      name: "model endpoint",
      status: "ok",
      detail: `${url ?? "https://api.anthropic.com (default)"} with a credential set`,
      fix: null,
    };
  return {
    name: "model endpoint",
    status: "warn",
    detail: url
      ? `${url} but no ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN`
      : "no ANTHROPIC_BASE_URL or API key configured",
    fix: "use --model-script <file> to run offline, or set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL)",
  };
}

/** Containers and temporary folders of skillbench processes that are gone; removed with `fix`. */
async function leftoversCheck(o: DoctorOptions): Promise<DoctorCheck> {
  const r = await removeLeftovers({ dryRun: !o.fix });
  const n = r.containers.length + r.folders.length + r.processes.length;
  const what = `${r.containers.length} container(s), ${r.folders.length} temporary folder(s), ${r.processes.length} process(es)`;
  if (n === 0)
    return {
      name: "leftovers",
      status: "ok",
      detail: "none from dead skillbench processes",
      fix: null,
    };
  if (o.fix) return { name: "leftovers", status: "ok", detail: `removed ${what}`, fix: null };
  return {
    name: "leftovers",
    status: "warn",
    detail: `skillbench processes that are gone left ${what}: ${[...r.containers, ...r.folders, ...r.processes.map((p) => `pid ${p}`)].slice(0, 3).join(", ")}${n > 3 ? ", ..." : ""}`,
    fix: "skillbench doctor --fix (any skillbench run also removes them)",
  };
}

/** Check everything a user needs; never throws. Missing sandboxes are warnings (local still works). */
export async function runDoctor(o: DoctorOptions = {}): Promise<DoctorReport> {
  const [main, agents, docker, bwrap, python, leftovers] = await Promise.all([
    defaultAgentCheck(o),
    otherAgentChecks(o),
    dockerChecks(o),
    bwrapCheck(),
    pythonCheck(o),
    leftoversCheck(o),
  ]);
  const checks = [
    main,
    ...agents,
    ...docker,
    bwrap,
    browserCheck(o),
    python,
    endpointCheck(o),
    leftovers,
  ];
  return { checks, status: worstStatus(checks) };
}
