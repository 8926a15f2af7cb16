import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCK_FILE, lockResultsFolder, type LockHolder } from "../../../src/store/lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-lock-unit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function holder(over: Partial<LockHolder>): LockHolder {
  return {
    schema: "skillbench.lock.v1",
    pid: process.pid,
    host: os.hostname(),
    proc_start: null,
    started_at: "2026-01-01T00:00:00.000Z",
    command: "skillbench run",
    token: "other",
    ...over,
  };
}

async function plant(h: LockHolder): Promise<void> {
  await writeFile(path.join(dir, LOCK_FILE), JSON.stringify(h));
}

describe("lockResultsFolder", () => {
  it("takes a free folder's lock and removes it on release", async () => {
    const lock = await lockResultsFolder(dir, { command: "skillbench run" });
    const text = JSON.parse(await readFile(lock.file, "utf8")) as LockHolder;
    expect(text.pid).toBe(process.pid);
    expect(text.host).toBe(os.hostname());
    await lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it("is shared by a nested acquisition of the same process, removed by the last release", async () => {
    const outer = await lockResultsFolder(dir, { command: "a" });
    const inner = await lockResultsFolder(path.join(dir, "."), { command: "b" });
    await inner.release();
    expect(existsSync(outer.file)).toBe(true);
    await outer.release();
    expect(existsSync(outer.file)).toBe(false);
  });

  // Which planted holders are live (refused) and which stale (taken over).
  const cases: [string, Partial<LockHolder>, "refused" | "taken"][] = [
    ["a live process of this host", { pid: process.pid }, "refused"],
    ["a pid that is gone", { pid: 2 ** 22 + 17 }, "taken"],
    ["a reused pid (another start time)", { pid: process.pid, proc_start: "1" }, "taken"],
    ["another host (cannot be checked)", { pid: 2 ** 22 + 17, host: "elsewhere" }, "refused"],
  ];
  it.each(cases)("a lock held by %s is %s", async (_name, over, want) => {
    await plant(holder(over));
    const notes: string[] = [];
    const got = lockResultsFolder(dir, {
      command: "skillbench run",
      onStale: (h) => notes.push(`stale ${h.pid}`),
    });
    if (want === "refused") {
      await expect(got).rejects.toThrow(/is being written by another skillbench \(pid \d+ on /);
    } else {
      const lock = await got;
      expect(notes).toEqual([`stale ${over.pid ?? 0}`]);
      await lock.release();
    }
  });

  it("with wait, starts once the holder's lock is gone", async () => {
    await plant(holder({ pid: process.pid }));
    let waited = 0;
    const got = lockResultsFolder(dir, {
      command: "x",
      wait: true,
      pollMs: 5,
      onWait: () => {
        waited += 1;
        void rm(path.join(dir, LOCK_FILE));
      },
    });
    const lock = await got;
    expect(waited).toBe(1);
    await lock.release();
  });

  it("a wait ends with the stop signal", async () => {
    await plant(holder({ pid: process.pid }));
    const stop = new AbortController();
    const got = lockResultsFolder(dir, {
      command: "x",
      wait: true,
      pollMs: 5,
      signal: stop.signal,
      onWait: () => stop.abort(),
    });
    await expect(got).rejects.toThrow(/stopped while waiting/);
  });

  it("a folder it made is removed on release while empty, kept once written into", async () => {
    const fresh = path.join(dir, "a", "b");
    const lock = await lockResultsFolder(fresh, { command: "x" });
    await lock.release();
    expect(existsSync(path.join(dir, "a"))).toBe(false);
    const again = await lockResultsFolder(fresh, { command: "x" });
    await writeFile(path.join(fresh, "metadata.json"), "{}");
    await again.release();
    expect(existsSync(path.join(fresh, "metadata.json"))).toBe(true);
    expect(existsSync(path.join(fresh, LOCK_FILE))).toBe(false);
  });

  it("does not make a missing folder when told not to", async () => {
    const missing = path.join(dir, "nope");
    const lock = await lockResultsFolder(missing, { command: "x", create: false });
    expect(existsSync(missing)).toBe(false);
    await lock.release();
  });
});
