/**
 * Arm integrity before runs (docs/statistics.md, "Arm integrity"): each task × treatment × agent of the plan
 * has its workspace prepared exactly as its run will (workspace/prepare.ts), in a temporary
 * folder, and its agent environment built by its driver; analysis/arm-check.ts judges what they
 * hold. Starts no agent: a preflight can call `checkArmsBeforeRuns` (the `run` command records
 * its findings in arm-integrity.json).
 */
import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { agentDriver, type AgentDriver } from "../agents/index.js";
import { classifyArms, type ArmObservation, type HostObservation } from "../analysis/arm-check.js";
import { ARM_INTEGRITY_SCHEMA, type ArmProblem } from "../core/arm-integrity.js";
import type { RunPlan } from "../plan/run-plan.js";
import { skillHooks } from "../scoring/index.js";
import { hashSkillDir, type Suite } from "../suite/index.js";
import { hashTree, listFiles } from "../util/hash.js";
import { createRunDirs, removeRunDirs } from "../workspace/prepare.js";
import { skillsUnderTest } from "./arm-integrity.js";
import { prepareArmWorkspace } from "./arm-workspace.js";

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The agent's project settings in the workspace: its dot-folders' files, Skills left out. */
async function settingsHash(ws: string, folders: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const f of folders) {
    const dir = path.join(ws, `.${f}`);
    if (!existsSync(dir)) continue;
    const skip = (rel: string): boolean => rel === "skills" || rel.startsWith("skills/");
    // A folder that holds only Skills is no settings (CONTROL has no folder at all).
    if ((await listFiles(dir, skip)).length > 0) parts.push(`${f}=${await hashTree(dir, skip)}`);
  }
  return parts.join(",");
}

async function observeArm(
  suite: Suite,
  plan: RunPlan,
  driver: AgentDriver,
  tmpBase: string | undefined,
): Promise<ArmObservation | null> {
  const task = suite.tasks.find((t) => t.name === plan.task);
  const treatment = suite.treatments.find((t) => t.name === plan.treatment);
  if (!task || !treatment) return null;
  const dirs = await createRunDirs(`armcheck-${plan.task}-${plan.treatment}`, tmpBase);
  try {
    const ws = dirs.workspace;
    await prepareArmWorkspace(ws, task, treatment, driver);
    const found: ArmObservation["found"][number][] = [];
    for (const folder of driver.skillFolders)
      for (const name of await subfolders(path.join(ws, `.${folder}`, "skills")))
        found.push({
          folder,
          name,
          hash: await hashSkillDir(path.join(ws, `.${folder}`, "skills", name)),
        });
    const installed = (rel: string): boolean => existsSync(path.join(ws, rel));
    return {
      task: plan.task,
      treatment: plan.treatment,
      agent: driver.name,
      skillsDir: driver.skillsDir,
      skillFolders: driver.skillFolders,
      declared: treatment.skills.map((s) => ({ name: s.name, hash: s.hash })),
      found,
      settings: await settingsHash(ws, driver.skillFolders),
      declaresSettings:
        treatment.hooks !== undefined || skillHooks(installed, driver.skillsDir).length > 0,
      declaresProfile: treatment.profile !== undefined,
      facts: {
        agent: `${plan.agent.bin}@${plan.agent.version ?? "?"}`,
        model: plan.model ?? "default",
        sandbox: plan.sandbox.kind,
        timeout_sec: String(plan.timeout_sec),
        interaction: `${plan.interaction.mode}/${plan.interaction.max_turns}`,
        profile: plan.profile,
      },
    };
  } finally {
    await removeRunDirs(dirs);
  }
}

async function observeHost(
  driver: AgentDriver,
  names: ReadonlySet<string>,
  hostEnv: Record<string, string | undefined>,
  tmpBase: string | undefined,
): Promise<HostObservation> {
  const home = hostEnv.HOME;
  const hostSkills: HostObservation["hostSkills"][number][] = [];
  const leakingEnv: string[] = [];
  if (home === undefined || home === "") return { agent: driver.name, hostSkills, leakingEnv };
  for (const folder of driver.skillFolders)
    for (const name of names) {
      const p = path.join(home, `.${folder}`, "skills", name);
      if (existsSync(p)) hostSkills.push({ name, path: p });
    }
  // The environment the driver builds for a run (agents/env.ts, claude/env.ts): nothing of it
  // may name the host user's HOME or a dot-folder in it (settings, Skills, plugins).
  const dirs = await createRunDirs(`armcheck-env-${driver.name}`, tmpBase);
  try {
    const prepared = await driver.prepare({
      hostEnv,
      dirs,
      endpoint: { baseUrl: "http://127.0.0.1:9", apiKey: "armcheck" },
    });
    const homeDot = `${home.replace(/\/+$/, "")}/.`;
    for (const [k, v] of Object.entries(prepared.env))
      if (v === home || v.startsWith(homeDot)) leakingEnv.push(k);
  } finally {
    await removeRunDirs(dirs);
  }
  return { agent: driver.name, hostSkills, leakingEnv };
}

/**
 * The arm-integrity problems of a plan, found before any agent runs: one observation per task ×
 * treatment × agent (its first planned run) and one of the host per agent.
 */
export async function checkArmsBeforeRuns(i: {
  suite: Suite;
  plans: readonly RunPlan[];
  hostEnv: Record<string, string | undefined>;
  tmpBase?: string | undefined;
}): Promise<ArmProblem[]> {
  const seen = new Set<string>();
  const arms: ArmObservation[] = [];
  const drivers = new Map<string, AgentDriver>();
  for (const plan of i.plans) {
    const key = `${plan.task}\0${plan.treatment}\0${plan.agent.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const driver = agentDriver(plan.agent.name);
    if (driver === null) continue;
    drivers.set(driver.name, driver);
    const o = await observeArm(i.suite, plan, driver, i.tmpBase);
    if (o) arms.push(o);
  }
  const names = skillsUnderTest(i.suite.treatments);
  const hosts: HostObservation[] = [];
  for (const d of drivers.values()) hosts.push(await observeHost(d, names, i.hostEnv, i.tmpBase));
  return classifyArms(arms, hosts);
}

/**
 * `run`: the check before runs, its findings noted and written to arm-integrity.json (only when
 * there are some: a sound experiment's folder is as before).
 */
export async function recordArmsBeforeRuns(
  i: Parameters<typeof checkArmsBeforeRuns>[0] & { outDir: string; note: (m: string) => void },
): Promise<ArmProblem[]> {
  const problems = await checkArmsBeforeRuns(i);
  if (problems.length === 0) return problems;
  for (const p of problems)
    i.note(
      `arm integrity: ${p.kind} ${[p.task, p.treatment, p.agent].filter((x) => x !== null).join("/")} ${p.subject}: ${p.cause}`,
    );
  await writeFile(
    path.join(i.outDir, "arm-integrity.json"),
    `${JSON.stringify({ schema: ARM_INTEGRITY_SCHEMA, problems }, null, 2)}\n`,
  );
  return problems;
}
