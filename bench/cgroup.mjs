// CPU time of a group of processes, for the benchmarks (bench/run-overhead.mjs,
// bench/sandbox/launch-cost.mjs): every process a measurement starts joins a cgroup of its own,
// which counts the CPU of all its descendants, also of processes nobody waits for (bubblewrap's
// outer process exits without reaping the sandbox's pid 1). Linux, as root or with a delegated
// cgroup; elsewhere findCgroupRoot() answers null and the callers fall back or say so.
import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir } from "node:fs/promises";
import path from "node:path";

/**
 * A writable cgroup hierarchy that counts CPU: v1 cpuacct (cpuacct.usage, ns) or v2 (cpu.stat
 * usage_usec). Null when none can be written here.
 */
export async function findCgroupRoot(tag = "bench") {
  if (process.platform !== "linux") return null;
  const candidates = [
    { dir: "/sys/fs/cgroup/cpuacct", kind: "v1" },
    { dir: "/sys/fs/cgroup", kind: "v2" },
    { dir: "/sys/fs/cgroup/unified", kind: "v2" },
  ];
  for (const c of candidates) {
    const probe = path.join(c.dir, `skillbench-${tag}-probe-${process.pid}`);
    try {
      if (c.kind === "v1" && !existsSync(path.join(c.dir, "cpuacct.usage"))) continue;
      if (c.kind === "v2" && !existsSync(path.join(c.dir, "cgroup.controllers"))) continue;
      await mkdir(probe);
      const ok = existsSync(path.join(probe, "cgroup.procs"));
      await rmdir(probe);
      if (ok) return c;
    } catch {
      await rmdir(probe).catch(() => undefined);
    }
  }
  return null;
}

let seq = 0;

/**
 * A fresh cgroup under `root` (from findCgroupRoot) for one measurement: `procs` to join,
 * `cpuSeconds()` to read, `remove()`. Null without a root.
 */
export async function newCgroupIn(root, label) {
  if (!root) return null;
  seq += 1;
  const dir = path.join(root.dir, `skillbench-${process.pid}-${seq}-${label}`);
  await mkdir(dir);
  return {
    procs: path.join(dir, "cgroup.procs"),
    async cpuSeconds() {
      if (root.kind === "v1")
        return Number((await readFile(path.join(dir, "cpuacct.usage"), "utf8")).trim()) / 1e9;
      const stat = await readFile(path.join(dir, "cpu.stat"), "utf8");
      return Number(/usage_usec (\d+)/.exec(stat)?.[1] ?? NaN) / 1e6;
    },
    // A cgroup can be removed once its processes are gone; retry briefly while they exit.
    async remove() {
      for (let i = 0; i < 50; i += 1) {
        try {
          await rmdir(dir);
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      console.error(`could not remove cgroup ${dir}`);
    },
  };
}

/** `cmd args` started through `sh` joining the cgroup first (no cgroup: `cmd args` as is). */
export function inCgroup(cg, cmd, args) {
  if (!cg) return { cmd, args };
  return { cmd: "/bin/sh", args: ["-c", 'echo $$ > "$0" && exec "$@"', cg.procs, cmd, ...args] };
}
