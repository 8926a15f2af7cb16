/**
 * killMarked (src/util/process.ts): finds a run's processes by the marker variable in their
 * environment, wherever the variable sits in it (first, last, across the 64 KiB read buffer, in an
 * environment larger than the buffer), and never a process whose variable only starts the same way.
 * Linux (/proc).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { killMarked, RUN_MARKER_VAR } from "../../../src/util/process.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** A `sleep` whose environment is exactly `env`, in that order; resolves once it runs. */
async function sleeper(env: Record<string, string>): Promise<ChildProcess> {
  const c = spawn("/bin/sleep", ["1000"], { env, stdio: "ignore" });
  started.push(c);
  await new Promise<void>((resolve, reject) => {
    c.once("spawn", resolve);
    c.once("error", reject);
  });
  return c;
}

const exited = (c: ChildProcess): Promise<NodeJS.Signals | null> =>
  c.exitCode !== null || c.signalCode !== null
    ? Promise.resolve(c.signalCode)
    : new Promise((resolve) => c.once("exit", (_code, signal) => resolve(signal)));

describe.runIf(process.platform === "linux")("killMarked", () => {
  it.each([
    ["first", (m: string) => ({ [RUN_MARKER_VAR]: m, PATH: "/usr/bin:/bin" })],
    ["last", (m: string) => ({ PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: m })],
    [
      // "FILLER=" + value + NUL ends 10 bytes before 64 KiB: the variable crosses the buffer's end.
      "across the 64 KiB read",
      (m: string) => ({ FILLER: "x".repeat(64 * 1024 - 18), [RUN_MARKER_VAR]: m }),
    ],
    [
      "after 64 KiB (read whole)",
      (m: string) => ({ FILLER: "x".repeat(70_000), [RUN_MARKER_VAR]: m }),
    ],
  ])("kills a process whose marker is %s in its environment", async (_where, env) => {
    const marker = randomUUID();
    const c = await sleeper(env(marker));
    expect(await killMarked(marker)).toBe(1);
    expect(await exited(c)).toBe("SIGKILL");
  });

  it("leaves a process whose variable only starts with the marker, or has a longer name", async () => {
    const marker = randomUUID();
    const longer = await sleeper({ [RUN_MARKER_VAR]: `${marker}x` });
    const otherName = await sleeper({ [`X${RUN_MARKER_VAR}`]: marker });
    expect(await killMarked(marker)).toBe(0);
    expect(longer.exitCode === null && longer.signalCode === null).toBe(true);
    expect(otherName.exitCode === null && otherName.signalCode === null).toBe(true);
  });
});
