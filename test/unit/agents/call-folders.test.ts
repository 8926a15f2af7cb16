/**
 * An agent called outside a run (agents/call.ts), seen through the judge through an agent CLI:
 * its private folder is named by tempStem with the experiment id and this process's pid, so the
 * sweep after a kill -9 recognises it while the call runs; a crashed call and a sandbox that does
 * not start leave nothing behind.
 */
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeDriver } from "../../../src/agents/claude/driver.js";
import type { ActiveJudgeConfig } from "../../../src/judge/config.js";
import { agentTransport } from "../../../src/judge/transport-agent.js";
import { openAgentCall } from "../../../src/agents/call.js";
import { removeLeftovers } from "../../../src/sandbox/leftovers.js";
import { tempOwner } from "../../../src/util/temp-names.js";
import { waitUntil } from "../../helpers/cli.js";

const dir = await mkdtemp(path.join(os.tmpdir(), "agent-call-test-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const config: ActiveJudgeConfig = {
  enabled: true,
  model: "m",
  transport: "cli",
  baseUrl: null,
  credential: null,
  samples: 1,
  maxTokens: 100,
  timeoutMs: 30_000,
};

/** A stand-in agent binary running `script` (sh), made once per test. */
async function fakeAgent(name: string, script: string): Promise<string> {
  const bin = path.join(dir, name);
  await writeFile(bin, `#!/bin/sh\n${script}\n`);
  await chmod(bin, 0o755);
  return bin;
}

function transport(
  bin: string,
  scratch: string,
  extra: Partial<Parameters<typeof agentTransport>[0]> = {},
) {
  return agentTransport({
    driver: claudeDriver,
    bin,
    config,
    hostEnv: { PATH: process.env.PATH },
    scratchDir: scratch,
    experimentId: "exp-42",
    ...extra,
  });
}

describe("the judge through an agent CLI: its call's folder", () => {
  it("is skillbench-judge-x<experiment>-p<pid>-XXXXXX, which the sweep finds while the call runs", async () => {
    const scratch = path.join(dir, "running");
    const seen = path.join(dir, "pwd.txt");
    // Says where it runs, then waits to be killed (as a judge that hangs).
    const bin = await fakeAgent("hanging", `printf '%s' "$PWD" > '${seen}'\nexec sleep 60`);
    const stop = new AbortController();
    const call = transport(bin, scratch)("prompt", stop.signal);
    await waitUntil(
      async () => (await readFile(seen, "utf8").catch(() => "")) !== "",
      call,
      "the agent's start",
    );
    const folder = path.basename(path.dirname(await readFile(seen, "utf8")));
    expect(folder).toMatch(/^skillbench-judge-xexp-42-p\d+-[A-Za-z0-9]{6}$/);
    expect(tempOwner(folder)).toEqual({ experimentId: "exp-42", pid: process.pid });
    // What a later command's sweep sees once this process is gone (a dry run: nothing removed).
    const swept = await removeLeftovers({
      tmpDirs: [scratch],
      dryRun: true,
      alive: (pid) => pid !== process.pid,
      docker: "when-marked",
      markerDir: scratch,
    });
    expect(swept.folders).toEqual([path.join(scratch, folder)]);
    stop.abort();
    expect(await call).toEqual({ ok: false, error: "judge call cancelled" });
    expect(await readdir(scratch)).toEqual([]);
  });

  it("is removed after a call whose agent crashed", async () => {
    const scratch = path.join(dir, "crashed");
    const bin = await fakeAgent("crashing", "echo 'boom' >&2\nexit 3");
    const reply = await transport(bin, scratch)("prompt", new AbortController().signal);
    expect(reply).toEqual({
      ok: false,
      error: "claude judge exited 3 without a final answer: boom",
    });
    expect(await readdir(scratch)).toEqual([]);
  });

  it("is removed when the sandbox does not start, which is the call's error", async () => {
    const scratch = path.join(dir, "nosandbox");
    const bin = await fakeAgent("unused", "exit 0");
    const reply = await transport(bin, scratch, {
      sandboxFor: ({ dirs }) =>
        Promise.reject(new Error(`no sandbox for ${path.basename(dirs.root).slice(0, 16)}`)),
    })("prompt", new AbortController().signal);
    expect(reply).toEqual({
      ok: false,
      error: "claude judge sandbox: no sandbox for skillbench-judge",
    });
    expect(await readdir(scratch)).toEqual([]);
  });
});

describe("openAgentCall", () => {
  const base = {
    driver: claudeDriver,
    bin: "/bin/false",
    endpoint: { baseUrl: "http://127.0.0.1:9" },
    agent: { hostEnv: { PATH: process.env.PATH } },
  };

  it("removes its folder when the setup fails, and throws the setup's error", async () => {
    const scratch = path.join(dir, "setup-fails");
    await expect(
      openAgentCall({
        ...base,
        name: "gen",
        tmpBase: scratch,
        setup: () => Promise.reject(new Error("no room")),
      }),
    ).rejects.toThrow("no room");
    expect(await readdir(scratch)).toEqual([]);
  });

  it("starts the sandbox around its folders with the call's endpoint, and close() stops it", async () => {
    const scratch = path.join(dir, "sandboxed");
    const seen: string[] = [];
    const call = await openAgentCall({
      ...base,
      name: "probe",
      tmpBase: scratch,
      sandboxFor: ({ dirs, agentBin, modelEndpoint }) => {
        seen.push(`start ${path.basename(dirs.root).slice(0, 16)} ${agentBin} ${modelEndpoint}`);
        return Promise.resolve({
          launcher: (spec) => spec,
          stop: () => {
            seen.push("stop");
            return Promise.resolve();
          },
        });
      },
    });
    expect(call.launcher).toBeDefined();
    expect((await readdir(scratch)).length).toBe(1);
    await call.close();
    expect(seen).toEqual(["start skillbench-probe /bin/false http://127.0.0.1:9", "stop"]);
    expect(await readdir(scratch)).toEqual([]);
  });
});
