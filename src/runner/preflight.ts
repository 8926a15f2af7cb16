import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  agentNames,
  agentDriver,
  defaultAgent,
  type AgentDriver,
  type ResolvedBinary,
} from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { RunSpec } from "../plan/matrix.js";
import { settleRun, type PlanSettings } from "../plan/run-plan.js";
import { requestedSandbox, type SandboxChoice } from "../sandbox/index.js";
import type { Suite, TaskSpec } from "../suite/index.js";
import { refuseEscapingSymlinks } from "../workspace/symlinks.js";
import type { AgentSetup } from "./context.js";
import type { RunOptions } from "./run-options.js";

/** A positive whole number from a flag or skillbench.yaml, or undefined when not given. */
export function positiveInt(name: string, v: unknown, file?: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw new InputError(
      `${file ? `${file}: ` : ""}${name}: expected a positive whole number, got ${JSON.stringify(v)}`,
      { field: name },
    );
  return v;
}

/** The simulator prompt file named by BENCH_SIMULATOR_PROMPT_FILE: a missing file is an input error. */
export async function readPromptFile(
  name: string | undefined,
  cwd: string,
  field: string,
): Promise<string | null> {
  if (!name) return null;
  const file = path.resolve(cwd, name);
  try {
    return await readFile(file, "utf8");
  } catch {
    throw new InputError(`${field}=${name}: cannot read ${file}`, { file, field });
  }
}

/** Every planned run needs an id of its own (its folder's name). */
export function refuseSharedIds(planned: RunSpec[]): void {
  const seen = new Set<string>();
  for (const r of planned) {
    if (seen.has(r.run_id))
      throw new InputError(
        `two runs would share the id ${r.run_id}: rename a task or treatment so that <task>-<TREATMENT> is unique`,
        { field: "task" },
      );
    seen.add(r.run_id);
  }
}

/**
 * Fail before any agent runs: every planned task × treatment must settle (a profile that
 * resolves, a prompt that renders, interaction settings that parse). The run's own plan is
 * settled later, once the agent and the machine's sandboxes are known, by the same function.
 */
export function checkPlans(settings: PlanSettings, planned: RunSpec[]): void {
  const checked = new Set<string>();
  for (const r of planned) {
    const key = `${r.task}\0${r.treatment}`;
    if (checked.has(key)) continue;
    checked.add(key);
    settleRun(settings, r, "00000000-0000-4000-8000-000000000000");
  }
}

/** Folders copied into workspaces (environment/, Skill folders) must not link outside the suite. */
export async function refuseSymlinksOut(suite: Suite, planned: RunSpec[]): Promise<void> {
  for (const name of new Set(planned.map((r) => r.task))) {
    const t = suite.tasks.find((x) => x.name === name);
    if (t?.environment_dir)
      await refuseEscapingSymlinks(t.environment_dir, [suite.root], `${t.rel_dir}/environment`);
  }
  for (const name of new Set(planned.map((r) => r.treatment))) {
    const tr = suite.treatments.find((x) => x.name === name);
    for (const sk of tr?.skills ?? [])
      if (sk.path)
        await refuseEscapingSymlinks(
          sk.path,
          [suite.root, sk.path],
          `treatment ${name}: skill ${sk.name}`,
        );
  }
}

/**
 * The driver, binary and version of every agent the plan uses, each resolved once, and the
 * simulated user's agent. A missing binary is bad input naming the treatments that need it;
 * `--agent-bin` applies only when the plan uses a single agent (else each agent is found by its
 * SKILLBENCH_<AGENT>_BIN, its pinned npm package, then PATH: docs/agents.md).
 */
export function resolveAgents(
  opts: Pick<RunOptions, "driver" | "agentBin" | "simulatorAgent">,
  planned: readonly { agent: string; treatment: string }[],
  hostEnv: Record<string, string | undefined>,
  cwd: string,
): {
  /** Each agent's driver and binary, in the plan's order. */
  found: { name: string; driver: AgentDriver; bin: ResolvedBinary }[];
  /** The same with each one's version: the versions are asked at once, while the caller goes on. */
  setups: Promise<Record<string, AgentSetup>>;
  simulator: { driver: AgentDriver; bin: ResolvedBinary } | { error: string };
} {
  const names = [...new Set(planned.map((r) => r.agent))];
  const found: { name: string; driver: AgentDriver; bin: ResolvedBinary }[] = [];
  for (const name of names) {
    const driver = opts.driver?.name === name ? opts.driver : agentDriver(name);
    if (driver === null)
      throw new InputError(`unknown agent "${name}": use one of ${agentNames().join(", ")}`, {
        field: "--agent",
      });
    const agentBin = names.length === 1 ? opts.agentBin : undefined;
    const bin = driver.resolveBinary({ agentBin, env: hostEnv });
    if ("error" in bin) {
      const users = [...new Set(planned.filter((r) => r.agent === name).map((r) => r.treatment))];
      throw new InputError(`${bin.error} (needed by treatment ${users.join(", ")})`, {
        field: names.length === 1 ? "--agent-bin" : "agent",
      });
    }
    found.push({ name, driver, bin });
  }
  const setups = Promise.all(
    found.map(async ({ name, driver, bin }) => {
      const version = await driver.version(
        bin.path,
        { PATH: hostEnv.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
        cwd,
      );
      return [name, { driver, bin, version }] as const;
    }),
  ).then((pairs) => Object.fromEntries(pairs) as Record<string, AgentSetup>);
  const simulatorName = opts.simulatorAgent ?? defaultAgent().name;
  const simulatorDriver = agentDriver(simulatorName);
  if (simulatorDriver === null)
    throw new InputError(
      `unknown agent "${simulatorName}": use one of ${agentNames().join(", ")}`,
      {
        field: "--simulator-agent",
      },
    );
  const same = found.find((f) => f.name === simulatorDriver.name);
  const simulatorBin =
    same?.driver === simulatorDriver ? same.bin : simulatorDriver.resolveBinary({ env: hostEnv });
  const simulator =
    "error" in simulatorBin ? simulatorBin : { driver: simulatorDriver, bin: simulatorBin };
  return { found, setups, simulator };
}

/**
 * What the planned runs ask of the machine's sandboxes, from each task's requested kind:
 * `probe`, the sandbox probe they need (null when no run asks for `auto`: an explicit kind is used
 * as asked, docs/sandbox.md), with docker asked up front only when an `auto` run's task has
 * environment/Dockerfile (src/sandbox/probe.ts); `mayUseDocker`, whether a run may use docker
 * (asked for it, or `auto` with a Dockerfile), when leftover containers are asked of docker by
 * label rather than by marker (src/sandbox/leftovers.ts).
 */
export function sandboxNeeds(
  suite: Suite,
  planned: RunSpec[],
  cli: SandboxChoice | undefined,
  hasDockerfile: (task: TaskSpec) => boolean,
): { probe: { dockerfileAuto: boolean } | null; mayUseDocker: boolean } {
  let auto = false;
  let dockerfileAuto = false;
  let docker = false;
  for (const task of new Set(planned.map((r) => r.task))) {
    const spec = suite.tasks.find((t) => t.name === task);
    const choice = requestedSandbox(cli, spec, suite.config.sandbox);
    if (choice === "docker") docker = true;
    if (choice !== "auto") continue;
    auto = true;
    if (spec && hasDockerfile(spec)) dockerfileAuto = true;
  }
  return {
    probe: auto ? { dockerfileAuto } : null,
    mayUseDocker: docker || dockerfileAuto,
  };
}

/** skillbench.yaml's pass_env and --pass-env, each name once. */
export function passEnvOf(suitePassEnv: string[], opts: RunOptions): string[] {
  return [...new Set([...suitePassEnv, ...(opts.passEnv ?? [])])];
}
