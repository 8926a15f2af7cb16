// An agent's version is asked once per binary file and kept on disk for the next invocation
// (src/agents/version.ts): asked again when the file changes; a failed answer is never kept.
import {
  chmod,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  agentVersionCacheDir,
  forgetAgentVersions,
  versionOf,
} from "../../../src/agents/version.js";

let dir = "";
const savedXdg = process.env.XDG_CACHE_HOME;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-version-cache-"));
  process.env.XDG_CACHE_HOME = path.join(dir, "cache");
});
afterAll(async () => {
  if (savedXdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedXdg;
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => forgetAgentVersions());

/** A fake agent that prints `version` (or fails) and counts its calls in a file beside it. */
async function fakeAgent(name: string, version: string | null): Promise<string> {
  const bin = path.join(dir, name);
  const body = version === null ? "exit 3" : `echo "${version} (Fake Agent)"`;
  await writeFile(bin, `#!/bin/sh\necho x >> "${bin}.calls"\n${body}\n`);
  await chmod(bin, 0o755);
  return bin;
}
const calls = async (bin: string): Promise<number> =>
  (await readFile(`${bin}.calls`, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
const ask = (bin: string) => versionOf(bin, ["--version"], { PATH: "/usr/bin:/bin" }, dir);

describe("versionOf", () => {
  it("asks once, then answers from the disk in a fresh process (memory forgotten)", async () => {
    const bin = await fakeAgent("agent-a", "1.2.3");
    expect(await ask(bin)).toBe("1.2.3");
    expect(await calls(bin)).toBe(1);
    forgetAgentVersions();
    expect(await ask(bin)).toBe("1.2.3");
    expect(await calls(bin)).toBe(1);
    expect((await readdir(agentVersionCacheDir())).length).toBeGreaterThan(0);
    expect(agentVersionCacheDir()).toBe(path.join(dir, "cache", "skillbench", "agent-versions"));
  });

  it("a binary replaced or touched is asked again", async () => {
    const bin = await fakeAgent("agent-b", "2.0.0");
    expect(await ask(bin)).toBe("2.0.0");
    forgetAgentVersions();
    await fakeAgent("agent-b", "2.0.1");
    expect(await ask(bin)).toBe("2.0.1");
    expect(await calls(bin)).toBe(2);
    forgetAgentVersions();
    const later = new Date(Date.now() + 5000);
    await utimes(bin, later, later);
    expect(await ask(bin)).toBe("2.0.1");
    expect(await calls(bin)).toBe(3);
  });

  it("a symlink to the binary shares its answer", async () => {
    const bin = await fakeAgent("agent-c", "3.1.4");
    const link = path.join(dir, "agent-c-link");
    await symlink(bin, link);
    expect(await ask(bin)).toBe("3.1.4");
    forgetAgentVersions();
    expect(await ask(link)).toBe("3.1.4");
    expect(await calls(bin)).toBe(1);
  });

  it("a failed answer is not kept: asked again next time", async () => {
    const bin = await fakeAgent("agent-d", null);
    expect(await ask(bin)).toBeNull();
    forgetAgentVersions();
    expect(await ask(bin)).toBeNull();
    expect(await calls(bin)).toBe(2);
  });

  it("a kept answer for another file is never read for this one", async () => {
    const a = await fakeAgent("agent-e", "5.0.0");
    const b = await fakeAgent("agent-f", "6.0.0");
    expect(await ask(a)).toBe("5.0.0");
    expect(await ask(b)).toBe("6.0.0");
  });
});
