/**
 * The agent's `--version` inside bubblewrap is asked once per process and layout
 * (src/sandbox/bwrap.ts): a results folder that has nothing to do with the agent (a queue
 * worker's, new for every job) gets the answer already asked; one that holds the agent's folder
 * is asked again. The stand-in agent answers a fresh random id at every call, so equal answers
 * mean one call.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBwrapSandbox } from "../../src/sandbox/bwrap.js";
import { probeSandboxes } from "../../src/sandbox/index.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { createRunDirs, removeRunDirs, type RunDirs } from "../../src/workspace/prepare.js";

// Under CI (.ci/run installs bubblewrap) this always runs; elsewhere where bubblewrap works.
const bwrapHere =
  process.env.CI === "true" || (await probeSandboxes({ docker: "if-needed" })).bwrap;

let root: string;
let agent: string;
const dirs: RunDirs[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-version-memo-"));
  await mkdir(path.join(root, "agent"));
  agent = path.join(root, "agent", "agent.sh");
  await writeFile(agent, "#!/bin/sh\ncat /proc/sys/kernel/random/uuid\n");
  await chmod(agent, 0o755);
});

afterAll(async () => {
  for (const d of dirs) await removeRunDirs(d);
  await rm(root, { recursive: true, force: true });
});

async function versionInside(resultsDir: string): Promise<string | null> {
  const runDirs = await createRunDirs("version-memo");
  dirs.push(runDirs);
  const sandbox: Sandbox = createBwrapSandbox({
    runDirs,
    task: { environmentDir: null },
    agentBin: agent,
    resultsDir,
    network: "none",
  });
  await sandbox.start();
  await sandbox.stop();
  return sandbox.record.agent_version_inside ?? null;
}

describe.runIf(bwrapHere)("the agent's version inside bubblewrap", () => {
  it("is asked once for results folders apart from the agent, again for one that holds it", async () => {
    const first = await versionInside(path.join(root, "results-job-1"));
    const second = await versionInside(path.join(root, "results-job-2"));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    // The results folder holds the agent's folder: what is hidden inside may matter, asked again.
    const holding = await versionInside(root);
    expect(holding).toMatch(/^[0-9a-f-]{36}$/);
    expect(holding).not.toBe(first);
  });
});
