/** The CLI judge's private folder carries the experiment id and pid, so leftover cleanup finds it. */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliTransport } from "../../../src/judge/transport-cli.js";
import { tempOwner } from "../../../src/util/temp-names.js";

const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-judge-test-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("cliTransport folders", () => {
  it("names its per-call folder skillbench-judge-x<experiment>-p<pid>-XXXXXX", async () => {
    // A stand-in for claude: prints one result event whose text is its working folder.
    const bin = path.join(dir, "fake-claude");
    await writeFile(
      bin,
      '#!/bin/sh\nprintf \'{"type":"result","subtype":"success","is_error":false,"result":"%s"}\\n\' "$PWD"\n',
    );
    await chmod(bin, 0o755);
    const send = cliTransport({
      bin,
      hostEnv: { PATH: process.env.PATH },
      scratchDir: dir,
      experimentId: "exp-42",
      config: {
        enabled: true,
        model: "m",
        transport: "cli",
        baseUrl: null,
        credential: null,
        samples: 1,
        maxTokens: 100,
        timeoutMs: 30_000,
      },
    });
    const reply = await send("prompt", new AbortController().signal);
    expect(reply.ok).toBe(true);
    const cwd = reply.ok ? reply.text : "";
    const folder = path.basename(path.dirname(cwd));
    expect(folder).toMatch(/^skillbench-judge-xexp-42-p\d+-[A-Za-z0-9]{6}$/);
    expect(tempOwner(folder)).toEqual({ experimentId: "exp-42", pid: process.pid });
  });
});
