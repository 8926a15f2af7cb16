import { describe, expect, it } from "vitest";
import { CappedOutput } from "../../../src/validators/capture.js";
import { runCaptured } from "../../../src/validators/run-process.js";

describe("CappedOutput", () => {
  it.each<[string, string[], number, string]>([
    ["under the cap", ["ab", "cd"], 10, "abcd"],
    ["exactly the cap", ["abcde", "fghij"], 10, "abcdefghij"],
    [
      "keeps head and tail",
      ["abcdefgh", "ijklmnop"],
      6,
      "abc\n[skillbench: 10 bytes of output dropped]\nnop",
    ],
    [
      "many small chunks",
      ["a", "b", "c", "d", "e", "f", "g"],
      4,
      "ab\n[skillbench: 3 bytes of output dropped]\nfg",
    ],
  ])("%s", (_label, chunks, cap, expected) => {
    const out = new CappedOutput(cap);
    for (const c of chunks) out.push(Buffer.from(c));
    expect(out.text()).toBe(expected);
  });

  it("does not split a multi-byte character across chunks when nothing is dropped", () => {
    const out = new CappedOutput(4);
    const euro = Buffer.from("€"); // 3 bytes
    out.push(euro.subarray(0, 1));
    out.push(euro.subarray(1));
    expect(out.text()).toBe("€");
  });
});

describe("runCaptured", () => {
  it("kills the process group on abort", async () => {
    const ac = new AbortController();
    const pending = runCaptured({
      file: "/bin/sh",
      args: ["-c", "sleep 300"],
      cwd: process.cwd(),
      env: {},
      timeoutMs: 600_000,
      signal: ac.signal,
    });
    ac.abort();
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.signal).toBe("SIGKILL");
  });

  it("reports a missing executable as a spawn error", async () => {
    const r = await runCaptured({
      file: "/nonexistent/bin/x",
      args: [],
      cwd: process.cwd(),
      env: {},
      timeoutMs: 10_000,
    });
    expect(r.spawnError).toMatch(/ENOENT/);
    expect(r.exitCode).toBeNull();
  });
});
