import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  cachedCheck,
  healthCacheDir,
  storeCheck,
  taskCheckKey,
} from "../../../src/runner/health-cache.js";
import type { TaskSpec } from "../../../src/suite/index.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-health-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const how = { sandbox: "auto", machine: { bwrap: true, docker: null }, repeats: 3 };
const health = {
  task: "t",
  solution: "solve.sh" as const,
  status: "sound" as const,
  oracle: null,
  null_agent: { passed: [], failed: ["c"] },
  sandbox: "bwrap",
};

describe("the preflight's cache key", () => {
  it("changes with the task, its solution, the sandbox, the machine and the repeats", async () => {
    const taskDir = path.join(dir, "t");
    await mkdir(path.join(taskDir, "solution"), { recursive: true });
    await writeFile(path.join(taskDir, "solution", "solve.sh"), "echo a\n");
    const task = { name: "t", dir: taskDir, hash: "sha256:t1" } as unknown as TaskSpec;
    const base = await taskCheckKey(task, how);
    expect(await taskCheckKey(task, how)).toBe(base);
    const others = [
      await taskCheckKey({ ...task, hash: "sha256:t2" }, how),
      await taskCheckKey(task, { ...how, sandbox: "local" }),
      await taskCheckKey(task, { ...how, machine: { bwrap: false, docker: true } }),
      await taskCheckKey(task, { ...how, repeats: 5 }),
    ];
    await writeFile(path.join(taskDir, "solution", "solve.sh"), "echo b\n");
    others.push(await taskCheckKey(task, how));
    expect(new Set([base, ...others]).size).toBe(6);
  });

  it("keeps a task's check under its key, and nothing under another", async () => {
    const cache = path.join(dir, "cache");
    expect(await cachedCheck(cache, "t", "k1")).toBeNull();
    await storeCheck(cache, "k1", health, []);
    expect(await cachedCheck(cache, "t", "k1")).toEqual({ health, problems: [] });
    expect(await cachedCheck(cache, "other-task", "k1")).toBeNull();
    await writeFile(path.join(cache, "k2.json"), "{not json");
    expect(await cachedCheck(cache, "t", "k2")).toBeNull();
  });

  it.each([
    ["/w/.skillbench/runs/20261206-1", "/w/.skillbench/health-cache"],
    ["/tmp/x/out", "/tmp/x/.skillbench/health-cache"],
  ])("beside %s: %s", (out, want) => expect(healthCacheDir(out)).toBe(want));
});
